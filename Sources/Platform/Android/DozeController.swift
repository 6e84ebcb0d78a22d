import SimKernel

/// The constants of Android's `DeviceIdleController` (`docs/platform-facts.md` A, [DIC] @01740ef,
/// `Constants.DEFAULT_*` with `COMPRESS_TIME` false), plus the named assumptions the
/// simulator needs where the platform leaves timing to hardware.
///
/// AOSP's factors are floats (`(long) (delay * 2f)`); every default here is a whole
/// number of milliseconds times 2, so an integer factor gives the same values.
public struct DozeConfig: Sendable, Equatable {
    // Light Doze (docs/platform-facts.md A, "Light Doze").
    /// `LIGHT_IDLE_AFTER_INACTIVE_TIMEOUT`: 1 min ([DIC7]: 5 min).
    public var lightIdleAfterInactiveTimeout = SimDuration.minutes(1)
    /// `LIGHT_PRE_IDLE_TIMEOUT`: 3 min wait for running jobs before the first light idle.
    public var lightPreIdleTimeout = SimDuration.minutes(3)
    /// `LIGHT_IDLE_TIMEOUT`: the first light idle period, 5 min.
    public var lightIdleTimeout = SimDuration.minutes(5)
    /// `LIGHT_IDLE_FACTOR`: 2.
    public var lightIdleFactor: Int64 = 2
    /// `LIGHT_MAX_IDLE_TIMEOUT`: 15 min.
    public var lightMaxIdleTimeout = SimDuration.minutes(15)
    /// `LIGHT_IDLE_MAINTENANCE_MIN_BUDGET` / `MAX_BUDGET`: 1 min / 5 min.
    public var lightMaintenanceMinBudget = SimDuration.minutes(1)
    public var lightMaintenanceMaxBudget = SimDuration.minutes(5)
    /// `MIN_LIGHT_MAINTENANCE_TIME`: a light maintenance window lasts at least 5 s.
    public var minLightMaintenanceTime = SimDuration.seconds(5)

    // Deep Doze (docs/platform-facts.md A, "Deep Doze").
    /// `INACTIVE_TIMEOUT`: 30 min (small-battery devices: 15 min).
    public var inactiveTimeout = SimDuration.minutes(30)
    /// `IDLE_AFTER_INACTIVE_TIMEOUT`: 30 min in IDLE_PENDING, motion watched.
    public var idleAfterInactiveTimeout = SimDuration.minutes(30)
    /// `SENSING_TIMEOUT` / `LOCATING_TIMEOUT`: 4 min / 30 s.
    public var sensingTimeout = SimDuration.minutes(4)
    public var locatingTimeout = SimDuration.seconds(30)
    /// `MOTION_INACTIVE_TIMEOUT`: 10 min back to idle after motion.
    public var motionInactiveTimeout = SimDuration.minutes(10)
    /// `IDLE_TIMEOUT` × `IDLE_FACTOR`, capped at `MAX_IDLE_TIMEOUT`: 60 min, ×2, 6 h.
    public var idleTimeout = SimDuration.minutes(60)
    public var idleFactor: Int64 = 2
    public var maxIdleTimeout = SimDuration.hours(6)
    /// `IDLE_PENDING_TIMEOUT` × `IDLE_PENDING_FACTOR`, capped at `MAX_IDLE_PENDING_TIMEOUT`:
    /// the deep maintenance window, 5 min, ×2, 10 min.
    public var idlePendingTimeout = SimDuration.minutes(5)
    public var idlePendingFactor: Int64 = 2
    public var maxIdlePendingTimeout = SimDuration.minutes(10)
    /// `MIN_DEEP_MAINTENANCE_TIME`: a deep maintenance window lasts at least 30 s.
    public var minDeepMaintenanceTime = SimDuration.seconds(30)
    /// `QUICK_DOZE_DELAY_TIMEOUT`: 1 min (Battery Saver turns Quick Doze on, docs/platform-facts.md E).
    public var quickDozeDelayTimeout = SimDuration.minutes(1)
    /// `MIN_TIME_TO_ALARM`: deep Doze does not step on (toward IDLE, or into the next
    /// IDLE) while a wake-from-idle alarm (`setAlarmClock`, `FLAG_WAKE_FROM_IDLE`) is due
    /// sooner than this; it goes ACTIVE and INACTIVE again. 30 min (docs/platform-facts.md A;
    /// [DIC7]: 60 min).
    public var minTimeToAlarm = SimDuration.minutes(30)
    /// `MAX_TEMP_APP_ALLOWLIST_DURATION_MS`: a high-priority FCM message allow-lists its app 5 min.
    public var highPriorityMessageAllowList = SimDuration.minutes(5)

    // Alarm windows and version differences (docs/platform-facts.md section A; [DIC]
    // `scheduleAlarmLocked`, `scheduleLightAlarmLocked`, `stepLightIdleStateLocked`).
    /// `FLEX_TIME_SHORT`: 1 min, the window of the deep alarms other than IDLE's
    /// `setIdleUntil` and LOCATING's `setExact`. They wake the device, so they fire at
    /// their window's start (see `lightIdleAlarmWakes`).
    public var flexTimeShort = SimDuration.minutes(1)
    /// `LIGHT_IDLE_TIMEOUT_INITIAL_FLEX`: the light idle alarm's first window, 1 min,
    /// ×`lightIdleFactor` each cycle up to `lightMaxIdleTimeoutFlex`.
    public var lightIdleInitialFlex = SimDuration.minutes(1)
    /// `LIGHT_MAX_IDLE_TIMEOUT_FLEX` (Android 15: `LIGHT_IDLE_TIMEOUT_MAX_FLEX`): 15 min.
    public var lightMaxIdleTimeoutFlex = SimDuration.minutes(15)
    /// Whether the light IDLE → maintenance alarm wakes the device. Android 12–14 ([DIC]
    /// @01740ef `stepLightIdleStateLocked`): `scheduleLightAlarmLocked(mNextLightIdleDelay,
    /// mNextLightIdleDelayFlex, false)`, an `ELAPSED_REALTIME` alarm, delivered only when
    /// something else wakes the device. Android 15 (@0898a28): `true`.
    public var lightIdleAlarmWakes = false
    /// Whether light Doze has the PRE_IDLE step (wait `lightPreIdleTimeout` for running
    /// jobs). Android 12–14: yes; Android 15's `stepLightIdleStateLocked` goes from
    /// INACTIVE straight to IDLE.
    public var lightPreIdle = true
    /// Whether deep Doze asks for a location fix in LOCATING. Android 12–14: always;
    /// Android 15 only with `mIsLocationPrefetchEnabled`
    /// (`config_autoPowerModePrefetchLocation`), otherwise LOCATING falls through to IDLE
    /// at once. **Assumption** (`locationPrefetch`): on, the resource's AOSP default.
    public var locationPrefetch = true
    /// `WAIT_FOR_UNLOCK`: true (Android 12–15). The screen turning on while the keyguard
    /// is locked does not end Doze (`updateInteractivityLocked`: `becomeActiveLocked`
    /// only when `!mScreenLocked || !WAIT_FOR_UNLOCK`); unlocking does
    /// (`keyguardShowingLocked`).
    public var waitForUnlock = true

    // Named assumptions.
    /// **Assumption** (`anyMotionCheck`): how long AnyMotion takes to call a still device
    /// stationary: two 2.5 s accelerometer measurements 5 s apart
    /// (`AnyMotionDetector` `ORIENTATION_MEASUREMENT_DURATION_MILLIS` 2500,
    /// `ORIENTATION_MEASUREMENT_INTERVAL_MILLIS` 5000, found by string search), 10 s.
    public var anyMotionCheck = SimDuration.seconds(10)
    /// **Assumption** (`locationFix`): how long a location fix within the required 20 m
    /// takes; `nil` (the default) means none arrives, so LOCATING lasts its whole 30 s
    /// timeout, as indoors, where the 20 m accuracy is rarely met.
    public var locationFix: SimDuration? = nil

    public init() {}

    /// The defaults of one Android release, small-battery devices
    /// (`ActivityManager.isSmallBatteryDevice`) included.
    ///
    /// - Android 12–14: [DIC] @01740ef (aosp-mirror/platform_frameworks_base,
    ///   `Constants.DEFAULT_*`): the set above.
    /// - Android 15: `DeviceIdleController.java` in muhomorr/platform_frameworks_base-15
    ///   @0898a28 (`Constants.mDefault*`, `stepLightIdleStateLocked`,
    ///   `stepIdleStateLocked`): light after-inactive 4 min, no PRE_IDLE, the light
    ///   alarm wakes the device, LOCATING only with location prefetch; small battery:
    ///   INACTIVE and IDLE_AFTER_INACTIVE 1 min (`DEFAULT_*_SMALL_BATTERY`), against
    ///   15 min on 12–14.
    public init(version: AndroidVersion, smallBattery: Bool = false) {
        self.init()
        switch version {
        case .android12, .android13, .android14:
            if smallBattery {
                inactiveTimeout = .minutes(15)
                idleAfterInactiveTimeout = .minutes(15)
            }
        case .android15:
            lightIdleAfterInactiveTimeout = .minutes(4)
            lightPreIdle = false
            lightIdleAlarmWakes = true
            if smallBattery {
                inactiveTimeout = .minutes(1)
                idleAfterInactiveTimeout = .minutes(1)
            }
        }
    }
}

/// The Android releases whose Doze defaults FleetSim models (`fleet[].android.version`).
public enum AndroidVersion: Int, Sendable, Equatable, CaseIterable {
    case android12 = 12, android13 = 13, android14 = 14, android15 = 15
}

/// The deep state machine's states (`STATE_*` of [DIC]).
public enum DozeDeepState: UInt8, Sendable, Equatable {
    case active, inactive, idlePending, sensing, locating, idle, idleMaintenance, quickDozeDelay
}

/// The light state machine's states (`LIGHT_STATE_*` of [DIC]); `override` means deep
/// Doze has taken over.
public enum DozeLightState: UInt8, Sendable, Equatable {
    case active, inactive, preIdle, idle, waitingForNetwork, idleMaintenance, override
}

/// What the device tells Doze.
public enum DozeInput: Sendable, Equatable {
    /// The screen turned on or off (`updateInteractivityLocked`); `locked`: the keyguard
    /// shows (`keyguardShowingLocked`). With `WAIT_FOR_UNLOCK`, a locked screen-on does
    /// not end Doze. **Assumption**: the world's screen sessions are unlocks (the
    /// default, `locked: false`).
    case screen(on: Bool, locked: Bool = false)
    /// The user unlocked (`locked: false`) or the keyguard came back (`true`).
    case keyguard(locked: Bool)
    /// Something else woke the device: a wakeup alarm of another app or of the system,
    /// a high-priority FCM message, a plug-in. A non-wakeup light alarm whose window has
    /// opened is delivered now (`AlarmManagerService` delivers non-wakeup alarms when
    /// the device is awake). **Assumption** (`nonWakeupAlarmDelivery`): without such an
    /// input it is delivered at its window's end, as other apps' wakeup alarms and the
    /// radio wake a phone at least that often; AlarmManager itself never forces it out.
    case deviceAwake
    case charging(Bool)
    /// Significant motion (a pick-up, a walk). Watched from IDLE_PENDING on, as in AOSP.
    case motion
    case network(connected: Bool)
    /// JobScheduler or alarms have work running (`setJobsActive`); a maintenance window
    /// ends early once this is false and its minimum time has passed.
    case jobsActive(Bool)
    /// Battery Saver's Quick Doze (docs/platform-facts.md E): skips motion and location checks.
    case quickDoze(Bool)
    /// The app got a high-priority FCM message: it is temp-allow-listed for 5 min, and the
    /// device is awake (as `deviceAwake`).
    case highPriorityMessage
    /// The device's next wake-from-idle alarm (`AlarmManager.getNextWakeFromIdleTime`:
    /// alarm clocks and `FLAG_WAKE_FROM_IDLE` alarms), nil when none is set. Deep Doze
    /// holds back within `minTimeToAlarm` of it (`isUpcomingAlarmClock`), and INACTIVE
    /// then lasts until the alarm plus its timeout. The world sends it whenever the
    /// device's next such alarm changes (set, fired, cancelled).
    case nextWakeFromIdleAlarm(SimTime?)
    /// Time passed: every alarm due by now runs, each at its own deadline (``DozeController/advance(_:through:into:)``).
    case timer
}

/// A state change, in order, for the world and the trace.
public enum DozeTransition: Sendable, Equatable {
    case deep(DozeDeepState)
    case light(DozeLightState)
}

/// One device's Doze state: both machines, their alarms and their growing delays.
/// Plain values, 96 bytes; no allocation.
public struct DozeState: Sendable, Equatable {
    // Largest first, so nothing pads: the optional times are ``PackedTime``s (nil is
    // `Int64.min` µs) behind accessors of their own names, and the flags share a byte.
    var lightBudget = SimDuration.zero
    /// The app's temp allow-list ends here (docs/platform-facts.md A: a high-priority FCM message, 5 min).
    public internal(set) var allowListedUntil = SimTime(microseconds: .min)
    @usableFromInline var packedNextWakeFromIdleAlarm = PackedTime.none
    @usableFromInline var packedDeepAlarm = PackedTime.none
    @usableFromInline var packedLightAlarm = PackedTime.none
    @usableFromInline var packedLightAlarmWindowEnd = PackedTime.none
    @usableFromInline var packedAnyMotionResult = PackedTime.none
    @usableFromInline var packedSensingTimeoutAlarm = PackedTime.none
    @usableFromInline var packedLocationFixAt = PackedTime.none
    @usableFromInline var packedIdleOpUntil = PackedTime.none
    @usableFromInline var packedMaintenanceStart = PackedTime.none
    public internal(set) var deep = DozeDeepState.active
    public internal(set) var light = DozeLightState.active
    @usableFromInline var flags: Flags = [.screenOn, .networkConnected]
    /// `mNextIdleDelay`, `mNextIdlePendingDelay`, and `mNextLightIdleDelay` with
    /// `mNextLightIdleDelayFlex` (they grow together), as steps of their progressions
    /// (``DozeController/Progression``): a step is one byte where a delay took eight.
    var idleStep: UInt8 = 0
    var idlePendingStep: UInt8 = 0
    var lightIdleStep: UInt8 = 0
    /// `mInactiveTimeout` is `MOTION_INACTIVE_TIMEOUT` (set by motion), not `INACTIVE_TIMEOUT`:
    /// `becomeActiveLocked` sets it to one of the two, so a bit says which.
    var inactiveAfterMotion = false

    @usableFromInline struct Flags: OptionSet, Sendable, Equatable {
        @usableFromInline let rawValue: UInt8
        @inlinable init(rawValue: UInt8) { self.rawValue = rawValue }
        @inlinable static var screenOn: Flags { Flags(rawValue: 1 << 0) }
        @inlinable static var screenLocked: Flags { Flags(rawValue: 1 << 1) }
        @inlinable static var charging: Flags { Flags(rawValue: 1 << 2) }
        @inlinable static var networkConnected: Flags { Flags(rawValue: 1 << 3) }
        @inlinable static var jobsActive: Flags { Flags(rawValue: 1 << 4) }
        @inlinable static var quickDoze: Flags { Flags(rawValue: 1 << 5) }
        @inlinable static var notMoving: Flags { Flags(rawValue: 1 << 6) }
        @inlinable static var quickDozeWhileIdling: Flags { Flags(rawValue: 1 << 7) }
    }

    @inlinable func flag(_ f: Flags) -> Bool { flags.contains(f) }
    @inlinable mutating func setFlag(_ f: Flags, _ on: Bool) { if on { flags.insert(f) } else { flags.remove(f) } }

    public internal(set) var screenOn: Bool {
        @inlinable get { flag(.screenOn) }
        @inlinable set { setFlag(.screenOn, newValue) }
    }
    /// `mScreenLocked`: the keyguard shows.
    public internal(set) var screenLocked: Bool {
        @inlinable get { flag(.screenLocked) }
        @inlinable set { setFlag(.screenLocked, newValue) }
    }
    public internal(set) var charging: Bool {
        @inlinable get { flag(.charging) }
        @inlinable set { setFlag(.charging, newValue) }
    }
    public internal(set) var networkConnected: Bool {
        @inlinable get { flag(.networkConnected) }
        @inlinable set { setFlag(.networkConnected, newValue) }
    }
    public internal(set) var jobsActive: Bool {
        @inlinable get { flag(.jobsActive) }
        @inlinable set { setFlag(.jobsActive, newValue) }
    }
    public internal(set) var quickDoze: Bool {
        @inlinable get { flag(.quickDoze) }
        @inlinable set { setFlag(.quickDoze, newValue) }
    }
    var notMoving: Bool {
        get { flag(.notMoving) }
        set { setFlag(.notMoving, newValue) }
    }
    var quickDozeWhileIdling: Bool {
        get { flag(.quickDozeWhileIdling) }
        set { setFlag(.quickDozeWhileIdling, newValue) }
    }

    /// The next wake-from-idle alarm the device has set, if any.
    public internal(set) var nextWakeFromIdleAlarm: SimTime? {
        @inlinable get { packedNextWakeFromIdleAlarm.value }
        @inlinable set { packedNextWakeFromIdleAlarm.value = newValue }
    }
    @inlinable var deepAlarm: SimTime? {
        get { packedDeepAlarm.value }
        set { packedDeepAlarm.value = newValue }
    }
    /// The light alarm's window start (`mNextLightAlarmTime`).
    @inlinable var lightAlarm: SimTime? {
        get { packedLightAlarm.value }
        set { packedLightAlarm.value = newValue }
    }
    /// For a non-wakeup light alarm, its window's end: delivered by then at the latest
    /// (`DozeInput.deviceAwake`); nil for a wakeup alarm, which fires at its start.
    @inlinable var lightAlarmWindowEnd: SimTime? {
        get { packedLightAlarmWindowEnd.value }
        set { packedLightAlarmWindowEnd.value = newValue }
    }
    /// AnyMotion's "stationary" result, while SENSING.
    @inlinable var anyMotionResult: SimTime? {
        get { packedAnyMotionResult.value }
        set { packedAnyMotionResult.value = newValue }
    }
    @inlinable var sensingTimeoutAlarm: SimTime? {
        get { packedSensingTimeoutAlarm.value }
        set { packedSensingTimeoutAlarm.value = newValue }
    }
    @inlinable var locationFixAt: SimTime? {
        get { packedLocationFixAt.value }
        set { packedLocationFixAt.value = newValue }
    }
    /// `mActiveIdleOpCount` held by a maintenance window's start until its minimum time.
    @inlinable var idleOpUntil: SimTime? {
        get { packedIdleOpUntil.value }
        set { packedIdleOpUntil.value = newValue }
    }
    var maintenanceStart: SimTime? {
        get { packedMaintenanceStart.value }
        set { packedMaintenanceStart.value = newValue }
    }

    /// A device with its screen on, unplugged and online: both machines ACTIVE.
    public init() {}

    /// The earliest moment something is due; the world calls `handle(.timer, …)` then,
    /// or later when nothing waits on the step (it still runs at this time).
    ///
    /// This and the reads below are always inlined: the world reads them on a device's
    /// state in place, where a call across the module copied the whole state (about
    /// 200 bytes) first; `@inlinable` alone left `nextDeadline` a call.
    @inlinable @inline(__always) public var nextDeadline: SimTime? {
        earliest(earliest(earliest(deepAlarm, lightAlarmWindowEnd ?? lightAlarm), earliest(anyMotionResult, sensingTimeoutAlarm)),
                 earliest(locationFixAt, idleOpUntil))
    }

    /// Deep idle, or light idle outside its maintenance windows: jobs, syncs and
    /// standard alarms wait, and the network is cut for apps not allow-listed.
    @inlinable @inline(__always) public var restrictsBackgroundWork: Bool {
        deep == .idle || light == .idle || light == .waitingForNetwork
    }

    /// AlarmManager's `mPendingIdleUntil` (`docs/platform-facts.md` C): the end of the current deep
    /// IDLE, where the next maintenance window begins; nil outside deep idle. Alarms that
    /// may not fire while idle wait for it.
    public var deepIdleUntil: SimTime? { deep == .idle ? deepAlarm : nil }

    /// Whether the app is temp-allow-listed (network and wake locks despite Doze).
    @inlinable @inline(__always) public func isAllowListed(at now: SimTime) -> Bool { now < allowListedUntil }

    var opsInactive: Bool { idleOpUntil == nil && !jobsActive }
}

/// The earlier of two optional deadlines (`nil` is "never").
@inlinable @inline(__always) func earliest(_ a: SimTime?, _ b: SimTime?) -> SimTime? {
    guard let a else { return b }
    guard let b else { return a }
    return a < b ? a : b
}

/// Android Doze: `DeviceIdleController`'s deep and light state machines, driven by
/// screen, charging, motion, network and JobScheduler activity (`docs/platform-facts.md` A).
///
/// - Screen off and unplugged: light INACTIVE, then after 1 min light IDLE of 5, 10, then
///   15 min, each followed by a maintenance window of 1–5 min budget (unused time below
///   1 min is carried forward, overruns deducted; at least 5 s). Without network, light
///   maintenance waits up to one more idle period.
/// - Deep: INACTIVE 30 min, IDLE_PENDING 30 min (motion watched), SENSING (AnyMotion),
///   LOCATING (≤ 30 s), then IDLE of 1 h, 2 h, 4 h, 6 h, 6 h…, separated by maintenance
///   windows of 5 min then 10 min (at least 30 s; they end early once no work is left).
///   Deep IDLE puts light Doze into OVERRIDE.
/// - The light IDLE → maintenance alarm has a window of 1, 2, 4, 8, then 15 min. On
///   Android 12–14 it does not wake the device: the window opens when something else
///   wakes it (`DozeInput.deviceAwake`, or any of Doze's own wakeup alarms), at the
///   window's end at the latest. Android 15's does (see `DozeConfig(version:)`).
/// - Screen on (unlocked: `WAIT_FOR_UNLOCK`) or charging: both ACTIVE at once. Motion
///   from IDLE_PENDING on: ACTIVE, then INACTIVE again with a 10 min timeout. The
///   4 min sensing timeout leaves the device in SENSING.
/// - Quick Doze (Battery Saver): 1 min, then deep IDLE with no motion or location check.
/// - A wake-from-idle alarm (an alarm clock) due within 30 min, 30 min included
///   (`isUpcomingAlarmClock`), when deep Doze would step on: ACTIVE, then INACTIVE again
///   until the alarm + 30 min (Quick Doze: + 1 min).
///
/// The world calls `handle` with every input, and with `.timer` at `state.nextDeadline`
/// or later: steps nothing waits on may run late, in one call, each at its own time.
///
/// A class: one per cohort, immutable, called for every Doze input of its devices; as
/// a struct, each call from the world's cohort models copied its config (233 bytes) first.
public final class DozeController: Sendable {
    public let config: DozeConfig
    /// `mNextIdleDelay`'s values: zero after a reset, then `IDLE_TIMEOUT`, × `IDLE_FACTOR`
    /// each deep IDLE up to `MAX_IDLE_TIMEOUT`.
    let idleDelays: Progression
    /// `mNextIdlePendingDelay`'s: zero, then `IDLE_PENDING_TIMEOUT`, × `IDLE_PENDING_FACTOR`
    /// each deep maintenance window up to `MAX_IDLE_PENDING_TIMEOUT`.
    let idlePendingDelays: Progression
    /// `mNextLightIdleDelay`'s and `mNextLightIdleDelayFlex`'s: zero, then
    /// `LIGHT_IDLE_TIMEOUT` and `LIGHT_IDLE_TIMEOUT_INITIAL_FLEX`, × `LIGHT_IDLE_FACTOR`
    /// each light IDLE up to `LIGHT_MAX_IDLE_TIMEOUT` and its flex's cap.
    let lightIdleDelays: Progression
    let lightIdleFlexes: Progression

    /// Refuses a configuration whose delays could not be stored as steps: a negative
    /// duration or a factor below 1 (AOSP's are 2), or a progression that overflows
    /// before its cap.
    public init(config: DozeConfig = .init()) {
        self.config = config
        for d in [config.idleTimeout, config.maxIdleTimeout, config.idlePendingTimeout, config.maxIdlePendingTimeout,
                  config.lightIdleTimeout, config.lightMaxIdleTimeout, config.lightIdleInitialFlex, config.lightMaxIdleTimeoutFlex] {
            precondition(d >= .zero, "DozeConfig: a negative idle delay")
        }
        precondition(config.idleFactor >= 1 && config.idlePendingFactor >= 1 && config.lightIdleFactor >= 1, "DozeConfig: an idle factor below 1")
        idleDelays = Progression(first: config.idleTimeout) { max(config.idleTimeout, min($0 * config.idleFactor, config.maxIdleTimeout)) }
        idlePendingDelays = Progression(first: config.idlePendingTimeout) {
            max(config.idlePendingTimeout, min(config.maxIdlePendingTimeout, $0 * config.idlePendingFactor))
        }
        lightIdleDelays = Progression(first: config.lightIdleTimeout) { min(config.lightMaxIdleTimeout, $0 * config.lightIdleFactor) }
        lightIdleFlexes = Progression(first: config.lightIdleInitialFlex) { min(config.lightMaxIdleTimeoutFlex, $0 * config.lightIdleFactor) }
    }

    /// A delay that starts at a configured value and grows by a rule to a cap, one step
    /// at a time (`delay = min(delay * factor, max)`, `docs/platform-facts.md` A: deep
    /// IDLE 1, 2, 4, 6 h; light IDLE 5, 10, 15 min): its values, zero (a reset) first,
    /// then from the configured one up to the first that the rule keeps, so that a
    /// device's state stores the step in one byte and reads the delay here. With factors
    /// of at least 1 a positive value at least doubles or stays, so a progression ends
    /// within 64 steps (an Int64's bits), unless its cap times its factor wraps past
    /// Int64 (`SimDuration`'s `*` wraps, and the delay would start over): refused.
    struct Progression: Sendable {
        /// Zero, the first value, and each next one up to the one the rule keeps.
        let values: [SimDuration]
        /// The step after a reset's zero: the rule from zero gives the first value (deep
        /// Doze's `max(IDLE_TIMEOUT, …)`) or zero again (light Doze's `min(…)`).
        let afterZero: UInt8

        init(first: SimDuration, next: (SimDuration) -> SimDuration) {
            var values: [SimDuration] = [.zero, first]
            while case let v = next(values[values.count - 1]), v != values[values.count - 1] {
                precondition(values.count < 66, "DozeConfig: an idle delay does not settle at its cap (its cap times its factor wraps past Int64?)")
                values.append(v)
            }
            let z = next(.zero)
            precondition(z == .zero || z == first, "DozeConfig: an idle delay's rule from zero")
            self.values = values
            afterZero = z == .zero ? 0 : 1
        }

        /// The value at `step`; past the last, the last (two progressions can share a step).
        subscript(step: UInt8) -> SimDuration { values[min(Int(step), values.count - 1)] }
        /// The step after `step`, the rule's: the last value stays.
        func after(_ step: UInt8) -> UInt8 { step == 0 ? afterZero : UInt8(min(Int(step) + 1, values.count - 1)) }
    }

    public func handle(_ input: DozeInput, state s: inout DozeState, now: SimTime, into out: inout [DozeTransition]) {
        switch input {
        case .screen(let on, let locked):
            // `updateInteractivityLocked`.
            if on {
                s.screenOn = true
                s.screenLocked = locked
                if !locked || !config.waitForUnlock {
                    becomeActive(&s, afterMotion: false, changeLight: true, out: &out)
                } else {
                    deliverNonWakeupAlarm(&s, now: now, out: &out)
                }
            } else if s.screenOn { s.screenOn = false; becomeInactiveIfAppropriate(&s, now: now, out: &out) }
        case .keyguard(let locked):
            // `keyguardShowingLocked`.
            guard locked != s.screenLocked else { return }
            s.screenLocked = locked
            if s.screenOn && !locked { becomeActive(&s, afterMotion: false, changeLight: true, out: &out) }
        case .deviceAwake:
            deliverNonWakeupAlarm(&s, now: now, out: &out)
        case .charging(let on):
            if on { s.charging = true; becomeActive(&s, afterMotion: false, changeLight: true, out: &out) }
            else if s.charging { s.charging = false; becomeInactiveIfAppropriate(&s, now: now, out: &out) }
        case .motion:
            motion(&s, now: now, out: &out)
        case .network(let connected):
            guard connected != s.networkConnected else { return }
            s.networkConnected = connected
            if connected && s.light == .waitingForNetwork { stepLight(&s, now: now, out: &out) }
        case .jobsActive(let active):
            s.jobsActive = active
            if !active { exitMaintenanceEarlyIfNeeded(&s, now: now, out: &out) }
        case .quickDoze(let on):
            s.quickDoze = on
            s.quickDozeWhileIdling = on && (s.deep == .idle || s.deep == .idleMaintenance)
            if on { becomeInactiveIfAppropriate(&s, now: now, out: &out) }
        case .highPriorityMessage:
            s.allowListedUntil = now + config.highPriorityMessageAllowList
            deliverNonWakeupAlarm(&s, now: now, out: &out)
        case .nextWakeFromIdleAlarm(let at):
            s.nextWakeFromIdleAlarm = at
        case .timer:
            advance(&s, through: now, into: &out)
        }
    }

    /// Runs every alarm due at or before `t`, each at its own deadline, as `.timer` inputs
    /// sent at each `nextDeadline` in turn would: the world need not send one per step
    /// while nothing waits on them, and catches up here before it next feeds or reads
    /// the state. Bounded: each pass fires the alarms due at its deadline and sets new
    /// ones only after it (every Doze delay is positive).
    public func advance(_ s: inout DozeState, through t: SimTime, into out: inout [DozeTransition]) {
        while let due = s.nextDeadline, due <= t { fireDue(&s, now: due, out: &out) }
    }

    // MARK: - Timers

    /// Runs every alarm due at `now`, deep before light when they coincide. Bounded: each
    /// step either moves an alarm into the future or clears it. Anything that fires
    /// wakes the device, so a non-wakeup light alarm whose window has opened goes with it.
    private func fireDue(_ s: inout DozeState, now: SimTime, out: inout [DozeTransition]) {
        var awake = false
        for _ in 0..<16 {
            if let t = s.deepAlarm, t <= now { s.deepAlarm = nil; awake = true; stepDeep(&s, now: now, out: &out); continue }
            if let t = s.sensingTimeoutAlarm, t <= now {
                // `mSensingTimeoutAlarmListener`: only `becomeInactiveIfAppropriateLocked`,
                // which leaves SENSING as it is (it acts from ACTIVE, or with Quick Doze);
                // AnyMotion's answer or motion moves the device on.
                s.sensingTimeoutAlarm = nil
                awake = true
                if s.deep == .sensing { becomeInactiveIfAppropriate(&s, now: now, out: &out) }
                continue
            }
            if let t = s.anyMotionResult, t <= now {
                // `onAnyMotionResult(RESULT_STATIONARY)`.
                s.anyMotionResult = nil
                awake = true
                if s.deep == .sensing { s.notMoving = true; stepDeep(&s, now: now, out: &out) }
                continue
            }
            if let t = s.locationFixAt, t <= now {
                // `receivedGenericLocationLocked` with a fix within the required accuracy.
                s.locationFixAt = nil
                awake = true
                if s.deep == .locating && s.notMoving { stepDeep(&s, now: now, out: &out) }
                continue
            }
            if let t = s.lightAlarm, t <= now, s.lightAlarmWindowEnd.map({ awake || $0 <= now }) ?? true {
                clearLightAlarm(&s)
                awake = true
                stepLight(&s, now: now, out: &out)
                continue
            }
            if let t = s.idleOpUntil, t <= now {
                // `MSG_FINISH_IDLE_OP` after `MIN_*_MAINTENANCE_TIME`.
                s.idleOpUntil = nil
                awake = true
                exitMaintenanceEarlyIfNeeded(&s, now: now, out: &out)
                continue
            }
            return
        }
    }

    /// The device is awake for something else: a non-wakeup light alarm whose window has
    /// opened is delivered now.
    private func deliverNonWakeupAlarm(_ s: inout DozeState, now: SimTime, out: inout [DozeTransition]) {
        guard s.lightAlarmWindowEnd != nil, let t = s.lightAlarm, t <= now else { return }
        clearLightAlarm(&s)
        stepLight(&s, now: now, out: &out)
    }

    /// `scheduleLightAlarmLocked(delay, flex, wakeup)`: a window alarm [at, at + flex].
    /// A wakeup alarm fires at its window's start (**assumption**, as AlarmManager sets
    /// the hardware alarm for a batch's start when nothing else is batched with it); a
    /// non-wakeup one when the device is next awake within its window, at its end at the
    /// latest (`DozeInput.deviceAwake`).
    private func setLightAlarm(_ s: inout DozeState, at t: SimTime, flex: SimDuration, wakes: Bool) {
        s.lightAlarm = t
        s.lightAlarmWindowEnd = wakes ? nil : t + flex
    }

    private func clearLightAlarm(_ s: inout DozeState) {
        s.lightAlarm = nil
        s.lightAlarmWindowEnd = nil
    }

    /// `isUpcomingAlarmClock`: `now + MIN_TIME_TO_ALARM >= getNextWakeFromIdleTime()`, so an
    /// alarm exactly 30 min away counts as upcoming.
    private func upcomingAlarm(_ s: DozeState, now: SimTime) -> SimTime? {
        guard let alarm = s.nextWakeFromIdleAlarm, now + config.minTimeToAlarm >= alarm else { return nil }
        return alarm
    }

    // MARK: - Transitions of [DIC]

    private func setDeep(_ s: inout DozeState, _ d: DozeDeepState, _ out: inout [DozeTransition]) {
        guard s.deep != d else { return }
        s.deep = d
        out.append(.deep(d))
    }

    private func setLight(_ s: inout DozeState, _ l: DozeLightState, _ out: inout [DozeTransition]) {
        guard s.light != l else { return }
        s.light = l
        out.append(.light(l))
    }

    /// `resetIdleManagementLocked`.
    private func resetDeep(_ s: inout DozeState) {
        s.idlePendingStep = 0
        s.idleStep = 0
        s.deepAlarm = nil
        s.sensingTimeoutAlarm = nil
        s.anyMotionResult = nil
        s.locationFixAt = nil
    }

    /// `resetLightIdleManagementLocked`.
    private func resetLight(_ s: inout DozeState) {
        s.lightIdleStep = 0
        s.lightBudget = .zero
        clearLightAlarm(&s)
    }

    /// `becomeActiveLocked(reason, uid, newInactiveTimeout, changeLightIdle)`.
    private func becomeActive(_ s: inout DozeState, afterMotion: Bool, changeLight: Bool, out: inout [DozeTransition]) {
        guard s.deep != .active || s.light != .active else { return }
        setDeep(&s, .active, &out)
        s.inactiveAfterMotion = afterMotion
        resetDeep(&s)
        if s.light != .idleMaintenance { s.maintenanceStart = nil }
        if changeLight {
            setLight(&s, .active, &out)
            resetLight(&s)
        }
    }

    /// `becomeInactiveIfAppropriateLocked`. The screen blocks it only when on and, with
    /// `WAIT_FOR_UNLOCK`, unlocked. With an alarm clock upcoming (`isUpcomingAlarmClock`)
    /// the step alarm is set past it: (alarm − now) + `INACTIVE_TIMEOUT`, or +
    /// `QUICK_DOZE_DELAY_TIMEOUT` with Quick Doze, "as setting a wakeup alarm before the
    /// upcoming alarm is futile".
    private func becomeInactiveIfAppropriate(_ s: inout DozeState, now: SimTime, out: inout [DozeTransition]) {
        let screenBlocks = s.screenOn && (!config.waitForUnlock || !s.screenLocked)
        guard !s.charging && !screenBlocks else { return }
        if s.quickDoze {
            if s.deep == .quickDozeDelay || s.deep == .idle || s.deep == .idleMaintenance { return }
            setDeep(&s, .quickDozeDelay, &out)
            resetDeep(&s)
            s.deepAlarm = (upcomingAlarm(s, now: now) ?? now) + config.quickDozeDelayTimeout
        } else if s.deep == .active {
            setDeep(&s, .inactive, &out)
            resetDeep(&s)
            s.deepAlarm = (upcomingAlarm(s, now: now) ?? now) + (s.inactiveAfterMotion ? config.motionInactiveTimeout : config.inactiveTimeout)
        }
        if s.light == .active {
            setLight(&s, .inactive, &out)
            resetLight(&s)
            setLightAlarm(&s, at: now + config.lightIdleAfterInactiveTimeout, flex: config.flexTimeShort, wakes: true)
        }
    }

    /// `motionLocked` → `handleMotionDetectedLocked(MOTION_INACTIVE_TIMEOUT)`. The motion
    /// sensor is registered from IDLE_PENDING on (`startMonitoringMotionLocked`).
    private func motion(_ s: inout DozeState, now: SimTime, out: inout [DozeTransition]) {
        switch s.deep {
        case .active, .inactive: return
        case .quickDozeDelay: return
        case .idlePending, .sensing, .locating, .idle, .idleMaintenance: break
        }
        if s.quickDoze && !s.quickDozeWhileIdling { return }
        let wasOverride = s.light == .override
        becomeActive(&s, afterMotion: true, changeLight: wasOverride, out: &out)
        becomeInactiveIfAppropriate(&s, now: now, out: &out)
    }

    /// `stepIdleStateLocked`, with its fall-throughs. It first checks
    /// `MIN_TIME_TO_ALARM`: with a wake-from-idle alarm due sooner, "we don't actually
    /// want to go idle": `becomeActiveLocked("alarm")` then `becomeInactiveIfAppropriateLocked`.
    private func stepDeep(_ s: inout DozeState, now: SimTime, out: inout [DozeTransition]) {
        if upcomingAlarm(s, now: now) != nil {
            if s.deep != .active {
                becomeActive(&s, afterMotion: false, changeLight: true, out: &out)
                becomeInactiveIfAppropriate(&s, now: now, out: &out)
            }
            return
        }
        switch s.deep {
        case .active:
            return
        case .inactive:
            s.deepAlarm = now + config.idleAfterInactiveTimeout
            setDeep(&s, .idlePending, &out)
        case .idlePending:
            setDeep(&s, .sensing, &out)
            s.sensingTimeoutAlarm = now + config.sensingTimeout
            s.notMoving = false
            s.anyMotionResult = now + config.anyMotionCheck
        case .sensing:
            s.sensingTimeoutAlarm = nil
            setDeep(&s, .locating, &out)
            if config.locationPrefetch {
                s.deepAlarm = now + config.locatingTimeout
                s.locationFixAt = config.locationFix.map { now + $0 }
                return
            }
            // Android 15 without location prefetch: "move on to the next state".
            fallthrough
        case .locating, .quickDozeDelay:
            s.deepAlarm = nil
            s.locationFixAt = nil
            s.idlePendingStep = 1
            s.idleStep = 1
            enterDeepIdle(&s, now: now, out: &out)
        case .idleMaintenance:
            enterDeepIdle(&s, now: now, out: &out)
        case .idle:
            s.idleOpUntil = now + config.minDeepMaintenanceTime
            s.deepAlarm = now + idlePendingDelays[s.idlePendingStep]
            s.maintenanceStart = now
            s.idlePendingStep = idlePendingDelays.after(s.idlePendingStep)
            setDeep(&s, .idleMaintenance, &out)
        }
    }

    private func enterDeepIdle(_ s: inout DozeState, now: SimTime, out: inout [DozeTransition]) {
        s.deepAlarm = now + idleDelays[s.idleStep]
        s.idleStep = idleDelays.after(s.idleStep)
        setDeep(&s, .idle, &out)
        if s.light != .override {
            setLight(&s, .override, &out)
            clearLightAlarm(&s)
        }
    }

    /// `stepLightIdleStateLocked`, with its fall-throughs. Android 15 has no PRE_IDLE
    /// (`lightPreIdle`).
    private func stepLight(_ s: inout DozeState, now: SimTime, out: inout [DozeTransition]) {
        switch s.light {
        case .active, .override:
            return
        case .inactive:
            s.lightBudget = config.lightMaintenanceMinBudget
            s.lightIdleStep = 1
            s.maintenanceStart = nil
            if config.lightPreIdle && !s.opsInactive {
                setLight(&s, .preIdle, &out)
                setLightAlarm(&s, at: now + config.lightPreIdleTimeout, flex: config.flexTimeShort, wakes: true)
                return
            }
            enterLightIdle(&s, now: now, out: &out)
        case .preIdle, .idleMaintenance:
            enterLightIdle(&s, now: now, out: &out)
        case .idle, .waitingForNetwork:
            if s.networkConnected || s.light == .waitingForNetwork {
                s.idleOpUntil = now + config.minLightMaintenanceTime
                s.maintenanceStart = now
                s.lightBudget = max(config.lightMaintenanceMinBudget, min(config.lightMaintenanceMaxBudget, s.lightBudget))
                setLightAlarm(&s, at: now + s.lightBudget, flex: config.flexTimeShort, wakes: true)
                setLight(&s, .idleMaintenance, &out)
            } else {
                setLightAlarm(&s, at: now + lightIdleDelays[s.lightIdleStep],
                              flex: SimDuration(microseconds: lightIdleFlexes[s.lightIdleStep].microseconds / 2), wakes: true)
                setLight(&s, .waitingForNetwork, &out)
            }
        }
    }

    private func enterLightIdle(_ s: inout DozeState, now: SimTime, out: inout [DozeTransition]) {
        if let start = s.maintenanceStart {
            // Unused minimum budget is carried forward; an overrun comes out of the reserve.
            s.lightBudget = s.lightBudget + (config.lightMaintenanceMinBudget - (now - start))
        }
        s.maintenanceStart = nil
        // The light IDLE → maintenance alarm: a window of `mNextLightIdleDelayFlex`, a
        // wakeup alarm only on Android 15 (`lightIdleAlarmWakes`).
        setLightAlarm(&s, at: now + lightIdleDelays[s.lightIdleStep], flex: lightIdleFlexes[s.lightIdleStep], wakes: config.lightIdleAlarmWakes)
        s.lightIdleStep = max(lightIdleDelays.after(s.lightIdleStep), lightIdleFlexes.after(s.lightIdleStep))
        setLight(&s, .idle, &out)
    }

    /// `exitMaintenanceEarlyIfNeededLocked`.
    private func exitMaintenanceEarlyIfNeeded(_ s: inout DozeState, now: SimTime, out: inout [DozeTransition]) {
        guard s.deep == .idleMaintenance || s.light == .idleMaintenance || s.light == .preIdle else { return }
        guard s.opsInactive else { return }
        if s.deep == .idleMaintenance {
            s.deepAlarm = nil
            stepDeep(&s, now: now, out: &out)
        } else {
            clearLightAlarm(&s)
            stepLight(&s, now: now, out: &out)
        }
    }
}
