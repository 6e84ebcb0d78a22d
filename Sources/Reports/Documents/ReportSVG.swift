/// The charts of report.html as inline SVG (plus an HTML legend), a pure function of
/// their data.
///
/// Rules:
/// - Numbers are written by ``FixedDecimal`` and positions found with integer and basic
///   floating-point arithmetic only (no `log`/`pow`, whose last bits differ between C
///   libraries), so the bytes are the same on every machine.
/// - Axis labels are human units and never closer than ``minimumTickGap`` pixels, so
///   they do not overlap.
/// - Long series are folded to at most one point per pixel, keeping each group's
///   maximum, so a peak is never averaged away.
public enum ReportSVG {
    static let width = 960.0, height = 300.0
    static let left = 70.0, right = 20.0, top = 44.0, bottom = 40.0
    static let minimumTickGap = 56.0
    static let palette = ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#9c755f", "#ff9da7", "#bab0ac"]

    public static func render(_ chart: ReportChart) -> String {
        switch chart {
        case let .latencyCDF(title, histogram, limit): return latencyCDF(title: title, histogram, limit: limit)
        case let .timeSeries(title, unit, bucketSeconds, series, total, capacity, faults, mark):
            return timeSeries(title: title, unit: unit, bucketSeconds: bucketSeconds, series: series, total: total, capacity: capacity, faults: faults, mark: mark)
        case let .bars(title, labels, values, unit):
            return SVGChart.bars(title: title, labels: labels, values: values, unit: unit, width: Int(width), height: 260)
        }
    }

    // MARK: - Latency CDF

    /// A position on a log₂ axis that is linear inside each power of two, from bits only.
    static func logLinear(_ microseconds: Int64) -> Double {
        let v = UInt64(Swift.max(microseconds, 1))
        let e = 63 - v.leadingZeroBitCount
        let base = UInt64(1) << UInt64(e)
        return Double(e) + Double(v - base) / Double(base)
    }

    /// Human durations offered as ticks on a latency axis (microseconds).
    static let durationTicks: [(micros: Int64, label: String)] = [
        (1, "1 µs"), (10, "10 µs"), (100, "100 µs"), (1_000, "1 ms"), (10_000, "10 ms"), (100_000, "100 ms"), (1_000_000, "1 s"),
        (10_000_000, "10 s"), (30_000_000, "30 s"), (60_000_000, "1 min"), (300_000_000, "5 min"), (600_000_000, "10 min"),
        (1_800_000_000, "30 min"), (3_600_000_000, "1 h"), (7_200_000_000, "2 h"), (21_600_000_000, "6 h"),
        (43_200_000_000, "12 h"), (86_400_000_000, "1 d"), (172_800_000_000, "2 d"), (259_200_000_000, "3 d"),
        (604_800_000_000, "7 d"), (1_209_600_000_000, "14 d"), (2_592_000_000_000, "30 d"),
    ]

    static func latencyCDF(title: String, _ h: LatencyHistogram, limit: (percentile: String, seconds: Double)?) -> String {
        let buckets = h.buckets()
        guard let minimum = h.min, let maximum = h.max, !buckets.isEmpty else { return "" }
        let plotW = width - left - right, plotH = height - top - bottom
        let limitMicros = limit.map { Int64(($0.seconds * 1_000_000).rounded()) }
        // Zeros (a refresh that did nothing) sit at the left edge; the axis starts at the
        // power of two below the smallest positive bucket.
        let lo = logLinear(Swift.max(buckets.first { $0.lowerBound > 0 }?.lowerBound ?? minimum, 1)).rounded(.down)
        var hi = logLinear(Swift.max(maximum, 1) + 1).rounded(.up)
        if let limitMicros, limitMicros > 0 { hi = Swift.max(hi, logLinear(limitMicros).rounded(.up)) }
        if hi <= lo { hi = lo + 1 }
        func x(_ micros: Int64) -> Double { left + plotW * (Swift.min(Swift.max(logLinear(micros), lo), hi) - lo) / (hi - lo) }
        func y(_ fraction: Double) -> Double { top + plotH * (1 - fraction) }

        let summary = ["p50", "p95", "p99"].map { p -> String in
            let q = Double(p.dropFirst()) ?? 50
            return "\(p) \(h.percentile(q).map { HumanUnits.duration(microseconds: $0) } ?? "n/a")"
        }.joined(separator: " · ")
        var out = header(title: "\(title): cumulative share of \(HumanUnits.count(h.count)) samples", subtitle: summary + " · max \(HumanUnits.duration(microseconds: maximum))")
        for (fraction, label) in [(0.0, "0 %"), (0.25, "25 %"), (0.5, "50 %"), (0.75, "75 %"), (0.9, "90 %"), (1.0, "100 %")] {
            out += line(left, y(fraction), left + plotW, y(fraction), fraction == 0 ? "#333333" : "#dddddd")
            out += text(left - 6, y(fraction) + 4, label, anchor: "end", fill: "#555555")
        }
        var lastTick = -Double.infinity
        for tick in durationTicks {
            let p = logLinear(tick.micros)
            guard p >= lo, p <= hi else { continue }
            let tx = x(tick.micros)
            guard tx - lastTick >= minimumTickGap else { continue }
            lastTick = tx
            out += line(tx, top, tx, top + plotH, "#eeeeee")
            out += text(tx, top + plotH + 16, tick.label, anchor: "middle", fill: "#555555")
        }
        var points = "\(n(x(buckets[0].lowerBound))),\(n(y(0)))"
        var seen: UInt64 = 0
        for b in buckets {
            seen += b.count
            points += " \(n(x(b.upperBound == Int64.max ? b.upperBound : b.upperBound + 1))),\(n(y(Double(seen) / Double(h.count))))"
        }
        out += "<polyline points=\"\(points)\" fill=\"none\" stroke=\"#4e79a7\" stroke-width=\"2\"/>\n"
        if let limit, let limitMicros {
            let lx = x(limitMicros)
            let label = "limit: \(limit.percentile) ≤ \(HumanUnits.duration(seconds: limit.seconds))"
            out += "<line x1=\"\(n(lx))\" y1=\"\(n(top - 4))\" x2=\"\(n(lx))\" y2=\"\(n(top + plotH))\" stroke=\"#c0392b\" stroke-width=\"2\" stroke-dasharray=\"6 4\"/>\n"
            out += text(lx > left + plotW * 0.7 ? lx - 6 : lx + 6, top + 14, label, anchor: lx > left + plotW * 0.7 ? "end" : "start", fill: "#c0392b")
        }
        return out + "</svg>\n"
    }

    // MARK: - Time series

    static func timeSeries(title: String, unit: String, bucketSeconds: Double, series: [(name: String, values: [Double])],
                           total: Bool, capacity: Double?, faults: [(name: String, start: Double, end: Double)],
                           mark: (at: Double, label: String)? = nil) -> String {
        let plotW = width - left - right, plotH = height - top - bottom
        let length = series.map(\.values.count).max() ?? 0
        guard length > 0 else { return "" }
        // A series named "total" (given, or the sum drawn here) is the dark, thick line the peak is read from.
        var drawn = series.enumerated().map { i, s in
            s.name == "total" ? (name: s.name, values: s.values, color: "#222222", width: 2.5)
                              : (name: s.name, values: s.values, color: palette[i % palette.count], width: 1.5)
        }
        if total {
            let sum = (0..<length).map { i in series.reduce(0.0) { $0 + (i < $1.values.count ? $1.values[i] : 0) } }
            drawn.append((name: "total", values: sum, color: "#222222", width: 2.5))
        }
        let peakSeries = drawn.first { $0.name == "total" } ?? (drawn.count == 1 ? drawn[0] : nil)
        let largest = Swift.max(drawn.flatMap(\.values).max() ?? 0, capacity ?? 0)
        let axisMax = SVGChart.niceCeiling(largest)
        let duration = Double(length) * bucketSeconds
        func x(_ seconds: Double) -> Double { left + plotW * Swift.min(Swift.max(seconds / duration, 0), 1) }
        func y(_ value: Double) -> Double { top + plotH * (1 - Swift.min(Swift.max(value / axisMax, 0), 1)) }

        var subtitle = "per \(HumanUnits.duration(seconds: bucketSeconds)) bucket"
        var peakMark = ""
        // The marked bucket (`mark`), else the first of the peak series' largest.
        let marked: (bucket: Int, label: String)? = mark.map { (Int(($0.at / bucketSeconds).rounded(.down)), $0.label) }
            ?? peakSeries.flatMap { s in s.values.max().flatMap { s.values.firstIndex(of: $0) }.map { ($0, "peak") } }
        if let peakSeries, let marked, marked.bucket >= 0, marked.bucket < peakSeries.values.count {
            let peak = peakSeries.values[marked.bucket]
            let t = Double(marked.bucket) * bucketSeconds
            subtitle += " · \(marked.label) \(valueText(peak, unit)) at \(elapsed(t))"
            peakMark = "<circle class=\"peak-mark\" data-at=\"\(n(t, 0))\" cx=\"\(n(x(t + bucketSeconds / 2)))\" cy=\"\(n(y(peak)))\" r=\"4\" fill=\"#c0392b\"/>\n"
                + text(x(t + bucketSeconds / 2) + (x(t) > left + plotW * 0.7 ? -8 : 8), Swift.max(y(peak) - 6, top + 10),
                       "\(marked.label) \(valueText(peak, unit))", anchor: x(t) > left + plotW * 0.7 ? "end" : "start", fill: "#c0392b")
        }
        var out = header(title: title + (unit.isEmpty ? "" : " (\(unit))"), subtitle: subtitle)
        for f in faults {
            let x0 = x(f.start), x1 = Swift.max(x(f.end), x0 + 2)
            out += "<rect x=\"\(n(x0))\" y=\"\(n(top))\" width=\"\(n(x1 - x0))\" height=\"\(n(plotH))\" fill=\"#f5b7b1\" fill-opacity=\"0.45\"><title>\(SVGChart.escape(f.name)): \(elapsed(f.start)) to \(elapsed(f.end))</title></rect>\n"
            out += text(x0 + 3, top + plotH - 6, f.name, anchor: "start", fill: "#922b21")
        }
        for tick in 0...4 {
            let v = axisMax * Double(tick) / 4
            out += line(left, y(v), left + plotW, y(v), tick == 0 ? "#333333" : "#dddddd")
            out += text(left - 6, y(v) + 4, MetricText.plain(v), anchor: "end", fill: "#555555")
        }
        let steps: [Double] = [600, 1_800, 3_600, 7_200, 10_800, 21_600, 43_200, 86_400, 172_800, 604_800]
        let step = steps.first { duration / $0 <= 10 && plotW * $0 / duration >= minimumTickGap } ?? steps[steps.count - 1]
        var t = 0.0
        while t <= duration + 0.5 {
            out += line(x(t), top + plotH, x(t), top + plotH + 4, "#333333")
            out += text(x(t), top + plotH + 18, elapsed(t), anchor: "middle", fill: "#555555")
            t += step
        }
        if let capacity {
            out += "<line x1=\"\(n(left))\" y1=\"\(n(y(capacity)))\" x2=\"\(n(left + plotW))\" y2=\"\(n(y(capacity)))\" stroke=\"#c0392b\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n"
            out += text(left + plotW - 4, y(capacity) - 5, "capacity \(MetricText.plain(capacity))", anchor: "end", fill: "#c0392b")
        }
        let columns = Int(plotW)
        for s in drawn {
            let group = Swift.max(1, (s.values.count + columns - 1) / columns)
            var points: [String] = []
            var i = 0
            while i < s.values.count {
                let end = Swift.min(s.values.count, i + group)
                let peak = s.values[i..<end].max() ?? 0
                points.append("\(n(x((Double(i) + Double(end - i) / 2) * bucketSeconds))),\(n(y(peak)))")
                i = end
            }
            out += "<polyline points=\"\(points.joined(separator: " "))\" fill=\"none\" stroke=\"\(s.color)\" stroke-width=\"\(n(s.width))\" stroke-linejoin=\"round\"><title>\(SVGChart.escape(s.name))</title></polyline>\n"
        }
        out += peakMark + "</svg>\n"
        if drawn.count > 1 || capacity != nil || !faults.isEmpty {
            out += "<ul class=\"legend\">"
            for s in drawn { out += "<li><span style=\"background:\(s.color)\"></span>\(SVGChart.escape(s.name))</li>" }
            if !faults.isEmpty { out += "<li><span style=\"background:#f5b7b1\"></span>fault window</li>" }
            out += "</ul>\n"
        }
        return out
    }

    /// Time since the run's start: `+0 h`, `+6 h`, `+2 d`, `+2 d 08:10`.
    static func elapsed(_ seconds: Double) -> String {
        let total = Int64(seconds.rounded())
        let days = total / 86_400, rest = total % 86_400
        let hours = rest / 3_600, minutes = (rest % 3_600) / 60
        if rest == 0 { return days == 0 ? "start" : "+\(days) d" }
        if minutes == 0 && days == 0 { return "+\(hours) h" }
        let hm = (hours < 10 ? "0" : "") + "\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes)"
        return days == 0 ? "+\(hm)" : "+\(days) d \(hm)"
    }

    static func valueText(_ value: Double, _ unit: String) -> String {
        MetricText.plain(value) + (unit.isEmpty ? "" : " \(unit)")
    }

    // MARK: - Pieces

    static func header(title: String, subtitle: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(width, 0))\" height=\"\(n(height, 0))\" viewBox=\"0 0 \(n(width, 0)) \(n(height, 0))\" role=\"img\" font-family=\"sans-serif\" font-size=\"12\">\n"
            + "<title>\(SVGChart.escape(title))</title>\n"
            + "<rect x=\"0\" y=\"0\" width=\"\(n(width, 0))\" height=\"\(n(height, 0))\" fill=\"#ffffff\"/>\n"
            + text(left, 18, title, anchor: "start", fill: "#111111", extra: " font-size=\"14\" font-weight=\"bold\"")
            + text(left, 34, subtitle, anchor: "start", fill: "#555555")
    }

    static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ color: String) -> String {
        "<line x1=\"\(n(x1))\" y1=\"\(n(y1))\" x2=\"\(n(x2))\" y2=\"\(n(y2))\" stroke=\"\(color)\" stroke-width=\"1\"/>\n"
    }

    static func text(_ x: Double, _ y: Double, _ content: String, anchor: String, fill: String, extra: String = "") -> String {
        "<text x=\"\(n(x))\" y=\"\(n(y))\" text-anchor=\"\(anchor)\" fill=\"\(fill)\"\(extra)>\(SVGChart.escape(content))</text>\n"
    }

    static func n(_ x: Double, _ digits: Int = 1) -> String { FixedDecimal.format(x, digits: digits) ?? "0" }
}
