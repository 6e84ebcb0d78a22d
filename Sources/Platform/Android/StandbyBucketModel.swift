import SimKernel

/// App Standby Buckets, best to worst (`STANDBY_BUCKET_*`); the raw value indexes the
/// per-bucket tables of `REFERENCE.md` B.
public enum StandbyBucket: Int, Sendable, Equatable, Comparable, CaseIterable {
    case active = 0, workingSet, frequent, rare, restricted
    public static func < (a: StandbyBucket, b: StandbyBucket) -> Bool { a.rawValue < b.rawValue }
}

/// `AppStandbyController`'s thresholds and hold times (`REFERENCE.md` B, [ASC], [AIH]).
public struct StandbyBucketConfig: Sendable, Equatable {
    /// Elapsed time since last use at which each bucket is reached: 0, 12 h, 24 h, 48 h, 8 d.
    public var elapsedThresholds: [SimDuration] = [.zero, .hours(12), .hours(24), .hours(48), .days(8)]
    /// Screen-on time since last use at which each bucket is reached: 0, 0, 1 h, 2 h, 6 h.
    public var screenOnThresholds: [SimDuration] = [.zero, .zero, .hours(1), .hours(2), .hours(6)]
    /// Strong usage (the user opens the app): held in ACTIVE at least 1 h. With the
    /// default thresholds this never shows: an open also resets the last use, and the
    /// app stays ACTIVE until the 12 h WORKING_SET threshold anyway (REFERENCE.md B lists
    /// both). It binds only when `elapsedThresholds[1]` is set below 1 h.
    public var strongUsageHold = SimDuration.hours(1)
    /// A notification seen: promoted to WORKING_SET for 12 h, without counting as use.
    public var notificationSeenHold = SimDuration.hours(12)
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
    var screenOnSince: SimTime?

    /// An app last used at `lastUsedAt` on a device whose screen is off.
    public init(lastUsedAt: SimTime) { self.lastUsedAt = lastUsedAt }

    /// Total screen-on time up to `now`.
    public func screenOnTime(at now: SimTime) -> SimDuration {
        screenOnTotal + (screenOnSince.map { now - $0 } ?? .zero)
    }
}

/// App Standby Buckets moved by usage (`REFERENCE.md` B).
///
/// - An app drops to a bucket once **both** the elapsed time and the device's screen-on
///   time since the app's last use reach that bucket's thresholds (12 h / 0; 24 h / 1 h;
///   48 h / 2 h; 8 d / 6 h).
/// - Opening the app is use: ACTIVE, held there at least 1 h, and with the default
///   thresholds until the 12 h WORKING_SET threshold. A notification seen
///   holds the app in WORKING_SET (or better) for 12 h but is not use, so the app drops
///   back when the hold ends.
/// - **Assumption**: the bucket changes the moment a threshold is reached; AOSP applies it
///   at its next periodic idle check, so a real device may demote somewhat later.
public struct StandbyBucketModel: Sendable {
    public var config: StandbyBucketConfig
    public init(config: StandbyBucketConfig = .init()) { self.config = config }

    public func screen(on: Bool, state s: inout StandbyBucketState, now: SimTime) {
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

    /// The app's bucket at `now`.
    public func bucket(_ s: StandbyBucketState, at now: SimTime) -> StandbyBucket {
        if now < s.activeUntil { return .active }
        let elapsed = now - s.lastUsedAt
        let screen = s.screenOnTime(at: now) - s.lastUsedScreenOn
        var level = 0
        for i in stride(from: config.elapsedThresholds.count - 1, through: 0, by: -1)
        where elapsed >= config.elapsedThresholds[i] && screen >= config.screenOnThresholds[i] {
            level = i
            break
        }
        let b = StandbyBucket(rawValue: level) ?? .restricted
        return now < s.workingSetUntil ? min(b, .workingSet) : b
    }

    /// The next moment after `now` at which the bucket can change without a new input
    /// (a hold ends, or both thresholds of a worse bucket are reached); nil if none.
    /// With the screen off, screen-on thresholds not yet met wait for the screen.
    public func nextChange(_ s: StandbyBucketState, after now: SimTime) -> SimTime? {
        var t: SimTime? = nil
        if now < s.activeUntil { t = earliest(t, s.activeUntil) }
        if now < s.workingSetUntil { t = earliest(t, s.workingSetUntil) }
        let screenUsed = s.screenOnTime(at: now) - s.lastUsedScreenOn
        for i in config.elapsedThresholds.indices {
            let byElapsed = s.lastUsedAt + config.elapsedThresholds[i]
            let missing = config.screenOnThresholds[i] - screenUsed
            let byScreen: SimTime
            if missing <= .zero { byScreen = now } else if s.screenOnSince != nil { byScreen = now + missing } else { continue }
            let reached = max(byElapsed, byScreen)
            if reached > now { t = earliest(t, reached) }
        }
        return t
    }
}
