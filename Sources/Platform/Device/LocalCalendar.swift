import Foundation

/// Local dates and clock times of one IANA time zone, for models that follow the
/// user's day (charging at night, steps by day). DST-aware through Foundation's
/// zone data; instants are Unix seconds.
public struct LocalCalendar: Sendable {
    let zone: TimeZone

    public init(identifier: String) {
        zone = TimeZone(identifier: identifier) ?? TimeZone(secondsFromGMT: 0)!
    }

    /// Seconds east of UTC at `unixSeconds`.
    public func offset(atUnix unixSeconds: Int64) -> Int64 {
        Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(unixSeconds))))
    }

    /// The local date (days since 1970-01-01) and the local clock reading (seconds since
    /// local midnight) at `unixSeconds`.
    public func local(atUnix unixSeconds: Int64) -> (day: Int32, secondOfDay: Int) {
        let local = unixSeconds + offset(atUnix: unixSeconds)
        let day = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        return (Int32(day), Int(local - day * 86_400))
    }

    /// The Unix second at which local date `day` begins (its local midnight; on a DST
    /// night the offset at midnight, not the one at noon, decides).
    public func dayStart(_ day: Int32) -> Int64 {
        let midnight = Int64(day) * 86_400
        var guess = midnight - offset(atUnix: midnight)
        guess = midnight - offset(atUnix: guess)
        return guess
    }
}
