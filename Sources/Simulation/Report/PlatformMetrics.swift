import Reports

/// What the platform models measure: the iOS launch policy's decisions and Android's
/// Doze, buckets, quotas and WorkManager (the report's `scheduling` section).
struct PlatformMetrics {
    // iOS launch policy
    var launchLooks: UInt64 = 0
    var launchGrants: UInt64 = 0
    var budgetExhausted: UInt64 = 0
    var heldBackByForceQuit: UInt64 = 0
    var forceQuits: UInt64 = 0
    // Android
    /// The app's task launches on Android (``Device/launches``), by its standby bucket
    /// at the start.
    var androidLaunchesByBucket = [UInt64](repeating: 0, count: 5)
    /// Due work that found Doze restricting background work, and how long it waited.
    var dozeDeferrals: UInt64 = 0
    var dozeDeferral = LatencyHistogram()
    /// From the time WorkManager's work was due (its requested interval) to its start.
    var workManagerDelay = LatencyHistogram()
    /// Due work held back by the standby bucket's JobScheduler quota.
    var quotaDeferrals: UInt64 = 0
    /// Apps force-stopped by an `android.oemPolicy` that kills background apps.
    var oemForceStops: UInt64 = 0
    /// FCM messages held by Doze (normal priority, or high over the bucket's limit)
    /// until a maintenance window or the screen, and how long they waited.
    var fcmDeferrals: UInt64 = 0
    var fcmDeferral = LatencyHistogram()
    /// High-priority FCM messages delivered at once, temp-allow-listing the app.
    var fcmHighPriorityNow: UInt64 = 0
    /// Jobs stopped at their quota or 10-minute deadline.
    var jobsStopped: UInt64 = 0
    var dozeDeepIdleEntries: UInt64 = 0
    var dozeMaintenanceWindows: UInt64 = 0
    var bucketChanges: UInt64 = 0
    /// Battery Saver turned on by its automatic schedule at 15 % (AndroidHost+BatterySaver).
    var batterySaverActivations: UInt64 = 0
    /// The stale-sync while-idle alarm: deliveries, those deep Doze held, and how long
    /// the held ones waited past their time (AndroidHost+WhileIdleAlarm).
    var alarmsFired: UInt64 = 0
    var alarmsDelayedByDoze: UInt64 = 0
    var alarmDozeDelay = LatencyHistogram()
}
