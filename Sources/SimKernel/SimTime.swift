/// A point in simulated time: microseconds since the scenario's `start`.
///
/// True time in the kernel is always UTC-anchored at the scenario start; calendar
/// dates, time zones and device clocks are conversions made at the edges.
public struct SimTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var microseconds: Int64

    @inlinable public init(microseconds: Int64) { self.microseconds = microseconds }

    @inlinable public static var zero: SimTime { SimTime(microseconds: 0) }

    @inlinable public static func < (a: SimTime, b: SimTime) -> Bool { a.microseconds < b.microseconds }
    /// Saturates at the ends of `Int64`, so a far-future deadline can never wrap into the past.
    @inlinable public static func + (t: SimTime, d: SimDuration) -> SimTime {
        let (sum, overflow) = t.microseconds.addingReportingOverflow(d.microseconds)
        return SimTime(microseconds: overflow ? (d.microseconds > 0 ? .max : .min) : sum)
    }
    @inlinable public static func - (t: SimTime, d: SimDuration) -> SimTime { SimTime(microseconds: t.microseconds &- d.microseconds) }
    @inlinable public static func - (a: SimTime, b: SimTime) -> SimDuration { SimDuration(microseconds: a.microseconds &- b.microseconds) }

    /// Seconds since start, for reports.
    public var seconds: Double { Double(microseconds) / 1_000_000 }
    public var description: String { SimDuration(microseconds: microseconds).description }
}

/// A span of simulated time in microseconds. Negative spans exist (clock skew offsets).
public struct SimDuration: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var microseconds: Int64

    @inlinable public init(microseconds: Int64) { self.microseconds = microseconds }

    @inlinable public static var zero: SimDuration { SimDuration(microseconds: 0) }
    @inlinable public static func microseconds(_ v: Int64) -> SimDuration { SimDuration(microseconds: v) }
    @inlinable public static func milliseconds(_ v: Int64) -> SimDuration { SimDuration(microseconds: v * 1_000) }
    @inlinable public static func seconds(_ v: Int64) -> SimDuration { SimDuration(microseconds: v * 1_000_000) }
    @inlinable public static func minutes(_ v: Int64) -> SimDuration { SimDuration(microseconds: v * 60_000_000) }
    @inlinable public static func hours(_ v: Int64) -> SimDuration { SimDuration(microseconds: v * 3_600_000_000) }
    @inlinable public static func days(_ v: Int64) -> SimDuration { SimDuration(microseconds: v * 86_400_000_000) }
    /// Rounds to the nearest microsecond; saturates (about ±292,000 years) instead of trapping.
    @inlinable public static func fromSeconds(_ v: Double) -> SimDuration {
        let us = (v * 1_000_000).rounded()
        guard us.isFinite else { return SimDuration(microseconds: us.isNaN ? 0 : (us > 0 ? .max : .min)) }
        return SimDuration(microseconds: us >= 9.2e18 ? .max : (us <= -9.2e18 ? .min : Int64(us)))
    }

    @inlinable public static func < (a: SimDuration, b: SimDuration) -> Bool { a.microseconds < b.microseconds }
    @inlinable public static func + (a: SimDuration, b: SimDuration) -> SimDuration { SimDuration(microseconds: a.microseconds &+ b.microseconds) }
    @inlinable public static func - (a: SimDuration, b: SimDuration) -> SimDuration { SimDuration(microseconds: a.microseconds &- b.microseconds) }
    @inlinable public static func * (a: SimDuration, k: Int64) -> SimDuration { SimDuration(microseconds: a.microseconds &* k) }
    @inlinable public static prefix func - (a: SimDuration) -> SimDuration { SimDuration(microseconds: -a.microseconds) }

    public var seconds: Double { Double(microseconds) / 1_000_000 }

    /// The scenario-file spelling, e.g. `"4h"`, `"250ms"`, `"-3d"`; the largest unit that divides exactly.
    public var description: String {
        let v = microseconds
        if v == 0 { return "0s" }
        let units: [(Int64, String)] = [(86_400_000_000, "d"), (3_600_000_000, "h"), (60_000_000, "m"), (1_000_000, "s"), (1_000, "ms")]
        for (size, name) in units where v % size == 0 { return "\(v / size)\(name)" }
        return "\(v)us"
    }

    /// Parses `"250ms"`, `"30s"`, `"15m"`, `"4h"`, `"7d"`, `"1.5h"`, `"-2h"`, `"100us"`.
    /// Returns nil for anything else (the caller reports where and why).
    public static func parse(_ text: String) -> SimDuration? {
        let units: [(String, Double)] = [("us", 1), ("ms", 1_000), ("s", 1_000_000), ("m", 60_000_000), ("h", 3_600_000_000), ("d", 86_400_000_000)]
        for (suffix, scale) in units.sorted(by: { $0.0.count > $1.0.count }) where text.hasSuffix(suffix) {
            let number = text.dropLast(suffix.count)
            guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-" || $0 == "+") }),
                  let value = Double(number), value.isFinite else { return nil }
            let micros = (value * scale).rounded()
            guard abs(micros) < 9.0e18 else { return nil }
            return SimDuration(microseconds: Int64(micros))
        }
        return nil
    }
}

/// A `SimTime?` in 8 bytes: a plain optional takes 9, so 16 inside a struct, and per-device
/// state holds dozens of optional deadlines (a million devices: 8 MB a field).
/// nil is stored as `Int64.min` microseconds, the time `SimTime.never` (Simulation) also uses: no
/// deadline is ever set there (asserted).
public struct PackedTime: Hashable, Sendable {
    @usableFromInline var raw: Int64

    @inlinable public static var none: PackedTime { PackedTime(nil) }

    @inlinable public init(_ time: SimTime?) {
        assert(time?.microseconds != .min, "PackedTime cannot hold Int64.min µs: it stands for nil")
        raw = time?.microseconds ?? .min
    }

    @inlinable public var value: SimTime? {
        get { raw == .min ? nil : SimTime(microseconds: raw) }
        set { self = PackedTime(newValue) }
    }
}
