import SimKernel
import AppLogic
import Platform

/// App Standby Buckets (docs/platform-facts.md section B; AOSP `AppStandbyController`):
/// the bucket follows use and its timeouts.
extension AndroidHost {
    /// The app's bucket now; a change is traced and counted.
    @discardableResult
    mutating func checkBucket(_ d: UInt32, core: inout WorldCore) -> StandbyBucket {
        let a = core.androidIndex(d)
        settleScreen(d, a, before: core.now, core: &core)
        return checkBucket(d, a, at: core.now, core: &core)
    }

    /// The app's bucket at `t` (now, or the instant of an owed screen-off or of a bucket
    /// check it owes: AndroidHost+Screen); a change is traced and counted.
    @discardableResult
    mutating func checkBucket(_ d: UInt32, _ a: Int, at t: SimTime, core: inout WorldCore) -> StandbyBucket {
        let bucket = borrowedModels(d, core.devices)._withUnsafeGuaranteedRef { $0.buckets.bucket(devices[a].bucket, at: t) }
        guard bucket != devices[a].lastBucket else { return bucket }
        core.note(d, "App Standby: bucket \(devices[a].lastBucket) → \(bucket)")
        core.metrics.platform.bucketChanges += 1
        devices[a].lastBucket = bucket
        return bucket
    }

    /// The next moment the bucket can change with the screen as it is now. Screen-on
    /// thresholds reached during a screen session are applied at its end (the bucket
    /// used for quotas is always computed exactly). A moment moved later (each use and
    /// screen-off moves it) keeps the timer's queue entry, which moves on when it pops
    /// (``bucketTimerFires(_:core:)``): one entry per moment reached, not one per re-arm.
    mutating func armBucketTimer(_ d: UInt32, core: inout WorldCore) {
        let a = core.androidIndex(d)
        settleScreen(d, a, before: core.now, core: &core)
        let t = core.now
        let at = borrowedModels(d, core.devices)._withUnsafeGuaranteedRef { $0.buckets.nextChange(devices[a].bucket, after: t) }
        devices[a].bucketCheckAt = at
        // An owed check (nothing scheduled: AndroidHost+Screen) is now past or replaced.
        devices[a].owed.remove(.bucketCheck)
        guard let at else { return }
        if let entry = devices[a].bucketEntryAt, entry <= at { return }
        scheduleBucketEntry(d, a, at: at, core: &core)
    }

    /// The bucket timer's entry popped: the bucket is checked if its moment has come;
    /// otherwise the entry moves on to the moment.
    mutating func bucketTimerFires(_ d: UInt32, core: inout WorldCore) {
        let a = core.androidIndex(d)
        devices[a].bucketEntryAt = nil
        guard let at = devices[a].bucketCheckAt else { return }
        guard at <= core.now else { return scheduleBucketEntry(d, a, at: at, core: &core) }
        checkBucket(d, core: &core)
        armBucketTimer(d, core: &core)
    }

    private mutating func scheduleBucketEntry(_ d: UInt32, _ a: Int, at: SimTime, core: inout WorldCore) {
        devices[a].bucketEntryAt = at
        let generation = devices[a].timers.arm(.bucket)
        core.schedule(.android(.timer(device: d, generation: generation, timer: .bucket)), at: at)
    }

    /// Where device `d`'s periodic bucket check grid lies. AppStandbyController re-posts
    /// `MSG_CHECK_IDLE_STATES` every `mCheckIdleIntervalMillis` (3 h) from its start at
    /// boot (AOSP `apex/jobscheduler/service/java/com/android/server/usage/AppStandbyController.java`,
    /// `AppStandbyHandler.handleMessage`); boot times are unknown, so the phase is uniform
    /// over one interval (**assumption**) from the device's own stream, and no other
    /// draw shifts. Zero when the model applies thresholds at once.
    static func bucketCheckPhase(_ d: UInt32, _ buckets: StandbyBucketModel, core: borrowing WorldCore) -> SimDuration {
        guard let interval = buckets.config.checkIdleInterval else { return .zero }
        var rng = RandomStream(seed: core.scenario.seed, entity: core.globalID(Int(d)), purpose: "android.bucketCheckPhase")
        return SimDuration(microseconds: Int64(rng.uniform() * Double(interval.microseconds)))
    }
}
