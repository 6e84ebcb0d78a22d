import SimKernel
import AppLogic
import Platform

/// App Standby Buckets (docs/platform-facts.md section B; AOSP `AppStandbyController`):
/// the bucket follows use and its timeouts.
extension World {
    /// The app's bucket now; a change is traced and counted.
    @discardableResult
    mutating func checkBucket(_ d: UInt32) -> StandbyBucket {
        let a = androidIndex(d)
        let bucket = models(d).buckets.bucket(androids[a].bucket, at: now)
        guard bucket != androids[a].lastBucket else { return bucket }
        note(d, "App Standby: bucket \(androids[a].lastBucket) → \(bucket)")
        metrics.platform.bucketChanges += 1
        androids[a].lastBucket = bucket
        return bucket
    }

    /// The next moment the bucket can change with the screen as it is now. Screen-on
    /// thresholds reached during a screen session are applied at its end (the bucket
    /// used for quotas is always computed exactly).
    mutating func armBucketTimer(_ d: UInt32) {
        let a = androidIndex(d)
        let generation = androids[a].timers.arm(.bucket)
        guard let at = models(d).buckets.nextChange(androids[a].bucket, after: now) else { return }
        clock.schedule(.android(.timer(device: d, timer: .bucket, generation: generation)), at: at)
    }

    /// Where device `d`'s periodic bucket check grid lies. AppStandbyController re-posts
    /// `MSG_CHECK_IDLE_STATES` every `mCheckIdleIntervalMillis` (3 h) from its start at
    /// boot (AOSP `apex/jobscheduler/service/java/com/android/server/usage/AppStandbyController.java`,
    /// `AppStandbyHandler.handleMessage`); boot times are unknown, so the phase is uniform
    /// over one interval (**assumption**) from the device's own stream, and no other
    /// draw shifts. Zero when the model applies thresholds at once.
    func bucketCheckPhase(_ d: UInt32, _ buckets: StandbyBucketModel) -> SimDuration {
        guard let interval = buckets.config.checkIdleInterval else { return .zero }
        var rng = RandomStream(seed: scenario.seed, entity: globalID(Int(d)), purpose: "android.bucketCheckPhase")
        return SimDuration(microseconds: Int64(rng.uniform() * Double(interval.microseconds)))
    }
}
