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
    /// Refresh jobs started, by the app's standby bucket at the start.
    var androidLaunchesByBucket = [UInt64](repeating: 0, count: 5)
    /// Due work that found Doze restricting background work, and how long it waited.
    var dozeDeferrals: UInt64 = 0
    var dozeDeferral = LatencyHistogram()
    /// From the time WorkManager's work was due (its requested interval) to its start.
    var workManagerDelay = LatencyHistogram()
    /// Due work held back by the standby bucket's JobScheduler quota.
    var quotaDeferrals: UInt64 = 0
    /// Jobs stopped at their quota or 10-minute deadline.
    var jobsStopped: UInt64 = 0
    var dozeDeepIdleEntries: UInt64 = 0
    var dozeMaintenanceWindows: UInt64 = 0
    var bucketChanges: UInt64 = 0
}
