/// A `report.json` figure as a person reads it, chosen by where it sits in the report.
///
/// Rules (docs/report.md, "Units"):
/// - Time: the percentiles and `max` of a latency summary (`latency.*`, `backend.queueing`,
///   `scheduling.*Delay`/`*Deferral`, `latency`/`timeToOpen` anywhere, `*Seconds*`),
///   `simulated.duration`, the members of a key ending in `LatencyP95` and any key
///   ending in `Seconds`:
///   ``HumanUnits/duration(seconds:)``.
/// - Energy: a component `mAh`: ``HumanUnits/energy(mAh:)``.
/// - A key `percentOfCapacity` (already in percent), `headroom`, `utilisation`, `pWait`,
///   `*Rate`: percent; `meanWait` and a queueing `wait`'s percentiles: time.
/// - Anything `PerSecond`: a rate; anything else whole: a count with separators; else
///   three significant decimals at most.
/// - A key ending in `Microseconds` (an exact account such as `busyWorkerMicroseconds`):
///   time, from microseconds.
/// - `null` reads `no data`.
public enum MetricText {
    /// The text of `value` found at the dotted `path`.
    public static func format(_ value: Double?, path: String) -> String {
        guard let value else { return "no data" }
        switch kind(of: path) {
        case .duration: return HumanUnits.duration(seconds: value)
        case .microseconds: return HumanUnits.duration(seconds: value / 1_000_000)
        case .energy: return HumanUnits.energy(mAh: value)
        case .percent: return HumanUnits.percent(fraction: value / 100, digits: value.magnitude < 1 ? 3 : 2)
        case .fraction: return HumanUnits.percent(fraction: value, digits: value.magnitude < 0.01 ? 2 : 1)
        case .rate: return HumanUnits.rate(perSecond: value)
        case .plain: return plain(value)
        }
    }

    /// ``format(_:path:)`` of the value at `path` in `report` (`no data` when missing).
    public static func lookup(_ report: ReportValue, _ path: String) -> String {
        guard let found = report.lookup(path) else { return "no data" }
        if let text = found.stringValue { return text }
        return format(found.reportedDouble, path: path)
    }

    /// A number without a unit: whole numbers with separators, others with up to 3 decimals.
    public static func plain(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        if value == value.rounded(), value.magnitude < 9e15 { return HumanUnits.count(Int64(value)) }
        let digits = value.magnitude >= 100 ? 0 : value.magnitude >= 10 ? 1 : value.magnitude >= 1 ? 2 : 3
        if digits == 0, value.magnitude < 9e15 { return HumanUnits.count(Int64(value.rounded())) }
        return FixedDecimal.format(value, digits: digits) ?? "n/a"
    }

    /// How a figure reads: the unit family ``format(_:path:)`` chooses for a path.
    public enum Kind: Equatable { case duration, microseconds, energy, percent, fraction, rate, plain }

    /// The unit family of the figure at the dotted `path`.
    public static func kind(of path: String) -> Kind {
        let parts = path.split(separator: ".").map(String.init)
        guard let last = parts.last else { return .plain }
        if parts.contains("mAh") { return .energy }
        if last.hasSuffix("Microseconds") { return .microseconds }
        if parts.contains("percentOfCapacity") || last.hasSuffix("Percent") { return .percent }
        if last == "headroom" || last == "apiHeadroom" || last.hasSuffix("Rate") || last.hasSuffix("RatePerWeek") { return .fraction }
        if last == "utilisation" || last == "apiUtilisation" || last == "pWait" { return .fraction }
        if last == "meanWait" { return .duration }
        if last.hasSuffix("PerSecond") || parts.contains("requestsPerSecond") { return .rate }
        if last.hasSuffix("Seconds") && !last.hasSuffix("PerDeviceDay") { return .duration }
        if path == "simulated.duration" { return .duration }
        let summaryKeys: Set<String> = ["p50", "p90", "p95", "p99", "max", "min", "mean"]
        if summaryKeys.contains(last), parts.count >= 2 {
            let owner = parts.dropLast()
            let timed = owner.first == "latency" || owner.contains("queueing") || owner.contains("latency") || owner.contains("wait")
                || owner.contains("timeToOpen") || owner.contains { $0.hasSuffix("Delay") || $0.hasSuffix("Deferral") }
                || owner.contains { $0.contains("Seconds") }
            if timed { return .duration }
        }
        if parts.dropLast().contains(where: { $0.hasSuffix("LatencyP95") }) { return .duration }
        return .plain
    }
}

extension ReportValue {
    /// The number as `report.json` writes it (a `.number` rounded to its digits), so what a
    /// person reads agrees with what a machine reads; nil unless a number.
    public var reportedDouble: Double? {
        if case .number(let x, let digits) = self {
            return FixedDecimal.format(x, digits: digits).flatMap(Double.init) ?? x
        }
        return doubleValue
    }
}
