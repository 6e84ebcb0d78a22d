import SimKernel
import AppLogic
import Platform

/// One declared work (``WorkID``) as WorkManager keeps it: unique periodic work, enqueued with KEEP.
struct AndroidWorkSlot {
    var spec: WorkSpecState
    var enqueued: Bool
    /// When the due work first found Doze holding it back, or nil.
    var deferredSince: SimTime? {
        get { packedDeferredSince.value }
        set { packedDeferredSince.value = newValue }
    }
    /// The system stopped the last run here (``WorkManagerModel/runStoppedBySystem(_:)``):
    /// it is due again from the original enqueue time, usually in the past, so the next
    /// run's `workManagerDelay` counts from this stop instead; nil otherwise.
    var stoppedAt: SimTime? {
        get { packedStoppedAt.value }
        set { packedStoppedAt.value = newValue }
    }
    private var packedDeferredSince = PackedTime.none
    private var packedStoppedAt = PackedTime.none

    init(spec: WorkSpecState, enqueued: Bool) {
        self.spec = spec
        self.enqueued = enqueued
    }
}

/// The Android-only state of one device, kept out of ``Device`` so iOS devices stay small.
/// The fields are grouped by the events that read them (docs/performance.md#state-grouped-by-event-kind):
/// first the screen session's and the bucket's; then what every event that feeds or
/// reads Doze reads (the owed work, the flags that say whether anything waits on Doze,
/// the timers, Doze itself, and each work's due time, which ``AndroidHost/dozeWatched(_:_:core:)``
/// looks at); then the jobs' and the quota's; the rarely read last. Each part is followed
/// by the flags that fit its tail; the optional times are ``PackedTime``s (nil is
/// `Int64.min` µs) behind accessors of their own names. A screen session, motion, a
/// screen-off and a Doze or bucket timer read only the first two parts, and only those are
/// prefetched for them (``screenAndDozeBytes``); the end of a wake or a task reads
/// `jobsRunning` (``stepJobBytes``).
struct AndroidDevice {
    // The screen session's and the bucket's
    var bucket: StandbyBucketState
    var packedBucketCheckAt = PackedTime.none
    var packedBucketEntryAt = PackedTime.none
    /// The next screen session's start while it is owed (``AndroidOwed/session``).
    var packedNextSessionAt = PackedTime.none
    /// The user's screen sessions and the phone's significant motion, as positions
    /// (drawn through ``EntityStreams``). A session's start draws its length and the
    /// next start with one rebuild (docs/performance.md#streams-as-positions).
    var screenStream = StreamPosition.start
    var motionStream = StreamPosition.start
    var screen = ScreenState()
    var lastBucket: StandbyBucket

    // What every Doze input and look reads
    /// What the device's Android state owes, settled when it is next read
    /// (``AndroidHost/settleScreen(_:_:before:core:)``).
    var owed = AndroidOwed()
    /// FCM holds messages for this phone (Doze, a force-stop, or offline): look when that ends.
    var fcmWaiting = false
    /// Android's OS timers (``AndroidTimer``).
    var timers = AndroidTimers()
    /// The app was force-stopped by the manufacturer's policy; nothing runs until the next open.
    var forceStopped = false
    /// The works whose JobScheduler job runs, one bit per ``WorkID`` (``runsJob(_:)``).
    var jobsRunning: UInt8 = 0
    /// Each work's request as it was enqueued, by its index in
    /// ``AndroidHost/workRequests`` (`UInt8.max`: never enqueued): 1 byte a work where
    /// the request takes 48.
    var requestIDs = PerWork<UInt8>(repeating: .max)
    var doze: DozeState
    /// The stale-sync alarm waits for Doze (the limiter or the next maintenance window).
    var alarmHeld = false
    var packedDozeTimerAt = PackedTime.none
    /// Each declared work's WorkManager periodic work, by ``WorkID/index``.
    var works: PerWork<AndroidWorkSlot>

    // The jobs' and the quota's
    /// Each work's last job's serial, which tells a stale stop deadline apart (``AndroidEvent/jobStops(device:serial:work:)``).
    var jobSerials = PerWork<UInt32>(repeating: 0)
    var quota = JobQuotaState()
    /// The works whose job was stopped by JobScheduler at its deadline (WorkManager retries
    /// them), one bit per ``WorkID``.
    var jobsStopping: UInt8 = 0
    /// BatteryService's "battery low" flag (``BatteryLowMonitor``, docs/platform-facts.md E).
    var batteryLow = false
    /// The user turned on Battery Saver's automatic schedule (`android.batterySaverAuto`).
    var batterySaverAuto = false
    var packedAlarmDue = PackedTime.none

    // Rarely read
    var alarmClockTimeOfDay = SimDuration(microseconds: .min)
    /// Recent high-priority FCM messages, for the bucket's daily limit (``FCMDeliveryModel``).
    var fcmHighPriority: DeliveryLog
    /// The app's while-idle alarm deliveries (``WhileIdleAlarmLimiter``), created at the first.
    var whileIdleLog: DeliveryLog?

    /// The deadline the pending Doze timer event was scheduled for.
    var dozeTimerAt: SimTime? {
        get { packedDozeTimerAt.value }
        set { packedDozeTimerAt.value = newValue }
    }
    /// The next moment the bucket can change, and the time of the bucket timer's queue
    /// entry, at or before it (AndroidHost+StandbyBuckets).
    var bucketCheckAt: SimTime? {
        get { packedBucketCheckAt.value }
        set { packedBucketCheckAt.value = newValue }
    }
    var bucketEntryAt: SimTime? {
        get { packedBucketEntryAt.value }
        set { packedBucketEntryAt.value = newValue }
    }
    /// The next screen session's start, kept while the session is owed instead of an event.
    var nextSessionAt: SimTime? {
        get { packedNextSessionAt.value }
        set { packedNextSessionAt.value = newValue }
    }
    /// The stale-sync alarm's requested time while one is pending (AndroidHost+WhileIdleAlarm).
    var alarmDue: SimTime? {
        get { packedAlarmDue.value }
        set { packedAlarmDue.value = newValue }
    }
    /// The user's daily alarm clock, as a local time of day (``AlarmClockModel``); nil
    /// for a user without one (stored as `Int64.min` µs).
    var alarmClock: SimDuration? {
        get { alarmClockTimeOfDay.microseconds == .min ? nil : alarmClockTimeOfDay }
        set { alarmClockTimeOfDay = newValue ?? SimDuration(microseconds: .min) }
    }

    /// One work's slot, borrowed in place (a plain getter would copy the whole device,
    /// retaining its arrays, at every look).
    subscript(work: WorkID) -> AndroidWorkSlot {
        _read { yield works[Int(work.rawValue)] }
        _modify { yield &works[Int(work.rawValue)] }
    }

    /// Whether work `work`'s job runs.
    @inline(__always) func runsJob(_ work: WorkID) -> Bool { jobsRunning & work.bit != 0 }
}

extension WorkID {
    /// The work's bit in ``AndroidDevice/jobsRunning`` and ``AndroidDevice/jobsStopping``.
    @inline(__always) var bit: UInt8 { 1 << rawValue }
}

/// What one Android device owes: the user's screen sessions and a screen-off nothing
/// waited on, and the bucket checks that follow it (AndroidHost+Screen, "Lazy screen
/// sessions and screen-offs").
struct AndroidOwed: OptionSet {
    let rawValue: UInt8
    /// The screen's end at `screen.onUntil` has no event.
    static let screenOff = AndroidOwed(rawValue: 1 << 0)
    /// The bucket's check at `bucketCheckAt` has no timer entry: a settled screen-off
    /// moved it, and settling never schedules, so that a run's events do not depend on
    /// when its reads fall (`run(until:)` in steps or in one go).
    static let bucketCheck = AndroidOwed(rawValue: 1 << 1)
    /// The user's next screen session, at `nextSessionAt`, has no event (and nor do the
    /// ones it draws after it, while nothing waits on Doze).
    static let session = AndroidOwed(rawValue: 1 << 2)
    /// What owes an event: whatever starts waiting on Doze takes these back as events
    /// (``AndroidHost/watchScreen(_:_:core:)``), and a Doze input asks whether it must.
    static let events: AndroidOwed = [.screenOff, .session]
}

/// Android's OS timers: Doze's, the bucket's, the manufacturer's kill, Battery Saver's
/// level, the alarm clock, and WorkManager's look at each declared work.
enum AndroidTimer: Equatable {
    /// Doze's next deadline (``DozeController``).
    case doze
    /// The standby bucket's next timeout.
    case bucket
    /// WorkManager's next look at a declared work.
    case work(WorkID)
    /// The manufacturer's policy force-stops the app (``OEMBackgroundPolicy``).
    case oemKill
    /// The battery reaches Battery Saver's automatic level, unplugged.
    case batterySaverLevel
    /// The user's alarm clock rings (AndroidHost+AlarmClock).
    case alarmClock

    /// The timer's code in the event hashes: the first two works keep 2 and 3, the codes
    /// they had as cases of their own, and a third work and on follow the OS's timers (7, 8, ...),
    /// so no existing event's hash moves when a feature declares a work.
    var hashCode: UInt8 {
        switch self {
        case .doze: 0
        case .bucket: 1
        case .work(let work): work.rawValue < 2 ? 2 + work.rawValue : 5 + work.rawValue
        case .oemKill: 4
        case .batterySaverLevel: 5
        case .alarmClock: 6
        }
    }
}

/// One Android device's timer table (``TimerTable``'s scheme): a generation per OS timer
/// and one per declared work, so a new work needs no change here (``PerWork``).
struct AndroidTimers {
    private var own = InlineArray<5, UInt32>(repeating: 0)
    private var works = PerWork<UInt32>(repeating: 0)

    @inline(__always) private subscript(timer: AndroidTimer) -> UInt32 {
        get {
            switch timer {
            case .doze: own[0]
            case .bucket: own[1]
            case .work(let work): works[Int(work.rawValue)]
            case .oemKill: own[2]
            case .batterySaverLevel: own[3]
            case .alarmClock: own[4]
            }
        }
        set {
            switch timer {
            case .doze: own[0] = newValue
            case .bucket: own[1] = newValue
            case .work(let work): works[Int(work.rawValue)] = newValue
            case .oemKill: own[2] = newValue
            case .batterySaverLevel: own[3] = newValue
            case .alarmClock: own[4] = newValue
            }
        }
    }

    /// Invalidates the timer's pending event and returns the generation for a new one.
    @inline(__always) mutating func arm(_ timer: AndroidTimer) -> UInt32 {
        self[timer] &+= 1
        return self[timer]
    }

    /// Invalidates the timer's pending event.
    @inline(__always) mutating func cancel(_ timer: AndroidTimer) { self[timer] &+= 1 }

    @inline(__always) func isCurrent(_ timer: AndroidTimer, _ generation: UInt32) -> Bool { self[timer] == generation }
}

