/// The regression gate of `fleetsim compare`: two reports' numeric leaves, compared
/// metric by metric.
///
/// A metric *regresses* when it is one where lower is better (``isGated(_:)``) and
/// the current value exceeds the baseline by more than the tolerance (relative, with
/// a baseline of 0 any increase counts). Other numbers that moved beyond the
/// tolerance are listed as changes, never as regressions: more launches or more
/// requests are not by themselves worse.
public struct ReportComparison: Sendable, Equatable {
    public struct Change: Sendable, Equatable {
        public var metric: String
        public var baseline: Double?
        public var current: Double?
    }

    /// Gated metrics that got worse beyond the tolerance, or went missing.
    public var regressions: [Change] = []
    /// Gated metrics that got better beyond the tolerance.
    public var improvements: [Change] = []
    /// Ungated numbers that moved beyond the tolerance.
    public var changes: [Change] = []

    /// Paths (dotted, `*` matching one key, `name*` one key that starts with `name`) where
    /// lower is better.
    public static let gatedPatterns: [String] = [
        "latency.*.p50", "latency.*.p90", "latency.*.p95", "latency.*.p99", "latency.*.max",
        "battery.*.appEnergyPerDeviceDay.mAh.*", "battery.*.appEnergyPerDeviceDay.percentOfCapacity.*",
        "battery.*.energyPer*.mAh.*", "battery.*.energyPer*.percentOfCapacity.*",
        "battery.*.wakeupsPerDeviceDay.*", "battery.*.radioActiveSecondsPerDeviceDay.*",
        "battery.*.devicesOverBudget",
        "invariants.violations", "invariants.byKind.*",
        "backend.queueing.p50", "backend.queueing.p90", "backend.queueing.p95", "backend.queueing.p99", "backend.queueing.max",
        "backend.rejected", "backend.unanswered", "backend.clientTimeouts",
        "scheduling.watchdogKills", "scheduling.expirations",
    ]

    /// Whether lower is better for `metric`. Keys may contain dots
    /// (`latency.createdToDelivered.high.p95`), so `*` matches one or more keys.
    public static func isGated(_ metric: String) -> Bool {
        let parts = metric.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        return gatedPatterns.contains { matches(pattern: $0.split(separator: ".").map(String.init)[...], parts[...]) }
    }

    private static func matches(pattern: ArraySlice<String>, _ parts: ArraySlice<String>) -> Bool {
        guard let head = pattern.first else { return parts.isEmpty }
        if head == "*" {
            // One or more keys.
            var rest = parts.dropFirst()
            while true {
                if matches(pattern: pattern.dropFirst(), rest) { return true }
                guard !rest.isEmpty else { return false }
                rest = rest.dropFirst()
            }
        }
        // `energyPer*`: one key that starts so (each feature's energy per run of its work).
        if head.count > 1, head.hasSuffix("*") {
            guard let part = parts.first, part.hasPrefix(head.dropLast()) else { return false }
            return matches(pattern: pattern.dropFirst(), parts.dropFirst())
        }
        guard parts.first == head else { return false }
        return matches(pattern: pattern.dropFirst(), parts.dropFirst())
    }

    /// - Parameters:
    ///   - baseline, current: numeric leaves by dotted path (nil for `null`).
    ///   - tolerance: relative, e.g. 0.05 for 5 %.
    public init(baseline: [String: Double?], current: [String: Double?], tolerance: Double) {
        for metric in baseline.keys.sorted() {
            let before = baseline[metric] ?? nil
            let gated = Self.isGated(metric)
            guard current.keys.contains(metric) else {
                if gated { regressions.append(Change(metric: metric, baseline: before, current: nil)) }
                continue
            }
            let after = current[metric] ?? nil
            guard let b = before, let a = after else {
                // A gated number that became null (no data at all) regressed.
                if before != nil, gated { regressions.append(Change(metric: metric, baseline: before, current: nil)) }
                else if before != after { changes.append(Change(metric: metric, baseline: before, current: after)) }
                continue
            }
            let allowance = abs(b) * tolerance
            let change = Change(metric: metric, baseline: b, current: a)
            if a > b + allowance {
                if gated { regressions.append(change) } else { changes.append(change) }
            } else if a < b - allowance {
                if gated { improvements.append(change) } else { changes.append(change) }
            }
        }
    }
}
