import Reports

/// The refresh's section of report.md and report.html (docs/architecture.md, "A
/// feature's report"): its tasks and test latencies, the analytics events, each task's
/// energy in the battery table against seed `000`'s budget.
extension RefreshFeature {
    static let reportSection = FeatureSection(
        id: "refresh", tocLabel: "Refresh", batteryColumns: [("per refresh p95", "energyPerRefresh")],
        batteryNote: "the budget is < 1 % of the battery per refresh", tailMechanisms: tailMechanisms, build: section)

    @Sendable static func section(_ r: ReportValue) -> ReportSection {
        let analytics = r.lookup("analytics")?.objectValue ?? [:]
        var rows = [["refresh tasks run", ReportSections.count(r, "scheduling.launches")],
                    ["task duration p95", ReportSections.latencyFigures(r, "latency.refreshTaskDuration", "p95")],
                    ["test available → notified, p95", ReportSections.latencyFigures(r, "latency.testAvailableToNotified", "p95")],
                    ["test available → seen, p95", ReportSections.latencyFigures(r, "latency.testAvailableToSeen", "p95")]]
        rows += analytics.keys.sorted().map { ["analytics: \($0)", MetricText.plain(analytics[$0]?.doubleValue ?? 0)] }
        return ReportSection(id: "refresh", title: "Background refresh", blocks: [.table(header: ["", "value"], rows: rows)])
    }

    /// What delays a test's notification and its being seen (`latency.testAvailableTo*`):
    /// Doze defers the Android jobs that look for tests, iOS grants only some of the
    /// task's looks (`scheduling.launchPolicy`), a backend outage leaves the test checks
    /// unanswered.
    @Sendable static func tailMechanisms(_ r: ReportValue, _ name: String) -> [String] {
        guard name.hasPrefix("testAvailableTo") else { return [] }
        func n(_ path: String) -> Int64 { r.lookup(path)?.intValue ?? 0 }
        var out = [LatencyTail.dozeDeferredJobs(r)].compactMap { $0 }
        if n("scheduling.launchPolicy.looks") > n("scheduling.launchPolicy.grants") {
            out.append("iOS granted \(HumanUnits.count(n("scheduling.launchPolicy.grants"))) of \(HumanUnits.count(n("scheduling.launchPolicy.looks"))) "
                       + "background-refresh looks, the daily budget ran out \(HumanUnits.count(n("scheduling.launchPolicy.dailyBudgetUsedUp"))) times "
                       + "(scheduling.launchPolicy)")
        }
        return out + LatencyTail.backendOutages(r)
    }
}
