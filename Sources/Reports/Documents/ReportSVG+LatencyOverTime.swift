/// The "latency over time" chart: p50, p95 and p99 per bucket on a logarithmic time axis
/// (``ReportSVG/logLinear(_:)``, as the distribution charts), fault windows as bands.
///
/// Rules: a bucket without samples leaves a gap in each line (no percentile, not a zero);
/// the subtitle names the worst bucket's p99 and when it was, and the chart's title
/// says that a sample counts in the bucket where its delay ended.
extension ReportSVG {
    static let percentileColors = [("p50", "#4e79a7"), ("p95", "#f28e2b"), ("p99", "#c0392b")]

    static func latencyOverTime(title: String, _ l: LatencyOverTime, faults: [(name: String, start: Double, end: Double)]) -> String {
        let plotW = width - left - right, plotH = height - top - bottom
        let lines = [l.p50, l.p95, l.p99]
        let present = lines.flatMap { $0.compactMap { $0 } }
        guard let largest = present.max(), let worst = l.worstP99, !l.counts.isEmpty else { return "" }
        let smallest = present.filter { $0 > 0 }.min() ?? 1
        let lo = logLinear(smallest).rounded(.down)
        var hi = logLinear(largest + 1).rounded(.up)
        if hi <= lo { hi = lo + 1 }
        let duration = Double(l.counts.count) * l.bucketSeconds
        func x(_ seconds: Double) -> Double { left + plotW * Swift.min(Swift.max(seconds / duration, 0), 1) }
        func y(_ micros: Int64) -> Double { top + plotH * (1 - (Swift.min(Swift.max(logLinear(micros), lo), hi) - lo) / (hi - lo)) }

        let samples = l.counts.reduce(0, +)
        let per = [60: "minute", 3_600: "hour", 86_400: "day"][Int(l.bucketSeconds)] ?? HumanUnits.duration(seconds: l.bucketSeconds)
        var out = header(title: "\(title): p50, p95, p99 per \(per), by when each delay ended",
                         subtitle: "\(HumanUnits.count(samples)) samples · worst p99 \(HumanUnits.duration(microseconds: worst.micros)) "
                             + "in the bucket from \(elapsed(Double(worst.bucket) * l.bucketSeconds))")
        for f in faults {
            let x0 = x(f.start), x1 = Swift.max(x(f.end), x0 + 2)
            out += "<rect x=\"\(n(x0))\" y=\"\(n(top))\" width=\"\(n(x1 - x0))\" height=\"\(n(plotH))\" fill=\"#f5b7b1\" fill-opacity=\"0.45\"><title>\(XMLText.escape(f.name)): \(elapsed(f.start)) to \(elapsed(f.end))</title></rect>\n"
        }
        out += line(left, top + plotH, left + plotW, top + plotH, "#333333")
        var lastTick = Double.infinity
        for tick in durationTicks {
            let p = logLinear(tick.micros)
            guard p >= lo, p <= hi else { continue }
            let ty = y(tick.micros)
            guard lastTick - ty >= 18 else { continue }
            lastTick = ty
            out += line(left, ty, left + plotW, ty, "#e5e5e5")
            out += text(left - 6, ty + 4, tick.label, anchor: "end", fill: "#555555")
        }
        out += timeAxis(duration: duration, x: x)
        for (values, (name, color)) in zip(lines, percentileColors) {
            // One polyline per run of buckets with samples; a lone bucket is a dot.
            var run: [String] = []
            func flush() {
                if run.count == 1 {
                    let xy = run[0].split(separator: ",")
                    out += "<circle cx=\"\(xy[0])\" cy=\"\(xy[1])\" r=\"2\" fill=\"\(color)\"><title>\(name)</title></circle>\n"
                } else if run.count > 1 {
                    out += "<polyline points=\"\(run.joined(separator: " "))\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.5\" stroke-linejoin=\"round\"><title>\(name)</title></polyline>\n"
                }
                run = []
            }
            for (i, v) in values.enumerated() {
                guard let v else { flush(); continue }
                run.append("\(n(x((Double(i) + 0.5) * l.bucketSeconds))),\(n(y(v)))")
            }
            flush()
        }
        out += faultLabels(faults, x: x) + "</svg>\n"
        out += "<ul class=\"legend\">"
        for (name, color) in percentileColors { out += "<li><span style=\"background:\(color)\"></span>\(name)</li>" }
        if !faults.isEmpty { out += "<li><span style=\"background:#f5b7b1\"></span>fault window</li>" }
        if l.counts.contains(0) { out += "<li class=\"zero\">gaps: buckets without samples</li>" }
        return out + "</ul>\n"
    }
}
