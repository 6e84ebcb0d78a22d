import SimKernel

/// The defaults a scenario file gets for every key it leaves out (`docs/scenario.md`,
/// "Scenario files"; the values are the seeds' and `docs/platform-facts.md`'s, as documented on
/// each model field). The decoder applies exactly these.
public enum ScenarioDefaults {
    public static let description = ""
    public static let seed: UInt64 = 1
    /// 2026-03-02T00:00:00Z.
    public static let start = "2026-03-02T00:00:00Z"
    public static let startUnixSeconds: Int64 = 1_772_409_600
    public static let tieBreak = TieBreakMode.fifo
    public static let timeZones = Categorical<String>([(value: "UTC", weight: 1)])
    public static let signedIn = 0.95
    public static let lastTestDaysAgo = Distribution.uniform(0, 120)
    public static let networkProfile = "urban"
    /// A fault narrowed by nothing affects every device.
    public static let faultFraction = 1.0
}

/// A duration distribution's parameter, microseconds.
@inline(__always) func micros(_ d: SimDuration) -> Double { Double(d.microseconds) }

extension BatteryConfig {
    /// 3300 mAh, initial percent uniform [30, 100], charged overnight.
    public static let defaults = BatteryConfig(capacityMah: 3300, initialPercent: .uniform(30, 100), charging: .overnight)
}

extension EnergyConfig {
    /// 150 mA of CPU in the background; a cold launch 400 ms of it, a resume 100 ms.
    public static let defaults = EnergyConfig(cpuActiveMilliamps: 150, coldLaunch: .milliseconds(400), resume: .milliseconds(100))
}

extension UsageConfig {
    /// 2.5 opens a day; half the notifications opened, after lognormal median 20 min / p99 12 h;
    /// 60 % take an available test, which lasts 25 min.
    public static let defaults = UsageConfig(
        appOpensPerDay: 2.5,
        notificationOpenProbability: 0.5,
        notificationOpenDelay: .lognormal(median: micros(.minutes(20)), p99: micros(.hours(12))),
        takeTestProbability: 0.6,
        testDuration: .minutes(25))
}

extension DeviceSettings {
    /// Background App Refresh on for 90 %, Low Power Mode for 5 %, permission
    /// authorized 0.6 / denied 0.3 / notDetermined 0.1.
    public static let defaults = DeviceSettings(
        backgroundAppRefresh: 0.9,
        lowPowerMode: 0.05,
        notificationPermission: Categorical([(value: .authorized, weight: 0.6), (value: .denied, weight: 0.3),
                                             (value: .notDetermined, weight: 0.1)]))
}

extension IOSConfig {
    /// The launch policy's defaults, 30 s run limit, 2 % early expirations,
    /// 5 s watchdog grace, 10 s key-value persist delay, suspension at once.
    public static let defaults = IOSConfig(
        launchPolicy: .defaults,
        refreshRunLimit: .seconds(30),
        earlyExpirationRate: 0.02,
        watchdogGrace: .seconds(5),
        kvPersistDelay: .seconds(10),
        suspensionDelay: .zero)
}

extension LogicConfig {
    /// No bug variants; every section its defaults.
    public static let defaults = LogicConfig()
}

extension BackendConfig {
    /// 64 workers, service time lognormal median 40 ms / p99 400 ms, queue limit 10,000,
    /// 60 s client timeout, 30 d token lifetime.
    public static let defaults = BackendConfig(
        workers: 64,
        serviceTime: .lognormal(median: micros(.milliseconds(40)), p99: micros(.milliseconds(400))),
        queueLimit: 10_000,
        requestTimeout: .seconds(60),
        authTokenLifetime: .days(30))
}
