import SimKernel

/// App Standby Buckets, best to worst (`STANDBY_BUCKET_*`); the raw value indexes the
/// per-bucket tables of `docs/platform-facts.md` B.
public enum StandbyBucket: Int, Sendable, Equatable, Comparable, CaseIterable {
    case active = 0, workingSet, frequent, rare, restricted
    public static func < (a: StandbyBucket, b: StandbyBucket) -> Bool { a.rawValue < b.rawValue }
}

/// `AppStandbyController`'s thresholds and hold times (`docs/platform-facts.md` B, [ASC], [AIH]).
public struct StandbyBucketConfig: Sendable, Equatable {
    /// Elapsed time since last use at which each bucket is reached: 0, 12 h, 24 h, 48 h, 8 d.
    public var elapsedThresholds: [SimDuration] = [.zero, .hours(12), .hours(24), .hours(48), .days(8)]
    /// Screen-on time since last use at which each bucket is reached: 0, 0, 1 h, 2 h, 6 h.
    public var screenOnThresholds: [SimDuration] = [.zero, .zero, .hours(1), .hours(2), .hours(6)]
    /// Strong usage (the user opens the app): held in ACTIVE at least 1 h. With the
    /// default thresholds this never shows: an open also resets the last use, and the
    /// app stays ACTIVE until the 12 h WORKING_SET threshold anyway (docs/platform-facts.md B lists
    /// both). It binds only when `elapsedThresholds[1]` is set below 1 h.
    public var strongUsageHold = SimDuration.hours(1)
    /// A notification seen: promoted to WORKING_SET for 12 h, without counting as use.
    public var notificationSeenHold = SimDuration.hours(12)
    /// `mCheckIdleIntervalMillis`: demotions by the elapsed and screen-on thresholds are
    /// applied by `checkIdleStates`, which runs this often:
    /// `min(DEFAULT_ELAPSED_TIME_THRESHOLDS[1] / 4, ONE_HOUR * 4)` = min(12 h / 4, 4 h) =
    /// 3 h (`AppStandbyController.mCheckIdleIntervalMillis`, with
    /// `ConstantsObserver.DEFAULT_CHECK_IDLE_INTERVAL_MS` 4 h). nil applies them the moment
    /// they are reached.
    public var checkIdleInterval: SimDuration? = .hours(3)
    public init() {}
}

/// One app's standby history on one device (`AppIdleHistory.AppUsageHistory`), and the
/// device's screen-on clock it is measured by.
public struct StandbyBucketState: Sendable, Equatable {
    public internal(set) var lastUsedAt: SimTime
    /// The device's total screen-on time when the app was last used.
    var lastUsedScreenOn = SimDuration.zero
    var activeUntil = SimTime(microseconds: .min)
    var workingSetUntil = SimTime(microseconds: .min)
    /// Screen-on time accumulated before `screenOnSince`.
    var screenOnTotal = SimDuration.zero
    /// While the screen is on, since when (nil is `Int64.min` µs: ``PackedTime``).
    var screenOnSince: SimTime? {
        get { packedScreenOnSince.value }
        set { packedScreenOnSince.value = newValue }
    }
    var packedScreenOnSince = PackedTime.none
    /// When the screen last turned on or off: screen-on totals at earlier instants are
    /// known only from the snapshots below.
    var screenChangedAt = SimTime(microseconds: .min)
    /// The screen-on total at the last periodic check before `screenChangedAt`, and at
    /// the last hold end before it (where AOSP re-evaluates the bucket); ``ScreenOnSnapshot/none``
    /// until one is taken.
    var checkSnapshot = ScreenOnSnapshot.none
    var holdEndSnapshot = ScreenOnSnapshot.none
    struct ScreenOnSnapshot: Sendable, Equatable {
        var at: SimTime
        var screenOn: SimDuration
        /// No snapshot: at `Int64.min` µs, an instant no check or hold end falls on (16
        /// bytes where an optional took 24).
        static let none = ScreenOnSnapshot(at: SimTime(microseconds: .min), screenOn: .zero)
    }
    /// Where the periodic check's 3 h grid lies: checks at `checkPhase` + k × 3 h (AOSP
    /// starts the timer at boot).
    public let checkPhase: SimDuration

    /// An app last used at `lastUsedAt` on a device whose screen is off, whose periodic
    /// checks fall at `checkPhase` + k × `checkIdleInterval`.
    public init(lastUsedAt: SimTime, checkPhase: SimDuration = .zero) {
        self.lastUsedAt = lastUsedAt
        self.checkPhase = checkPhase
    }

    /// Total screen-on time up to `now`.
    public func screenOnTime(at now: SimTime) -> SimDuration {
        screenOnTotal + (screenOnSince.map { now - $0 } ?? .zero)
    }
}

/// App Standby Buckets moved by usage (`docs/platform-facts.md` B).
///
/// - An app drops to a bucket once **both** the elapsed time and the device's screen-on
///   time since the app's last use reach that bucket's thresholds (12 h / 0; 24 h / 1 h;
///   48 h / 2 h; 8 d / 6 h).
/// - Opening the app is use: ACTIVE, held there at least 1 h, and with the default
///   thresholds until the 12 h WORKING_SET threshold. A notification seen
///   holds the app in WORKING_SET (or better) for 12 h but is not use, so the app drops
///   back when the hold ends.
/// - Demotion by the thresholds waits for AppStandbyController's periodic
///   `checkIdleStates`, every 3 h (`checkIdleInterval`); the end of a hold is applied
///   at once, with the thresholds as they stand then (`reportEventLocked` posts
///   `MSG_CHECK_PACKAGE_IDLE_STATE` for it when the event moved the bucket; when it did
///   not, the app was already that good, and the end changes nothing with the default
///   thresholds). **Assumption**: the check grid's phase is the device's
///   `checkPhase` (its boot), zero unless the world draws one.
///
/// A class: one per cohort, immutable, consulted at every screen change and bucket
/// check of its devices; as a struct, each call copied its config (retaining its two
/// threshold arrays) out of the world's cohort models.
public final class StandbyBucketModel: Sendable {
    public let config: StandbyBucketConfig
    public init(config: StandbyBucketConfig = .init()) { self.config = config }

    public func screen(on: Bool, state s: inout StandbyBucketState, now: SimTime) {
        // Before the screen changes, keep the totals at the instants a later `bucket`
        // may evaluate: the last check and the last hold end, if they came after the
        // previous change (before it, the previous call kept them).
        if let c = lastCheck(s, at: now), c >= s.screenChangedAt { s.checkSnapshot = .init(at: c, screenOn: s.screenOnTime(at: c)) }
        if let h = lastHoldEnd(s, at: now), h >= s.screenChangedAt { s.holdEndSnapshot = .init(at: h, screenOn: s.screenOnTime(at: h)) }
        s.screenChangedAt = now
        if on, s.screenOnSince == nil { s.screenOnSince = now }
        if !on, let since = s.screenOnSince { s.screenOnTotal = s.screenOnTotal + (now - since); s.screenOnSince = nil }
    }

    /// The user opened the app (`reportUsage` with strong usage).
    public func appUsed(state s: inout StandbyBucketState, now: SimTime) {
        s.lastUsedAt = now
        s.lastUsedScreenOn = s.screenOnTime(at: now)
        s.activeUntil = max(s.activeUntil, now + config.strongUsageHold)
    }

    /// The user saw one of the app's notifications.
    public func notificationSeen(state s: inout StandbyBucketState, now: SimTime) {
        s.workingSetUntil = max(s.workingSetUntil, now + config.notificationSeenHold)
    }

    /// The last periodic check at or before `now`; nil when checks are off.
    func lastCheck(_ s: StandbyBucketState, at now: SimTime) -> SimTime? {
        guard let i = config.checkIdleInterval?.microseconds, i > 0 else { return nil }
        let x = now.microseconds - s.checkPhase.microseconds
        let k = x >= 0 ? x / i : -((-x + i - 1) / i)
        return SimTime(microseconds: s.checkPhase.microseconds + k * i)
    }

    /// The later of the two holds' ends, if it is at or before `now`.
    func lastHoldEnd(_ s: StandbyBucketState, at now: SimTime) -> SimTime? {
        var end: SimTime?
        if s.activeUntil <= now { end = s.activeUntil }
        if s.workingSetUntil <= now { end = max(end ?? s.workingSetUntil, s.workingSetUntil) }
        return end
    }

    /// The screen-on total at `t`, an instant `bucket` evaluates at.
    private func screenOnTotal(_ s: StandbyBucketState, at t: SimTime) -> SimDuration {
        if t == s.lastUsedAt { return s.lastUsedScreenOn }
        if s.checkSnapshot.at == t, t < s.screenChangedAt { return s.checkSnapshot.screenOn }
        if s.holdEndSnapshot.at == t, t < s.screenChangedAt { return s.holdEndSnapshot.screenOn }
        return s.screenOnTime(at: t)
    }

    /// The app's bucket at `now`: the thresholds as they stood at the last moment
    /// AppStandbyController evaluated them (the last periodic check, the last use, or
    /// the last hold's end, whichever is latest).
    public func bucket(_ s: StandbyBucketState, at now: SimTime) -> StandbyBucket {
        if now < s.activeUntil { return .active }
        let b = StandbyBucket(rawValue: thresholdLevel(s, at: now)) ?? .restricted
        return now < s.workingSetUntil ? min(b, .workingSet) : b
    }

    /// The index of the worst bucket whose thresholds were both met when they were last
    /// evaluated at or before `now`.
    func thresholdLevel(_ s: StandbyBucketState, at now: SimTime) -> Int {
        var evaluated = now
        if let c = lastCheck(s, at: now) {
            evaluated = max(c, s.lastUsedAt)
            if let h = lastHoldEnd(s, at: now) { evaluated = max(evaluated, h) }
        }
        let elapsed = evaluated - s.lastUsedAt
        let screen = screenOnTotal(s, at: evaluated) - s.lastUsedScreenOn
        for i in stride(from: config.elapsedThresholds.count - 1, through: 0, by: -1)
        where elapsed >= config.elapsedThresholds[i] && screen >= config.screenOnThresholds[i] {
            return i
        }
        return 0
    }

    /// The next moment after `now` at which the bucket can change without a new input
    /// (a hold ends, or the first periodic check after both thresholds of a worse
    /// bucket are reached); nil if none. With the screen off, screen-on thresholds not
    /// yet met wait for the screen.
    public func nextChange(_ s: StandbyBucketState, after now: SimTime) -> SimTime? {
        var t: SimTime? = nil
        if now < s.activeUntil { t = earliest(t, s.activeUntil) }
        if now < s.workingSetUntil { t = earliest(t, s.workingSetUntil) }
        let screenUsed = s.screenOnTime(at: now) - s.lastUsedScreenOn
        let applied = thresholdLevel(s, at: now)
        for i in config.elapsedThresholds.indices where i > applied || config.checkIdleInterval == nil {
            let byElapsed = s.lastUsedAt + config.elapsedThresholds[i]
            let missing = config.screenOnThresholds[i] - screenUsed
            let byScreen: SimTime
            if missing <= .zero { byScreen = now } else if s.screenOnSince != nil { byScreen = now + missing } else { continue }
            let reached = max(byElapsed, byScreen)
            if let interval = config.checkIdleInterval, let c = lastCheck(s, at: max(reached, now)) {
                // Not applied yet (a worse level than the last evaluation): at the first
                // check at or after it, and after now.
                let at = c == reached && reached > now ? c : c + interval
                t = earliest(t, at)
            } else if reached > now {
                t = earliest(t, reached)
            }
        }
        return t
    }
}
