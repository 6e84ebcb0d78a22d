import Reports

/// The step sync's part of report.json (Features/Features.swift lists it).
extension StepSyncHost {
    /// Seed `003`: its section, the steps' latency, each upload's energy per cohort
    /// (`battery.<cohort>.energyPerSync`), the stale-sync notifications shown
    /// (`notifications.posted`) and Android's step-sync jobs (`scheduling.stepSyncJobs`).
    func report(into parts: inout ReportParts) {
        parts.sections["stepSync"] = section()
        parts.addLatency("stepsRecordedToSynced", metrics.recordedToSynced)
        for c in parts.battery.indices { parts.battery[c]["energyPerSync"] = metrics.uploadEnergy[c].summary }
        parts.notificationsPosted += metrics.staleSyncNotifications
        parts.scheduling["stepSyncJobs"] = .count(metrics.jobs)
    }

    /// `stepSync`: seed `003`'s uploads (and those the app's suspension cut), HealthKit
    /// wakes, stale-sync notifications and the server's dropped old writes.
    func section() -> ReportValue {
        [
            "uploads": .count(metrics.uploads),
            "uploadsCutBySuspension": .count(metrics.uploadsCutBySuspension),
            "healthKitDeliveries": .count(metrics.healthDeliveries),
            "staleSyncNotifications": .count(metrics.staleSyncNotifications),
            "droppedOldWrites": .count(store.droppedWrites),
        ]
    }
}

/// The step sync's merge rules for `fleetsim merge` (Features/Features.swift lists them):
/// its counters add up.
extension StepSyncFeature {
    static let mergeRules: [(pattern: String, rule: ReportMerge.Rule)] = [("stepSync.**", .sum)]
}

/// Its part of what a report of this build holds, for `fleetsim merge` and `compare`
/// (``CoreReportSchema`` has the rules; Features/Features.swift joins them).
extension StepSyncFeature {
    static let reportKeys = """
        battery.*.energyPerSync.count?
        battery.*.energyPerSync.mAh?
        battery.*.energyPerSync.percentOfCapacity?
        scheduling.stepSyncJobs
        stepSync.*
        """
}
