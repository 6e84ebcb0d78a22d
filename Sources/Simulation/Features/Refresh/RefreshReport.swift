import Reports

/// The background refresh's part of report.json (Features/Features.swift lists it).
extension RefreshHost {
    /// Seeds `000` and `002`: the two test latencies and the task's time (`latency`), the
    /// test notifications shown (`notifications.posted`), the analytics events
    /// (`analytics`), and per cohort each task's energy against seed `000`'s budget
    /// (`battery.<cohort>`).
    func report(into parts: inout ReportParts, core: WorldCore) {
        parts.addLatency("testAvailableToNotified", metrics.testAvailableToNotified)
        parts.addLatency("testAvailableToSeen", metrics.testAvailableToSeen)
        parts.addLatency("refreshTaskDuration", metrics.taskDuration)
        parts.notificationsPosted += metrics.notificationsPosted
        parts.sections["analytics"] = .object(Dictionary(uniqueKeysWithValues: AnalyticsCounter.names.enumerated().map { ($1, .count(metrics.analytics[$0])) }))
        for (c, cohort) in core.cohorts.enumerated() {
            let range = cohort.firstDevice ..< cohort.firstDevice + cohort.count
            parts.battery[c]["energyPerRefresh"] = metrics.energy[c].summary
            // Seed `000`: "Battery Impact Target: < 1% battery usage per refresh".
            parts.battery[c]["budget"] = ["perRefreshPercent": .fixed(1, 2)]
            parts.battery[c]["devicesOverBudget"] = .count(range.filter { overBudget[$0] }.count)
        }
    }
}

/// The refresh's merge rules for `fleetsim merge` (Features/Features.swift lists them):
/// the budget is configuration, the devices over it and the analytics events add up.
extension RefreshFeature {
    static let mergeRules: [(pattern: String, rule: ReportMerge.Rule)] = [
        ("battery.*.budget.perRefreshPercent", .identical), ("battery.*.devicesOverBudget", .sum),
        ("analytics.**", .sum),
    ]
}

/// Its part of what a report of this build holds, for `fleetsim merge` and `compare`
/// (``CoreReportSchema`` has the rules; Features/Features.swift joins them).
extension RefreshFeature {
    static let reportKeys = """
        analytics.*
        battery.*.budget.perRefreshPercent?
        battery.*.devicesOverBudget?
        battery.*.energyPerRefresh.count?
        battery.*.energyPerRefresh.mAh?
        battery.*.energyPerRefresh.percentOfCapacity?
        """
}
