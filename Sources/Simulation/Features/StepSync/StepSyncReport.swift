import Reports

/// The step sync's section of report.json (Features/Features.swift lists it).
extension World {
    /// Seed `003`'s uploads, HealthKit wakes, stale-sync notifications and the server's
    /// dropped old writes.
    func stepSyncSection() -> ReportValue {
        [
            "uploads": .count(stepSync.metrics.uploads),
            "healthKitDeliveries": .count(stepSync.metrics.healthDeliveries),
            "staleSyncNotifications": .count(stepSync.metrics.staleSyncNotifications),
            "droppedOldWrites": .count(stepSync.store.droppedWrites),
        ]
    }
}
