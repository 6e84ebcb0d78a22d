import Reports

/// The step sync's section of report.json (Features/Features.swift lists it).
extension StepSyncHost {
    /// Seed `003`'s uploads, HealthKit wakes, stale-sync notifications and the server's
    /// dropped old writes.
    func section() -> ReportValue {
        [
            "uploads": .count(metrics.uploads),
            "healthKitDeliveries": .count(metrics.healthDeliveries),
            "staleSyncNotifications": .count(metrics.staleSyncNotifications),
            "droppedOldWrites": .count(store.droppedWrites),
        ]
    }
}
