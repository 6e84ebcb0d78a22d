import Reports

/// What the feature hosts add to report.json, gathered by the list of features
/// (Features/Features.swift, `featureReport()`): each host's own top-level sections,
/// and its entries in the sections the core assembles. The core's report reads only
/// this, never a host, so a new feature's keys need no change under Report/.
struct ReportParts {
    /// Top-level sections, by key.
    var sections: [String: ReportValue] = [:]
    /// Entries of `latency`.
    var latency: [String: ReportValue] = [:]
    /// Each latency's hours (`latencyOverTime.series`), by its summary's path (`latency.<name>`).
    var latencyOverTime: [(of: String, timeline: LatencyTimeline)] = []
    /// Entries of each cohort's `battery.<cohort>`, in cohort order.
    var battery: [[String: ReportValue]]
    /// Entries of `backend`.
    var backend: [String: ReportValue] = [:]
    /// Entries of `backend.load`.
    var load: [String: ReportValue] = [:]
    /// Entries of `scheduling`.
    var scheduling: [String: ReportValue] = [:]
    /// Notifications the features posted (`notifications.posted`).
    var notificationsPosted: UInt64 = 0

    init(cohorts: Int) {
        battery = Array(repeating: [:], count: cohorts)
    }

    /// `latency.<name>`: its whole-run summary and its series over time.
    mutating func addLatency(_ name: String, _ recorded: TimedLatency) {
        latency[name] = recorded.whole.latencySummary()
        latencyOverTime.append(("latency." + name, recorded.overTime))
    }
}
