/// A wall-clock instant as the app sees it: microseconds since 1970-01-01T00:00:00Z.
///
/// On a phone this is `Date()`, so it carries the device clock's error; times that
/// come from the server (`serverTime`, `completedAt`) are true times. The logic never
/// reads a clock itself: every input arrives with `now`.
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var unixMicroseconds: Int64
    public init(unixMicroseconds: Int64) { self.unixMicroseconds = unixMicroseconds }
    public init(unixSeconds: Int64) { self.unixMicroseconds = unixSeconds * 1_000_000 }
    public static func < (a: Instant, b: Instant) -> Bool { a.unixMicroseconds < b.unixMicroseconds }
    public static func + (a: Instant, d: Interval) -> Instant { Instant(unixMicroseconds: a.unixMicroseconds + d.microseconds) }
    public static func - (a: Instant, b: Instant) -> Interval { Interval(microseconds: a.unixMicroseconds - b.unixMicroseconds) }
    public static func - (a: Instant, d: Interval) -> Instant { Instant(unixMicroseconds: a.unixMicroseconds - d.microseconds) }
    public var description: String { iso8601 }
}

/// A span of time in microseconds.
public struct Interval: Hashable, Comparable, Sendable {
    public var microseconds: Int64
    public init(microseconds: Int64) { self.microseconds = microseconds }
    public static func seconds(_ s: Int64) -> Interval { Interval(microseconds: s * 1_000_000) }
    public static func minutes(_ m: Int64) -> Interval { Interval(microseconds: m * 60_000_000) }
    public static func hours(_ h: Int64) -> Interval { Interval(microseconds: h * 3_600_000_000) }
    public static func days(_ d: Int64) -> Interval { Interval(microseconds: d * 86_400_000_000) }
    public static func < (a: Interval, b: Interval) -> Bool { a.microseconds < b.microseconds }
    public static func + (a: Interval, b: Interval) -> Interval { Interval(microseconds: a.microseconds + b.microseconds) }
    public static func - (a: Interval, b: Interval) -> Interval { Interval(microseconds: a.microseconds - b.microseconds) }
    public static let zero = Interval(microseconds: 0)
}

/// The app's reading of its clocks for one input: the wall clock and a boot clock.
///
/// The wall clock (`Date()`, Android `System.currentTimeMillis()`) can be set by the
/// user or the network and jumps forward or back; the Android `SystemClock`
/// documentation says interval measurements must not use it. Rules that compare two
/// moments ("opened in the last 24 h", "refreshed in the last 12 h", "synced in the
/// last 2 h") therefore measure with a clock that counts from boot, never jumps and
/// keeps counting in deep sleep: Android `SystemClock.elapsedRealtime()`, iOS
/// `clock_gettime_nsec_np(CLOCK_MONOTONIC_RAW)` (= `mach_continuous_time`, which Apple
/// documents as incrementing "including while the system is asleep"; not
/// `ProcessInfo.systemUptime`, which stops while the device sleeps). A reboot restarts
/// that clock, so each reading carries the boot's identity (Android
/// `Settings.Global.BOOT_COUNT`, iOS `sysctl kern.boottime`).
///
/// The same value, persisted, is a ``DeviceTime`` stamp; ``elapsed(since:)`` is the
/// one place that turns two of them into a duration.
public struct DeviceTime: Hashable, Sendable, CustomStringConvertible {
    /// The wall clock: what the app shows and what calendar rules (local days) read.
    public var wall: Instant
    /// Time since boot, deep sleep included.
    public var sinceBoot: Interval
    /// Which boot `sinceBoot` counts from.
    public var boot: UInt32
    public init(wall: Instant, sinceBoot: Interval, boot: UInt32) {
        self.wall = wall
        self.sinceBoot = sinceBoot
        self.boot = boot
    }

    /// How long ago `stamp` was, whatever the wall clock did in between.
    ///
    /// Same boot: the boot clock's difference, exact. Another boot: the boot clock of
    /// the stamp is gone, so the wall clocks' difference is the only estimate; the
    /// stamp predates this boot, so its age is at least `sinceBoot`, and that floor
    /// bounds a clock set back across a reboot: a rule that waits for an age waits at
    /// most its own length after the boot. (A clock set forward across a reboot makes
    /// a stamp look older than it is; no device-only clock can tell.)
    public func elapsed(since stamp: DeviceTime) -> Interval {
        if stamp.boot == boot { return sinceBoot - stamp.sinceBoot }
        let wallAge = wall - stamp.wall
        return wallAge < sinceBoot ? sinceBoot : wallAge
    }

    /// The moment of `stamp` on today's wall clock: where a query in wall-clock dates
    /// (HealthKit, Health Connect) must start to cover everything since `stamp`.
    public func wallClockReading(of stamp: DeviceTime) -> Instant { wall - elapsed(since: stamp) }

    public var description: String { "\(wall.iso8601) (boot \(boot) +\(sinceBoot))" }
}
