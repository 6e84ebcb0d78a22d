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
    public static let zero = Interval(microseconds: 0)
}
