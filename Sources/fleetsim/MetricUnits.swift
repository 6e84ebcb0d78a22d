import Foundation
import Reports

/// A report.json metric as a person reads it on the console, by the unit its key
/// implies: report.json holds durations in seconds (every key under `latency`,
/// `queueing`, the Doze delays, `timeToOpen`, provider latencies, `simulated.duration`
/// and keys with `Seconds` in their name), energy in mAh, `percentOfCapacity` in
/// percent, rates and headroom as fractions.
enum MetricUnits {
    /// Keys whose numbers below them (except `count`) are durations in seconds.
    static let durationSections: Set<String> = ["latency", "queueing", "dozeDeferral", "dozeDelay", "timeToOpen", "providerLatencyP95"]

    enum Unit: Equatable {
        case seconds, milliampHours, percent, fraction, requestsPerSecond, plain
    }

    static func unit(of metric: String) -> Unit {
        let parts = metric.split(separator: ".").map(String.init)
        let last = parts.last ?? ""
        if last == "count" { return .plain }
        if metric == "simulated.duration" || parts.contains(where: { $0.contains("Seconds") || durationSections.contains($0) }) { return .seconds }
        if parts.contains("mAh") || last == "capacityMah" { return .milliampHours }
        if parts.contains("percentOfCapacity") || last.hasSuffix("Percent") { return .percent }
        if last.hasSuffix("Rate") || last.contains("RatePer") || last.lowercased().hasSuffix("headroom") { return .fraction }
        if parts.contains("requestsPerSecond") { return .requestsPerSecond }
        return .plain
    }

    /// `value` of `metric` in human units; `no data` for a null.
    static func format(_ value: Double?, of metric: String) -> String {
        guard let value else { return "no data" }
        return format(value, unit: unit(of: metric))
    }

    static func format(_ value: Double, unit: Unit) -> String {
        switch unit {
        case .seconds: return HumanUnits.duration(seconds: value)
        case .milliampHours: return HumanUnits.energy(mAh: value)
        case .percent: return HumanUnits.percent(fraction: value / 100, digits: 3)
        case .fraction: return HumanUnits.percent(fraction: value)
        case .requestsPerSecond: return HumanUnits.rate(perSecond: value)
        case .plain: return plain(value)
        }
    }

    /// Whole numbers with thousands separators, others with 4 significant digits.
    static func plain(_ x: Double) -> String {
        if x == x.rounded(), abs(x) < 1e15 { return HumanUnits.count(Int64(x)) }
        return String(format: "%.4g", x)
    }
}
