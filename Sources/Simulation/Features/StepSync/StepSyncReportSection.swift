import Reports

/// The step sync's section of report.md and report.html (docs/architecture.md, "A
/// feature's report"): its uploads and deliveries, and each upload's energy in the
/// battery table.
extension StepSyncFeature {
    static let reportSection = FeatureSection(
        id: "step-sync", tocLabel: "Step sync", batteryColumns: [("per sync p95", "energyPerSync")],
        tailMechanisms: tailMechanisms, build: section)

    @Sendable static func section(_ r: ReportValue) -> ReportSection {
        let rows = [["uploads", ReportSections.count(r, "stepSync.uploads")], ["HealthKit deliveries", ReportSections.count(r, "stepSync.healthKitDeliveries")],
                    ["stale-sync notifications (24 h without sync)", ReportSections.count(r, "stepSync.staleSyncNotifications")],
                    ["old writes dropped by the store", ReportSections.count(r, "stepSync.droppedOldWrites")],
                    ["Android step-sync jobs", ReportSections.count(r, "scheduling.stepSyncJobs")],
                    ["steps recorded → synced, p50", ReportSections.latencyFigures(r, "latency.stepsRecordedToSynced", "p50")],
                    ["steps recorded → synced, p95", ReportSections.latencyFigures(r, "latency.stepsRecordedToSynced", "p95")]]
        return ReportSection(id: "step-sync", title: "Step sync", blocks: [.table(header: ["", "value"], rows: rows)])
    }

    /// What delays steps reaching the server (`latency.stepsRecordedToSynced`): Doze
    /// defers the Android jobs that sync, WorkManager runs them late, a backend outage
    /// leaves uploads unanswered.
    @Sendable static func tailMechanisms(_ r: ReportValue, _ name: String) -> [String] {
        guard name == "stepsRecordedToSynced" else { return [] }
        return [LatencyTail.dozeDeferredJobs(r), LatencyTail.workManagerLate(r)].compactMap { $0 } + LatencyTail.backendOutages(r)
    }
}
