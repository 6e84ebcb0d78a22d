import SimKernel
import Platform
import Scenario

/// The models and parameters every device of one cohort shares.
struct CohortModels {
    var name: String
    var platform: CohortPlatform
    var scheduler: BGTaskSchedulerModel
    var network: NetworkModel
    var usage: UsageConfig
    var kvPersistDelay: SimDuration
    var capacityMah: Double
    /// Whether the cohort's `features` include seed `004`'s continuation.
    var runsContinuation: Bool
    var continuation: ContinuationUsage
    /// Whether the cohort's `features` include seed `001`'s push pipeline.
    var runsPush: Bool
    /// The cohort runs the step sync (`features` has `stepSync`).
    var stepSync: Bool
    var battery: BatteryModel
    var initialPercent: Distribution
    /// Offsets of this cohort's devices: `first ..< first + count`.
    var firstDevice: Int
    var count: Int

    init(_ cohort: Cohort, firstDevice: Int) {
        name = cohort.name
        platform = cohort.platform
        scheduler = BGTaskSchedulerModel(
            launchDelay: cohort.ios.refreshLaunchDelay,
            runLimit: cohort.ios.refreshRunLimit,
            earlyExpirationRate: cohort.ios.earlyExpirationRate,
            watchdogGrace: cohort.ios.watchdogGrace)
        network = NetworkModel(
            latency: cohort.network.latency,
            failureRate: cohort.network.failureRate,
            offlineSpellsPerDay: cohort.network.offlineSpellsPerDay,
            offlineSpellDuration: cohort.network.offlineSpellDuration)
        usage = cohort.usage
        kvPersistDelay = cohort.ios.kvPersistDelay
        capacityMah = cohort.battery.capacityMah
        runsContinuation = cohort.features.contains(.continuation)
        continuation = cohort.continuation
        runsPush = cohort.features.contains(.push)
        stepSync = cohort.features.contains(.stepSync)
        battery = BatteryModel(capacityMah: cohort.battery.capacityMah, habit: BatteryModel.Habit(cohort.battery.charging))
        initialPercent = cohort.battery.initialPercent
        self.firstDevice = firstDevice
        count = cohort.count
    }
}
