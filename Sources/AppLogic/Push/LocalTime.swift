import Foundation

/// The user's wall clock in their IANA time zone (seed `001` stores `timezone` per
/// device and quiet hours per user). Conversions go through Foundation's `TimeZone`,
/// so DST changes apply; instants are true times (the server's clock).
enum LocalTime {
    /// UTC, the zone of ``PushVariants/quietHoursUTC``'s bug.
    static let utc = TimeZone(secondsFromGMT: 0)!

    static func date(_ instant: Instant) -> Date {
        Date(timeIntervalSince1970: Double(instant.unixMicroseconds) / 1_000_000)
    }

    static func instant(_ date: Date) -> Instant {
        Instant(unixMicroseconds: Int64((date.timeIntervalSince1970 * 1_000_000).rounded()))
    }

    /// Seconds since 1970-01-01T00:00 on the local wall clock.
    static func localSeconds(_ instant: Instant, _ timeZone: TimeZone) -> Int64 {
        let utc = floorDiv(instant.unixMicroseconds, 1_000_000)
        return utc + Int64(timeZone.secondsFromGMT(for: date(instant)))
    }

    /// The zone's offset from UTC at `instant`, in seconds (DST included).
    static func offset(_ instant: Instant, _ timeZone: TimeZone) -> Int64 {
        Int64(timeZone.secondsFromGMT(for: date(instant)))
    }

    /// `instant` without its fraction of a second (towards the past).
    static func wholeSecond(_ instant: Instant) -> Instant {
        Instant(unixSeconds: floorDiv(instant.unixMicroseconds, 1_000_000))
    }

    /// Seconds since local midnight, 0 ..< 86 400.
    static func secondOfDay(_ instant: Instant, _ timeZone: TimeZone) -> Int64 {
        localSeconds(instant, timeZone) - floorDiv(localSeconds(instant, timeZone), 86_400) * 86_400
    }

    /// The local calendar day's number (days since 1970-01-01 on the local calendar).
    static func day(_ instant: Instant, _ timeZone: TimeZone) -> Int32 {
        Int32(floorDiv(localSeconds(instant, timeZone), 86_400))
    }

    /// The local week's number; weeks start on Monday (1970-01-01 was a Thursday).
    /// **Assumption**: seed `001`'s "per week" is a local calendar week, Monday to Sunday.
    static func week(_ instant: Instant, _ timeZone: TimeZone) -> Int32 {
        Int32(floorDiv(Int64(day(instant, timeZone)) + 3, 7))
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}
