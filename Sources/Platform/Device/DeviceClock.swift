import SimKernel

/// A device's wall clock and time zone. True time stays in the kernel (`SimTime`
/// since the scenario start, UTC); the device sees `start + now + skew`.
///
/// Two zones: `location` is where the user is (their day follows it), `timeZone` is
/// the device's setting (what the app sees). With `automaticTimeZone` (iOS "Set
/// Automatically", on by default) travel moves both; with it off, the device keeps
/// showing home time while the user lives in another zone.
public struct DeviceClock: Sendable {
    /// The device clock's error (`clockSkew` fault).
    public var skew: SimDuration = .zero
    /// Index into the world's table of IANA time-zone names: the device's setting.
    public var timeZone: UInt16 = 0
    /// Index into the same table: the zone the user is in.
    public var location: UInt16 = 0
    public var automaticTimeZone = true
    public init(timeZone: UInt16) {
        self.timeZone = timeZone
        self.location = timeZone
    }

    /// The device's wall time in microseconds since the Unix epoch.
    @inlinable public func wallMicroseconds(at now: SimTime, startUnixSeconds: Int64) -> Int64 {
        startUnixSeconds * 1_000_000 + now.microseconds + skew.microseconds
    }

    /// The true time at which the device's wall clock reads `wallMicroseconds`.
    @inlinable public func trueTime(ofWall wallMicroseconds: Int64, startUnixSeconds: Int64) -> SimTime {
        SimTime(microseconds: wallMicroseconds - startUnixSeconds * 1_000_000 - skew.microseconds)
    }

    /// The user travels to the zone at `zone` (a table index).
    public mutating func travel(to zone: UInt16) {
        location = zone
        if automaticTimeZone { timeZone = zone }
    }

    /// What the device's clock shows in its zone, skew included: the app's view.
    public func deviceLocalTime(at now: SimTime, startUnixSeconds: Int64, zones: inout [LocalTimeZone]) -> LocalTime {
        zones[Int(timeZone)].localTime(atUnixMicroseconds: wallMicroseconds(at: now, startUnixSeconds: startUnixSeconds))
    }

    /// The true local time where the user is, no skew: what the user's day follows.
    public func userLocalTime(at now: SimTime, startUnixSeconds: Int64, zones: inout [LocalTimeZone]) -> LocalTime {
        zones[Int(location)].localTime(atUnixMicroseconds: startUnixSeconds * 1_000_000 + now.microseconds)
    }
}
