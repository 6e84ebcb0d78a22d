/// Seed `003`'s numbers; each is overridable by a scenario's `logic.stepSync`.
public struct StepSyncConfiguration: Hashable, Sendable {
    /// Periodic work interval and the spacing of background syncs: about 2 h
    /// ("Configure with flexible interval (120 minutes target)").
    public var syncInterval: Interval = .hours(2)
    /// Backfill at most this far back ("Query health data for entire gap (up to 30 days max)").
    public var backfillLimit: Interval = .days(30)
    /// Delays before attempts 2, 3 and 4 ("Retry Strategy": +5, +10, +15 min; then wait
    /// for the next scheduled sync or the foreground).
    public var retryDelays: [Interval] = [.minutes(5), .minutes(10), .minutes(15)]
    /// Sync on app open when the last sync is at least this old ("If > 24 hours ago,
    /// trigger immediate sync"; 24:00 counts, as the seed's "24+ hours" does).
    public var openSyncAge: Interval = .hours(24)
    /// Notify when no sync has run for this long ("notify users if sync hasn't run for 24+ hours").
    public var staleNotificationAge: Interval = .hours(24)
    /// Battery low at or below this percent while unplugged (docs/platform-facts.md E: 15 %;
    /// seed `003`: "Skip on low battery - Always skip sync when battery is low (mandatory)").
    public var lowBatteryPercent: Int = 15
    public init() {}
}

/// Known bugs of a step sync (docs/scenario.md, "Variants"). The empty set is the correct logic.
public struct StepSyncVariants: OptionSet, Hashable, Sendable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// Rows are inserted (`POST /api/v1/steps`) instead of upserted by (user, date, source).
    public static let insertNotUpsert = StepSyncVariants(rawValue: 1 << 0)
    /// The last-sync timestamp advances even when the upload failed.
    public static let advanceCursorOnFailure = StepSyncVariants(rawValue: 1 << 1)
    /// Syncs while the battery is low.
    public static let ignoresLowBattery = StepSyncVariants(rawValue: 1 << 2)
    /// The retry delays' minutes are read as seconds: retries come after 5, 10 and 15 s.
    public static let retryDelaysSeconds = StepSyncVariants(rawValue: 1 << 3)
    /// The stale-sync notice's hours are read as minutes: it is set for 24 min after a sync.
    public static let staleNoticeMinutes = StepSyncVariants(rawValue: 1 << 4)
    /// Starts a sync although the network is unreachable (the reachability guard dropped).
    public static let ignoresOffline = StepSyncVariants(rawValue: 1 << 5)
    /// The sync interval's hours are read as minutes: periodic work every 2 min, and a
    /// refresh launch or HealthKit delivery syncs 2 min after the last sync.
    public static let intervalMinutes = StepSyncVariants(rawValue: 1 << 6)
    /// An open syncs only when the last sync is more than 48 h old (the "very stale" mark)
    /// instead of 24 h.
    public static let openSyncAfter48h = StepSyncVariants(rawValue: 1 << 7)
    /// The backfill cap is dropped: a read reaches back to the last sync however old.
    public static let backfillUnlimited = StepSyncVariants(rawValue: 1 << 8)
    /// The local midnight a read starts at is computed with the zone's standard UTC offset,
    /// daylight saving time ignored: while DST is in force the read starts an hour late
    /// (01:00), and the first date it uploads lacks that hour's steps (seed `002`'s class
    /// of time-zone and DST date errors).
    public static let localDayIgnoresDST = StepSyncVariants(rawValue: 1 << 9)
}

/// The health API the steps come from: the `source` of a step row.
public enum StepSource: String, Hashable, Sendable { case healthKit = "healthkit", googleFit = "googlefit" }

/// WorkManager constraints of the periodic work (seed `003`, "Constraints Handling"; docs/platform-facts.md D).
public struct WorkConstraints: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `NetworkType.CONNECTED`.
    public static let networkConnected = WorkConstraints(rawValue: 1 << 0)
    /// `setRequiresBatteryNotLow(true)`.
    public static let batteryNotLow = WorkConstraints(rawValue: 1 << 1)
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

/// One device's step-sync state. `stored` mirrors what the app wrote; after a termination
/// the host rebuilds the state from what reached the disk with ``init(persisted:)``.
public struct StepSyncState: Hashable, Sendable {
    enum Trigger: Hashable, Sendable { case open, periodicWork, refresh, healthDelivery, retry }

    /// The sync being run, if any.
    /// Its fields, and the state's, largest first: 56 bytes where 64 padded.
    struct Sync: Hashable, Sendable {
        /// The end of the health-data range read (the cursor's next value).
        var readTo: DeviceTime
        var awaiting: RequestID?
        var trigger: Trigger
        var source: StepSource
    }

    public var stored: StepSyncStored
    var retryArmed = false
    var sync: Sync?
    var nextRequest: UInt32 = 0

    public init(persisted: StepSyncStored = StepSyncStored()) { stored = persisted }

    /// Whether a sync is under way (as the logic believes).
    public var isSyncing: Bool { sync != nil }
    /// The upload awaiting its answer, if any.
    public var awaitingUpload: RequestID? { sync?.awaiting }
}
