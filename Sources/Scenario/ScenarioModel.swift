import SimKernel

/// A decoded, validated scenario file (docs/scenario.md).
/// Every field has its default already applied; the decoder is the only producer.
public struct Scenario: Sendable, Equatable {
    public var name: String
    public var description: String
    public var seed: UInt64
    /// Seconds since 1970-01-01T00:00:00Z of simulated time zero.
    public var startUnixSeconds: Int64
    public var duration: SimDuration
    public var tieBreak: TieBreakMode
    public var fleet: [Cohort]
    public var logic: LogicConfig
    public var backend: BackendConfig
    public var faults: [Fault]
    public var expect: [Expectation]
    /// The judges switched off by name, with their reasons (`judges.off`, ``JudgeOff``).
    public var judgesOff: [JudgeOff] = []

    /// The file the scenario came from, as given on the command line (for messages and replay hints).
    public var sourcePath: String

    /// Command-line options that changed this scenario after it was read
    /// (`--scale 0.05 --variants none --swarm`), quoted for the shell; every replay
    /// command repeats them.
    public var replayOptions: String = ""
    /// The runner that every replay command starts with: `fleetsim`, or an app's own
    /// runner built on FleetSim's command-line library (docs/harness.md, "The runner").
    public var runner: String = "fleetsim"

    /// The file's content without its layout: FNV-1a 64 of its JSON re-written with
    /// members in file order (``JSONValue/text(sortingKeys:)``), in hex; set by the
    /// decoder. A shard report's identity (`simulated.shard.identity.scenarioContent`).
    public var contentHash: String = ""
    /// The `--scale` factor applied to the file's counts (``scaled(by:)`` multiplies it).
    public var scale: Double = 1
    /// Whether `--swarm` drew this scenario's OS parameters and fault rates.
    public var swarm: Bool = false
    /// The features' own top-level sections (``ScenarioVocabulary/topLevelSections``).
    public var sections = ScenarioSections()

    /// The feature's top-level section of type `S`, its defaults when the file has none.
    public subscript<S: ScenarioSection>(_ type: S.Type) -> S {
        get { sections[type] }
        set { sections[type] = newValue }
    }
}

public enum TieBreakMode: String, Sendable, Equatable { case fifo, shuffle }

public enum Platform: String, Sendable, Equatable { case ios, android }

/// A feature a cohort may run (`fleet[].features`), as the world that runs the scenario
/// declares it (``ScenarioVocabulary/features``): the decoder names no feature itself.
public struct Feature: Hashable, Sendable, CustomStringConvertible {
    /// Its name in a cohort's `features`.
    public let rawValue: String
    /// Its bit in a cohort's set of features, so that whether a cohort runs a feature is
    /// one AND, not a search of its list (which cost a retain, a release and a loop a question).
    public let bit: UInt8
    /// Whether a cohort that lists no `features` runs it; an opt-in feature runs only
    /// where a cohort names it (docs/scenario.md, "features").
    public let byDefault: Bool

    @inlinable public init(_ name: String, bit: UInt8, byDefault: Bool = true) {
        rawValue = name
        self.bit = bit
        self.byDefault = byDefault
    }

    public var description: String { rawValue }
}

/// A categorical choice: names with non-negative weights of positive sum, in file order.
public struct Categorical<Value: Sendable & Equatable>: Sendable, Equatable {
    public var options: [(value: Value, weight: Double)]
    public init(_ options: [(value: Value, weight: Double)]) { self.options = options }
    public var weights: [Double] { options.map(\.weight) }
    /// One value drawn by weight; no array is built per draw. Inlinable, so it is
    /// specialised where it is called: unspecialised, the generic lazy view cost about
    /// 10,000 instructions per draw (a draw made once per simulated message).
    @inlinable public func pick(_ rng: inout RandomStream) -> Value { options[rng.weightedChoice(options.lazy.map { $0.weight })].value }
    public static func == (a: Categorical, b: Categorical) -> Bool {
        a.options.count == b.options.count && zip(a.options, b.options).allSatisfy { $0.value == $1.value && $0.weight == $1.weight }
    }
}

public enum NotificationPermission: String, Sendable, Equatable, CaseIterable {
    case notDetermined, denied, authorized, provisional
}

public enum ChargingHabit: String, Sendable, Equatable, CaseIterable { case overnight, topUps, rarely }

public struct Cohort: Sendable, Equatable {
    public var name: String
    public var count: Int
    public var platform: Platform
    /// Default: every feature the world runs by default (``Feature/byDefault``; see
    /// README, "Features").
    public var features: [Feature]
    /// IANA names with weights. Default `{"UTC": 1}`.
    public var timeZones: Categorical<String>
    public var battery: BatteryConfig
    public var usage: UsageConfig
    public var network: NetworkConfig
    public var settings: DeviceSettings
    /// Fraction of users signed in. Default 0.95.
    public var signedIn: Double
    /// Days since the user's last completed test at simulated time zero. Default uniform [0, 120].
    public var lastTestDaysAgo: Distribution
    public var ios: IOSConfig
    /// The Android model's named assumptions (used by `"platform": "android"` cohorts).
    public var android: AndroidConfig = .defaults
    /// What the app's background CPU and launches cost (``EnergyConfig``).
    public var energy: EnergyConfig = .defaults
    /// The features' own sections of the cohort (``ScenarioVocabulary/cohortSections``).
    public var sections = ScenarioSections()

    /// The feature's section of type `S`, its defaults when the cohort has none.
    public subscript<S: ScenarioSection>(_ type: S.Type) -> S {
        get { sections[type] }
        set { sections[type] = newValue }
    }
}

/// A cohort's `energy` section: named assumptions of the app's background energy
/// (docs/model.md, the energy rows).
public struct EnergyConfig: Sendable, Equatable {
    /// CPU current while the app runs in the background (mA). Default 150.
    public var cpuActiveMilliamps: Double
    /// CPU time of a background launch of a terminated app. Default 400 ms.
    public var coldLaunch: SimDuration
    /// CPU time of a background launch of a suspended app. Default 100 ms.
    public var resume: SimDuration
}

public struct BatteryConfig: Sendable, Equatable {
    /// Default 3300 mAh.
    public var capacityMah: Double
    /// Percent at time zero. Default uniform [30, 100].
    public var initialPercent: Distribution
    /// Default overnight.
    public var charging: ChargingHabit
}

public struct UsageConfig: Sendable, Equatable {
    /// Mean app opens per day (Poisson). Default 2.5.
    public var appOpensPerDay: Double
    /// Probability that a user opens the app from a test-available notification. Default 0.5.
    public var notificationOpenProbability: Double
    /// Delay from a notification to the user opening it. Default lognormal median 20 min, p99 12 h.
    public var notificationOpenDelay: Distribution
    /// Probability that a user takes an available test when the app is opened. Default 0.6.
    public var takeTestProbability: Double
    /// How long taking a test lasts (the active session exists meanwhile). Default 25 min.
    public var testDuration: SimDuration
    /// **Assumption**: phone pick-ups (screen sessions) a day, on the diurnal curve. Default 40.
    public var screenSessionsPerDay: Double = 40
    /// **Assumption**: length of a screen session, microseconds. Default lognormal median 1 min, p99 30 min.
    public var screenSessionLength: Distribution = .lognormal(median: 60e6, p99: 1_800e6)
    /// **Assumption**: probability that the user swipes the app away in the app switcher
    /// when a foreground session ends (iOS force-quit). Default 0.05.
    public var forceQuitProbability: Double = 0.05
}

/// Network profiles: `urban`, `rural`, `commuter`, `flaky` set defaults; the other keys override them.
public struct NetworkConfig: Sendable, Equatable {
    public var profile: String
    /// Round-trip latency of one request, microseconds.
    public var latency: Distribution
    /// Probability that a request fails in transit.
    public var failureRate: Double
    /// Mean offline spells per day (Poisson).
    public var offlineSpellsPerDay: Double
    /// Length of an offline spell, microseconds.
    public var offlineSpellDuration: Distribution
    /// **Assumption**: share of users with Wi-Fi at home; they are on Wi-Fi during the
    /// home hours (``NetworkConfig/homeHours``) and on cellular otherwise.
    public var homeWiFi: Double = 0.8
}

public struct DeviceSettings: Sendable, Equatable {
    /// Fraction with Background App Refresh on. Default 0.9.
    public var backgroundAppRefresh: Double
    /// Fraction with Low Power Mode on. Default 0.05.
    public var lowPowerMode: Double
    /// Default authorized 0.6, denied 0.3, notDetermined 0.1.
    public var notificationPermission: Categorical<NotificationPermission>
}

/// The iOS model's named assumptions (`docs/platform-facts.md` F; README "Assumptions").
public struct IOSConfig: Sendable, Equatable {
    /// When the system grants a pending `BGAppRefreshTask` request a launch (``LaunchPolicyConfig``).
    public var launchPolicy: LaunchPolicyConfig
    /// Run time before expiration. Default 30 s (`docs/platform-facts.md` F).
    public var refreshRunLimit: SimDuration
    /// Fraction of launches that expire early, after 2-5 s (`docs/platform-facts.md` F, field reports). Default 0.02.
    public var earlyExpirationRate: Double
    /// Time after expiration before the watchdog kills a task not yet completed. Default 5 s.
    public var watchdogGrace: SimDuration
    /// Delay before an unsynchronised key-value write reaches disk. Default 10 s.
    public var kvPersistDelay: SimDuration
    /// Time from the end of the app's last background task (`setTaskCompleted`, HealthKit's
    /// completion handler, `endBackgroundTask`) to its suspension. Default 0 s: "the system
    /// suspends the app as soon as all background tasks are complete" (`BGTask.h`).
    public var suspensionDelay: SimDuration = .zero
    /// Whether a background notification (APNs `content-available`) that arrives while the
    /// app is in the foreground goes through the background throttle (`true`, the default)
    /// or reaches the running app at once.
    /// Apple documents the throttle for background delivery only; the foreground case is
    /// an assumption either way (`ios.foregroundSilentPush`).
    public var throttlesForegroundBackgroundNotifications = true
}

/// The iOS launch policy's named assumptions (Platform's `LaunchPolicyModel`; `docs/platform-facts.md`
/// F says only that a task "won't begin sooner" than `earliestBeginDate`).
public struct LaunchPolicyConfig: Sendable, Equatable {
    /// Mean gap between the system's looks at a pending request. Default 30 min.
    public var opportunityGap: SimDuration = .minutes(30)
    /// Grant probability at a look in an average hour, unplugged, on cellular. Default 0.2.
    public var baseAcceptance = 0.2
    /// Multiplier while charging. Default 4.
    public var chargingFactor = 4.0
    /// Multiplier on Wi-Fi. Default 1.5.
    public var wifiFactor = 1.5
    /// The system launches ahead of the user's predicted use by this much. Default 30 min.
    public var usageLead: SimDuration = .minutes(30)
    /// Daily budget: `budgetBase + budgetPerDailyOpen × opens a day`, at most `budgetMax`. Defaults 1, 2, 12.
    public var budgetBase = 1.0
    public var budgetPerDailyOpen = 2.0
    public var budgetMax = 12.0
    public init() {}
    public static let defaults = LaunchPolicyConfig()
}

/// The Android model's named assumptions (`docs/platform-facts.md` A–E give the platform's rules).
public struct AndroidConfig: Sendable, Equatable {
    /// **Assumption**: significant-motion events a day (a walk with the phone, a pick-up
    /// while the screen stays off), on the diurnal curve; they wake deep Doze from
    /// IDLE_PENDING on (`docs/platform-facts.md` A). Default 6.
    public var motionEventsPerDay = 6.0
    /// **Assumption**: a job held back by its standby bucket's quota is looked at again
    /// after this long (JobScheduler sets an alarm for when quota frees). Default 15 min.
    public var quotaRecheck: SimDuration = .minutes(15)
    /// **Assumption** (`oemPolicy`, no published numbers): a manufacturer that force-stops
    /// the app once the screen has been off this long with the app in the background;
    /// nil is `"stock"` (AOSP: never). Default nil.
    public var oemKillAfterScreenOff: SimDuration? = nil
    /// **Assumption** (`batterySaverAuto`, no published share): the share of users who
    /// turned on Battery Saver's automatic schedule at its suggested 15 % (`docs/platform-facts.md`
    /// E); the rest never use it automatically. Default 0.3.
    public var batterySaverAuto = 0.3
    /// The Android release (`version`): 12, 13, 14 or 15; it picks Doze's constant set
    /// (docs/android.md). Default 14, whose set (AOSP `DeviceIdleController` @01740ef)
    /// is the one FleetSim modelled before versions existed.
    public var version = 14
    /// Users' alarm clocks (`alarmClock`), which hold deep Doze back before they ring.
    public var alarmClock = AlarmClockUsage()
    /// **Assumption** (`screenOffBeforeStart`, a duration distribution): how long before the
    /// run each phone's screen went off, so every phone's Doze is at its own step at time
    /// zero (all starting their idle countdown at zero put every phone's maintenance window
    /// in one second). Default uniform 0 to 1 h; `{"constant": "0s"}` starts them together.
    public var screenOffBeforeStart: Distribution = .uniform(0, 3_600e6)
    public init() {}
    public static let defaults = AndroidConfig()
    /// The releases `version` accepts.
    public static let versions: ClosedRange<Int64> = 12...15
}

/// **Assumption** (`android.alarmClock`, no published figures): the share of users with
/// a daily alarm clock (`AlarmManager.setAlarmClock`, a wake-from-idle alarm), and its
/// local time of day, drawn once per user.
public struct AlarmClockUsage: Sendable, Equatable {
    /// Share of users with a daily alarm clock. Default 0.5.
    public var share = 0.5
    /// Local time of day it rings, as a duration after midnight (µs). Default uniform
    /// 6 h to 8 h.
    public var timeOfDay: Distribution = .uniform(6 * 3_600e6, 8 * 3_600e6)
    public init() {}
}

/// `logic`: the known-bug variants it plants and the sections the world's features
/// declare (``ScenarioVocabulary/logicSections``), each read by its type:
/// `logic[SomeConfig.self]`.
public struct LogicConfig: Sendable, Equatable {
    public var variants: [String]
    public var sections = ScenarioSections()

    public init(variants: [String] = []) { self.variants = variants }

    /// The section of type `S`, its defaults when the file has none.
    public subscript<S: ScenarioSection>(_ type: S.Type) -> S {
        get { sections[type] }
        set { sections[type] = newValue }
    }
}

public struct BackendConfig: Sendable, Equatable {
    /// Concurrent API workers. Default 64.
    public var workers: Int
    /// Service time of one request, microseconds. Default lognormal median 40 ms, p99 400 ms.
    public var serviceTime: Distribution
    /// Requests waiting beyond this answer 503. Default 10,000.
    public var queueLimit: Int
    /// Client-side request timeout (URLSession's default 60 s).
    public var requestTimeout: SimDuration
    /// API tokens live this long after sign-in before they expire (401). Default 30 d.
    public var authTokenLifetime: SimDuration
    /// The push service's sending capacity (``PushBackendConfig``).
    public var push: PushBackendConfig = .defaults
    /// `backend.stepStore.retentionDays`: the step table keeps dates this many days
    /// before the server's (UTC) date; nil (the default: seed `003` names none) keeps
    /// every date.
    public var stepRetentionDays: Int? = nil
    /// `backend.endpoints`: the endpoints whose requests draw their service time from a
    /// distribution of their own instead of ``serviceTime``, in file order.
    public var endpointServiceTimes: [EndpointServiceTime] = []
}

/// One endpoint's own service time (`backend.endpoints.<path>.serviceTime`), keyed by
/// its path as report.json names it.
public struct EndpointServiceTime: Sendable, Equatable {
    public var path: String
    public var serviceTime: Distribution

    public init(path: String, serviceTime: Distribution) {
        self.path = path
        self.serviceTime = serviceTime
    }
}

public struct Fault: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case backendOutage
        case backendSlowdown(factor: Double)
        case networkOutage
        case networkLatency(extra: Distribution)
        case pushProviderErrors(provider: String, status: Int, rate: Double)
        case pushProviderOutage(provider: String)
        case clockSkew(offset: SimDuration)
        case timeZoneChange(to: String)
        case appTermination(ratePerDeviceDay: Double)
        case authExpiry
        case lowPowerMode
    }
    public var kind: Kind
    public var at: SimDuration
    /// Nil for faults that do not span time.
    public var duration: SimDuration?
    /// Narrow to one cohort (by name).
    public var cohort: String?
    /// Share of the (cohort's) devices affected. Default 1.
    public var fraction: Double

    public init(kind: Kind, at: SimDuration, duration: SimDuration?, cohort: String?, fraction: Double) {
        self.kind = kind
        self.at = at
        self.duration = duration
        self.cohort = cohort
        self.fraction = fraction
    }
}

public struct Expectation: Sendable, Equatable {
    /// A dotted path into `report.json`, e.g. `latency.testAvailableToNotified.p95`.
    public var metric: String
    /// Bounds in the report's units (durations converted to seconds).
    public var min: Double?
    public var max: Double?
    /// The bounds as the file writes them (`"72h"`, `0`), for what people read.
    public var minText: String? = nil
    public var maxText: String? = nil
}

/// A scenario that cannot be used: where, what was expected, what was found.
public struct ScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    /// JSON path of the offending value, e.g. `$.fleet[0].battery.capacityMah`.
    public var path: String
    public var expected: String
    public var found: String
    public init(file: String, path: String, expected: String, found: String) {
        self.file = file; self.path = path; self.expected = expected; self.found = found
    }
    /// The message; a `found` above 300 characters (a pasted 1 MB value) is cut, with its length.
    public var description: String {
        let shown = found.count <= 300 ? found : "\(found.prefix(300))… (\(found.utf8.count) bytes)"
        return "\(file): \(path): expected \(expected), found \(shown)"
    }
}
