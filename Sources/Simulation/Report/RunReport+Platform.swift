import Platform
import Reports

extension RunReport {
    /// The `scheduling` keys of the platform models: the iOS launch policy's looks and
    /// grants, force-quits, and Android's Doze deferrals, WorkManager delays, quotas,
    /// buckets, automatic Battery Saver and while-idle alarms.
    func platformSchedulingEntries() -> [String: ReportValue] {
        let p = core.metrics.platform
        return [
            "launchPolicy": [
                "looks": .count(p.launchLooks),
                "grants": .count(p.launchGrants),
                "dailyBudgetUsedUp": .count(p.budgetExhausted),
                "heldBackByForceQuit": .count(p.heldBackByForceQuit),
            ],
            "forceQuits": .count(p.forceQuits),
            "dozeDeferral": p.dozeDeferral.latencySummary(),
            "workManagerDelay": p.workManagerDelay.latencySummary(),
            "quotaDeferrals": .count(p.quotaDeferrals),
            "jobsStopped": .count(p.jobsStopped),
            "oemForceStops": .count(p.oemForceStops),
            "fcm": [
                "highPriorityNow": .count(p.fcmHighPriorityNow),
                "deferredByDoze": .count(p.fcmDeferrals),
                "dozeDelay": p.fcmDeferral.latencySummary(),
            ],
            "doze": [
                "deepIdleEntries": .count(p.dozeDeepIdleEntries),
                "maintenanceWindows": .count(p.dozeMaintenanceWindows),
            ],
            "bucketChanges": .count(p.bucketChanges),
            "batterySaverActivations": .count(p.batterySaverActivations),
            "alarms": [
                "fired": .count(p.alarmsFired),
                "delayedByDoze": .count(p.alarmsDelayedByDoze),
                "dozeDelay": p.alarmDozeDelay.latencySummary(),
            ],
        ]
    }
}

extension StandbyBucket {
    /// The bucket's name in reports (`STANDBY_BUCKET_*`, camel-cased).
    var reportName: String {
        switch self {
        case .active: return "active"
        case .workingSet: return "workingSet"
        case .frequent: return "frequent"
        case .rare: return "rare"
        case .restricted: return "restricted"
        }
    }
}
