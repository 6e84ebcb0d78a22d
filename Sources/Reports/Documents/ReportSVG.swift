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
    /// The series' colours, one each: 18, more than the load causes of "Requests by cause"
    /// (nine gave four pairs of causes one colour). Tableau's 10 and 20 without the
    /// near-twins of colours already in, and without dark red (the limits' and faults').
    static let palette = ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#9c755f", "#ff9da7", "#bab0ac",
                          "#e15759", "#499894", "#d37295", "#a0cbe8", "#ffbe7d", "#8cd17d", "#b6992d", "#79706e", "#d4a6c8"]

    public static func render(_ chart: ReportChart) -> String {
        switch chart {
        case let .latencyCDF(title, histogram, limit): return latencyCDF(title: title, histogram, limit: limit)
        case let .timeSeries(title, unit, bucketSeconds, series, total, capacity, faults, mark, busiestMinute):
            return timeSeries(title: title, unit: unit, bucketSeconds: bucketSeconds, series: series, total: total, capacity: capacity, faults: faults,
                              mark: mark, busiestMinute: busiestMinute)
        case let .latencyOverTime(title, data, faults): return latencyOverTime(title: title, data, faults: faults)
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
        // Zeros (a task that did nothing) sit at the left edge; the axis starts at the
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
                           mark: (at: Double, label: String)? = nil, busiestMinute: Double? = nil) -> String {
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
        // A series that is zero all run is neither drawn (it would lie on the axis) nor in
        // the legend as if it had a line; the legend names it as zero instead.
        let zero = drawn.filter { s in !s.values.contains { $0 != 0 } }.map(\.name)
        drawn.removeAll { s in !s.values.contains { $0 != 0 } }
        let peakSeries = drawn.first { $0.name == "total" } ?? (drawn.count == 1 ? drawn[0] : nil)
        let largest = Swift.max(drawn.flatMap(\.values).max() ?? 0, capacity ?? 0)
        let axisMax = SVGChart.niceCeiling(largest)
        let duration = Double(length) * bucketSeconds
        func x(_ seconds: Double) -> Double { left + plotW * Swift.min(Swift.max(seconds / duration, 0), 1) }
        func y(_ value: Double) -> Double { top + plotH * (1 - Swift.min(Swift.max(value / axisMax, 0), 1)) }

        var subtitle = "per \(HumanUnits.duration(seconds: bucketSeconds)) bucket"
        var peakMark = ""
        // The marked bucket (`mark`), else the series' maximum where it is first reached,
        // with how many buckets reach it (a flat maximum is not one moment).
        let marked: (bucket: Int, label: String, suffix: String)?
        if let mark {
            marked = (Int((mark.at / bucketSeconds).rounded(.down)), mark.label, "")
        } else if let peakSeries, let first = firstMaximum(peakSeries.values) {
            marked = (first.index, "max", first.buckets > 1 ? " (first of \(HumanUnits.count(first.buckets)) buckets at that level)" : "")
        } else {
            marked = nil
        }
        if let peakSeries, let marked, marked.bucket >= 0, marked.bucket < peakSeries.values.count {
            let peak = peakSeries.values[marked.bucket]
            let t = Double(marked.bucket) * bucketSeconds
            subtitle += " · \(marked.label) \(valueText(peak, unit)) at \(elapsed(t))\(marked.suffix)"
            peakMark = "<circle class=\"peak-mark\" data-at=\"\(n(t, 0))\" cx=\"\(n(x(t + bucketSeconds / 2)))\" cy=\"\(n(y(peak)))\" r=\"4\" fill=\"#c0392b\"/>\n"
                + text(x(t + bucketSeconds / 2) + (x(t) > left + plotW * 0.7 ? -8 : 8), Swift.max(y(peak) - 6, top + 10),
                       "\(marked.label) \(valueText(peak, unit))", anchor: x(t) > left + plotW * 0.7 ? "end" : "start", fill: "#c0392b", halo: true)
        }
        var out = header(title: title + (unit.isEmpty ? "" : " (\(unit))"), subtitle: subtitle)
        for f in faults {
            let x0 = x(f.start), x1 = Swift.max(x(f.end), x0 + 2)
            out += "<rect x=\"\(n(x0))\" y=\"\(n(top))\" width=\"\(n(x1 - x0))\" height=\"\(n(plotH))\" fill=\"#f5b7b1\" fill-opacity=\"0.45\"><title>\(XMLText.escape(f.name)): \(elapsed(f.start)) to \(elapsed(f.end))</title></rect>\n"
        }
        for tick in 0...4 {
            let v = axisMax * Double(tick) / 4
            out += line(left, y(v), left + plotW, y(v), tick == 0 ? "#333333" : "#dddddd")
            out += text(left - 6, y(v) + 4, MetricText.plain(v), anchor: "end", fill: "#555555")
        }
        out += timeAxis(duration: duration, x: x)
        if let capacity {
            out += "<line x1=\"\(n(left))\" y1=\"\(n(y(capacity)))\" x2=\"\(n(left + plotW))\" y2=\"\(n(y(capacity)))\" stroke=\"#c0392b\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n"
            out += text(left + plotW - 4, y(capacity) - 5, "capacity \(MetricText.plain(capacity))", anchor: "end", fill: "#c0392b")
        }
        let columns = Int(plotW)
        for s in drawn {
            let group = Swift.max(1, (s.values.count + columns - 1) / columns)
            var points = SVGPoints()
            var i = 0
            while i < s.values.count {
                let end = Swift.min(s.values.count, i + group)
                let peak = s.values[i..<end].max() ?? 0
                points.add(x((Double(i) + Double(end - i) / 2) * bucketSeconds), y(peak))
                i = end
            }
            out += "<polyline points=\"\(points.text())\" fill=\"none\" stroke=\"\(s.color)\" stroke-width=\"\(n(s.width))\" stroke-linejoin=\"round\"><title>\(XMLText.escape(s.name))</title></polyline>\n"
        }
        out += busiestMinuteLine(busiestMinute, x: x, mark: mark?.at) + faultLabels(faults, x: x) + peakMark + "</svg>\n"
        out += legend(drawn.map { ($0.name, $0.color) }, zero: zero, capacity: capacity != nil, faults: !faults.isEmpty)
        return out
    }

    /// The first bucket holding a series' maximum and how many buckets hold it; nil for an
    /// empty or all-zero series. The chart's max marker and the table's "most ... at once"
    /// row both read it, so they name the same minute.
    public static func firstMaximum(_ values: [Double]) -> (index: Int, value: Double, buckets: Int)? {
        guard let peak = values.max(), peak > 0, let index = values.firstIndex(of: peak) else { return nil }
        return (index, peak, values.filter { $0 == peak }.count)
    }

    /// Ticks of elapsed time under a plot `duration` seconds wide, at most 10 and never
    /// closer than ``minimumTickGap``.
    static func timeAxis(duration: Double, x: (Double) -> Double) -> String {
        let plotW = width - left - right, plotH = height - top - bottom
        let steps: [Double] = [600, 1_800, 3_600, 7_200, 10_800, 21_600, 43_200, 86_400, 172_800, 604_800]
        let step = steps.first { duration / $0 <= 10 && plotW * $0 / duration >= minimumTickGap } ?? steps[steps.count - 1]
        var out = ""
        var t = 0.0
        while t <= duration + 0.5 {
            out += line(x(t), top + plotH, x(t), top + plotH + 4, "#333333")
            out += text(x(t), top + plotH + 18, elapsed(t), anchor: "middle", fill: "#555555")
            t += step
        }
        return out
    }

    /// The table's busiest minute (`backend.load.peak.at`) as a thin vertical line on a
    /// load chart, unless that chart's own marker already stands there.
    static func busiestMinuteLine(_ at: Double?, x: (Double) -> Double, mark: Double?) -> String {
        guard let at, at != mark else { return "" }
        let plotH = height - top - bottom
        let lx = x(at)
        return "<line class=\"busiest-minute\" data-at=\"\(n(at, 0))\" x1=\"\(n(lx))\" y1=\"\(n(top))\" x2=\"\(n(lx))\" y2=\"\(n(top + plotH))\" stroke=\"#7d3c98\" stroke-width=\"1\" stroke-dasharray=\"3 3\"/>\n"
            + text(lx > left + (width - left - right) * 0.7 ? lx - 4 : lx + 4, top + plotH - 6, "busiest minute \(elapsed(at))",
                   anchor: lx > left + (width - left - right) * 0.7 ? "end" : "start", fill: "#7d3c98", halo: true)
    }

    /// Fault names at the top of their bands, drawn after the series with a white halo so
    /// no line runs through them.
    static func faultLabels(_ faults: [(name: String, start: Double, end: Double)], x: (Double) -> Double) -> String {
        faults.map { text(x($0.start) + 3, top + 13, $0.name, anchor: "start", fill: "#922b21", halo: true) }.joined()
    }

    /// The HTML legend under a chart: the drawn series, then the ones that are zero all
    /// run (named, without a swatch), the capacity line and the fault band.
    static func legend(_ drawn: [(name: String, color: String)], zero: [String], capacity: Bool, faults: Bool) -> String {
        guard drawn.count > 1 || !zero.isEmpty || capacity || faults else { return "" }
        var out = "<ul class=\"legend\">"
        for s in drawn { out += "<li><span style=\"background:\(s.color)\"></span>\(XMLText.escape(s.name))</li>" }
        if capacity { out += "<li><span style=\"background:#c0392b;height:2px\"></span>capacity</li>" }
        if faults { out += "<li><span style=\"background:#f5b7b1\"></span>fault window</li>" }
        if !zero.isEmpty { out += "<li class=\"zero\">zero all run (not drawn): \(XMLText.escape(zero.joined(separator: ", ")))</li>" }
        return out + "</ul>\n"
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
            + "<title>\(XMLText.escape(title))</title>\n"
            + "<rect x=\"0\" y=\"0\" width=\"\(n(width, 0))\" height=\"\(n(height, 0))\" fill=\"#ffffff\"/>\n"
            + text(left, 18, title, anchor: "start", fill: "#111111", extra: " font-size=\"14\" font-weight=\"bold\"")
            + text(left, 34, subtitle, anchor: "start", fill: "#555555")
    }

    static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ color: String) -> String {
        "<line x1=\"\(n(x1))\" y1=\"\(n(y1))\" x2=\"\(n(x2))\" y2=\"\(n(y2))\" stroke=\"\(color)\" stroke-width=\"1\"/>\n"
    }

    /// `halo`: a white outline under the glyphs, so a label stays legible over lines.
    static func text(_ x: Double, _ y: Double, _ content: String, anchor: String, fill: String, extra: String = "", halo: Bool = false) -> String {
        let outline = halo ? " stroke=\"#ffffff\" stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\"" : ""
        return "<text x=\"\(n(x))\" y=\"\(n(y))\" text-anchor=\"\(anchor)\" fill=\"\(fill)\"\(extra)\(outline)>\(XMLText.escape(content))</text>\n"
    }

    static func n(_ x: Double, _ digits: Int = 1) -> String { FixedDecimal.format(x, digits: digits) ?? "0" }
}
