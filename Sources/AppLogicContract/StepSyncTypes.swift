/// The health API the steps come from: the `source` of a step row.
public enum StepSource: String, Hashable, Sendable { case healthKit = "healthkit", googleFit = "googlefit" }

/// What a background work asks of the device before it runs: WorkManager's constraints on
/// Android (seed `003`, "Constraints Handling"; docs/platform-facts.md D) and, for a
/// `BGProcessingTaskRequest` on iOS, its two requirements (docs/platform-facts.md F).
public struct WorkConstraints: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `NetworkType.CONNECTED`; iOS `requiresNetworkConnectivity`.
    public static let networkConnected = WorkConstraints(rawValue: 1 << 0)
    /// `setRequiresBatteryNotLow(true)` (Android only).
    public static let batteryNotLow = WorkConstraints(rawValue: 1 << 1)
    /// `setRequiresCharging(true)`; iOS `requiresExternalPower`.
    public static let charging = WorkConstraints(rawValue: 1 << 2)
    /// `NetworkType.UNMETERED` in place of `CONNECTED` (Android only: iOS asks for a
    /// network, not its kind).
    public static let unmetered = WorkConstraints(rawValue: 1 << 3)
}

/// A calendar date in the user's time zone, as days since 1970-01-01 (the `date` of a step row).
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var daysSince1970: Int32
    public init(daysSince1970: Int32) { self.daysSince1970 = daysSince1970 }
    public static func < (a: LocalDate, b: LocalDate) -> Bool { a.daysSince1970 < b.daysSince1970 }
    /// `2026-03-08`.
    public var description: String { String(Instant(unixSeconds: Int64(daysSince1970) * 86_400).iso8601.prefix(10)) }
}

/// One day's step total as the health API reports it.
public struct DailySteps: Hashable, Sendable {
    public var date: LocalDate
    public var steps: Int32
    public init(date: LocalDate, steps: Int32) { self.date = date; self.steps = steps }
}

/// The body of a step upload: one entry per day, all from one source.
public struct StepUpload: Hashable, Sendable {
    public enum Method: Hashable, Sendable {
        /// `PUT /api/v1/steps/sync`: upsert by (user, date, source) (seed `003`, "Conflict Resolution").
        case upsert
        /// `POST /api/v1/steps`: one new row per entry (the `insertNotUpsert` bug).
        case insert
    }
    public var method: Method
    public var source: StepSource
    public var days: [DailySteps]
    public init(method: Method, source: StepSource, days: [DailySteps]) {
        self.method = method; self.source = source; self.days = days
    }
}

/// What the host knows when something may start a sync.
public struct StepSyncContext: Hashable, Sendable {
    /// The user enabled health tracking (seed `003`: manual-entry users are not synced).
    public var healthTrackingEnabled: Bool
    public var signedIn: Bool
    public var networkReachable: Bool
    /// Battery level, whole percent (rounded down).
    public var batteryPercent: Int
    public var charging: Bool
    /// Low Power Mode / Battery Saver (seed `003`, Non-Goals: no sync in low-power mode).
    public var lowPowerMode: Bool
    /// The user's zone (`TimeZone.current`): days are the user's local dates.
    public var zone: LocalCalendar
    public var source: StepSource
    public init(healthTrackingEnabled: Bool, signedIn: Bool, networkReachable: Bool, batteryPercent: Int, charging: Bool,
                lowPowerMode: Bool, zone: LocalCalendar, source: StepSource) {
        self.healthTrackingEnabled = healthTrackingEnabled
        self.signedIn = signedIn
        self.networkReachable = networkReachable
        self.batteryPercent = batteryPercent
        self.charging = charging
        self.lowPowerMode = lowPowerMode
        self.zone = zone
        self.source = source
    }
}

public enum StepSyncInput: Hashable, Sendable {
    /// The user brought the app to the foreground.
    case appOpened(StepSyncContext)
    /// Android: the WorkManager periodic work runs (its constraints were met).
    case periodicWorkRan(StepSyncContext)
    /// iOS: the `BGAppRefreshTask` launched (the sync shares its 30 s).
    case refreshTaskLaunched(StepSyncContext)
    /// iOS: HealthKit background delivery woke the app (new step samples).
    case healthDataDelivered(StepSyncContext)
    /// The retry timer the logic asked for fired.
    case retryTimerFired(StepSyncContext)
    /// The host's answer to ``StepSyncEffect/readHealthData(from:to:)``: daily totals by local date.
    case healthDataRead([DailySteps])
    case httpResponse(RequestID, HTTPResult)
}

/// The persisted sync state (seed `003`, "Sync State Management").
public struct StepSyncStored: Hashable, Sendable {
    public enum Status: String, Hashable, Sendable { case never, success, failed }
    /// The end of the last health-data range the server accepted: the next sync reads from its local day.
    /// Stamped on both clocks: its age is measured on the boot clock (``DeviceTime``).
    public var lastSyncAt: DeviceTime?
    public var lastStatus: Status
    /// Failed attempts since the last success (the retry chain).
    public var failedAttempts: UInt8
    public init(lastSyncAt: DeviceTime? = nil, lastStatus: Status = .never, failedAttempts: UInt8 = 0) {
        self.lastSyncAt = lastSyncAt; self.lastStatus = lastStatus; self.failedAttempts = failedAttempts
    }
}

public enum StepSyncEffect: Hashable, Sendable {
    /// Enqueue the unique periodic work (policy KEEP). Android's host runs it; iOS has no
    /// periodic work (its host ignores this: BGTaskScheduler and HealthKit drive the sync).
    case schedulePeriodicWork(interval: Interval, constraints: WorkConstraints)
    /// Ask the health API for daily totals of `[from, to)` (wall-clock dates, as its
    /// queries take); the host answers with ``StepSyncInput/healthDataRead(_:)``.
    case readHealthData(from: Instant, to: Instant)
    case httpRequest(RequestID, Endpoint)
    case startRetryTimer(after: Interval)
    case cancelRetryTimer
    /// Write the sync state (one key): in memory at once, on disk later.
    case store(StepSyncStored)
    /// Everything stored so far is on disk.
    case synchronize
    /// Schedule a local notification `after` from now, replacing the pending one of its kind
    /// (a time-interval trigger: it fires even if the app never runs again).
    case scheduleNotification(LocalNotification, after: Interval)
    /// End the background work item (the Worker's result, HealthKit's observer completion handler).
    case finishWork(success: Bool)
}
