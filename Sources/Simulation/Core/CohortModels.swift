import SimKernel
import Platform
import Scenario

/// The models and parameters every device of one cohort shares.
///
/// An immutable class, as ``AndroidModels``: the world reads a device's cohort at most
/// events, and where the optimiser did not project the one field it needed, a struct's
/// copy (744 bytes, a retain of each of its names, arrays and models) came first.
final class CohortModels {
    let name: String
    let platform: CohortPlatform
    let scheduler: BGTaskSchedulerModel
    let network: NetworkModel
    let usage: UsageConfig
    let kvPersistDelay: SimDuration
    /// iOS: from the end of the app's last background task to its suspension (`ios.suspensionDelay`).
    let suspensionDelay: SimDuration
    /// iOS: the background-notification throttle also judges those that reach the app in
    /// the foreground (a setting of the cohort's `ios` section).
    let throttlesInForeground: Bool
    let capacityMah: Double
    /// The cohort as the scenario declares it: a feature reads its own settings from it
    /// (`fleet[].<feature>`) beside its host; the core reads the models above.
    let config: Cohort
    /// The features the cohort runs (`fleet[].features`), one ``Feature/bit`` each.
    let featureBits: UInt8
    let battery: BatteryModel
    /// The app's background CPU and launch costs (`energy`).
    let energy: DeviceEnergyModel
    let initialPercent: Distribution
    /// Offsets of this cohort's devices: `first ..< first + count`.
    let firstDevice: Int
    let count: Int
    /// iOS: when the app's pending background task is granted a launch (WorldCore+LaunchPolicy).
    let launchPolicy: LaunchPolicyModel
    /// Screen sessions, app opens and (Android) motion on the diurnal curve (Core/Users).
    let users: UserBehaviorModel
    /// Share of users with Wi-Fi at home (`network.homeWiFi`).
    let homeWiFi: Double
    /// Android: Doze, buckets, quotas and WorkManager (World+Android).
    let android: AndroidModels?

    /// Whether the cohort runs `feature` (its `features` name it).
    @inline(__always) func runs(_ feature: Feature) -> Bool { featureBits & feature.bit != 0 }

    init(_ cohort: Cohort, firstDevice: Int, count: Int) {
        name = cohort.name
        platform = cohort.platform
        scheduler = BGTaskSchedulerModel(
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
        suspensionDelay = cohort.ios.suspensionDelay
        throttlesInForeground = cohort.ios.throttlesForegroundBackgroundNotifications
        capacityMah = cohort.battery.capacityMah
        config = cohort
        featureBits = cohort.features.reduce(0) { $0 | $1.bit }
        battery = BatteryModel(capacityMah: cohort.battery.capacityMah, habit: BatteryModel.Habit(cohort.battery.charging))
        energy = DeviceEnergyModel(cpuActiveMilliamps: cohort.energy.cpuActiveMilliamps,
                                   coldLaunch: cohort.energy.coldLaunch, resume: cohort.energy.resume)
        initialPercent = cohort.battery.initialPercent
        self.firstDevice = firstDevice
        self.count = count
        launchPolicy = LaunchPolicyModel(cohort.ios.launchPolicy)
        users = UserBehaviorModel(curve: .phoneUse, screenSessionsPerDay: cohort.usage.screenSessionsPerDay,
                                  screenSessionLength: cohort.usage.screenSessionLength,
                                  appOpensPerDay: cohort.usage.appOpensPerDay)
        homeWiFi = cohort.network.homeWiFi
        android = cohort.platform == .android ? AndroidModels(cohort.android) : nil
    }
}

/// The Android models a cohort's devices share (`docs/platform-facts.md` A, B, D).
///
/// An immutable class, not a struct: the world looks it up at every Doze input and
/// work check, and a struct copy (464 bytes, a retain of each of its quota, bucket and
/// FCM arrays) was 3 % of a run; a class costs one retain.
final class AndroidModels: Sendable {
    /// Doze with the constant set of the cohort's `android.version`.
    let doze: DozeController
    let buckets = StandbyBucketModel()
    let quota = JobQuotaTracker()
    let workManager = WorkManagerModel()
    /// FCM delivery under Doze and the bucket's high-priority limits (`docs/platform-facts.md` H, B).
    let fcm = FCMDeliveryModel()
    /// Battery-not-low's 15 % / 20 % hysteresis (`docs/platform-facts.md` E).
    let batteryLow = BatteryLowMonitor()
    /// `android.oemPolicy` (**assumption**: no published numbers).
    let oem: OEMBackgroundPolicy
    let motionEventsPerDay: Double
    let quotaRecheck: SimDuration
    /// Battery Saver's automatic schedule at 15 % (`docs/platform-facts.md` E), and the share of
    /// users who turned it on (`android.batterySaverAuto`, **assumption**).
    let batterySaver = BatterySaverModel()
    let batterySaverAuto: Double
    /// How long before the run the screen went off (`android.screenOffBeforeStart`).
    let screenOffBeforeStart: Distribution
    /// The app's `setAndAllowWhileIdle` alarms (a stale-data notification's trigger)
    /// (`docs/platform-facts.md` C). **Assumption**: Android 12 or later, the app targeting 12 or
    /// later (72 an hour while idle).
    let whileIdleAlarms = WhileIdleAlarmLimiter(policy: .android12)
    /// Users' daily alarm clocks (`android.alarmClock`, **assumption**; ``AlarmClockModel``).
    let alarmClock: AlarmClockModel

    init(_ config: AndroidConfig) {
        // The decoder accepts only the modelled releases (`AndroidConfig.versions`).
        doze = DozeController(config: DozeConfig(version: AndroidVersion(rawValue: config.version)!))
        oem = config.oemKillAfterScreenOff.map { .killsBackgroundApps(afterScreenOff: $0) } ?? .stock
        motionEventsPerDay = config.motionEventsPerDay
        quotaRecheck = config.quotaRecheck
        batterySaverAuto = config.batterySaverAuto
        screenOffBeforeStart = config.screenOffBeforeStart
        alarmClock = AlarmClockModel(share: config.alarmClock.share, timeOfDay: config.alarmClock.timeOfDay)
    }
}

extension LaunchPolicyModel {
    init(_ c: LaunchPolicyConfig) {
        self.init()
        opportunityGap = c.opportunityGap
        baseAcceptance = c.baseAcceptance
        chargingFactor = c.chargingFactor
        wifiFactor = c.wifiFactor
        usageLead = c.usageLead
        budgetBase = c.budgetBase
        budgetPerDailyOpen = c.budgetPerDailyOpen
        budgetMax = c.budgetMax
    }
}
