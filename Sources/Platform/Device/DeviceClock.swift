import SimKernel

/// A device's wall clock and time zone. True time stays in the kernel (`SimTime`
/// since the scenario start, UTC); the device sees `start + now + skew`.
public struct DeviceClock: Sendable {
    /// The device clock's error (`clockSkew` fault).
    public var skew: SimDuration = .zero
    /// Index into the world's table of IANA time-zone names.
    public var timeZone: UInt16 = 0
    public init(timeZone: UInt16) { self.timeZone = timeZone }

    /// The device's wall time in microseconds since the Unix epoch.
    @inlinable public func wallMicroseconds(at now: SimTime, startUnixSeconds: Int64) -> Int64 {
        startUnixSeconds * 1_000_000 + now.microseconds + skew.microseconds
    }

    /// The true time at which the device's wall clock reads `wallMicroseconds`.
    @inlinable public func trueTime(ofWall wallMicroseconds: Int64, startUnixSeconds: Int64) -> SimTime {
        SimTime(microseconds: wallMicroseconds - startUnixSeconds * 1_000_000 - skew.microseconds)
    }
}
