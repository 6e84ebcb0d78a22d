import Foundation

/// An IANA time zone (Foundation's `TimeZone`, DST included) with its current UTC
/// offset cached until the zone's next daylight-saving transition, so a world asks
/// Foundation once per zone per transition, not once per event.
///
/// True time stays UTC in the kernel; this is the conversion at the edge.
public struct LocalTimeZone: Sendable {
    public let identifier: String
    let zone: TimeZone
    /// The cached offset holds for unix seconds in `[validFrom, validUntil)`.
    var offsetSeconds: Int32 = 0
    var validFrom = Int64.max
    var validUntil = Int64.min

    /// Nil for a name Foundation does not know.
    public init?(identifier: String) {
        guard let zone = TimeZone(identifier: identifier) else { return nil }
        self.identifier = identifier
        self.zone = zone
    }

    /// Seconds east of UTC at the given instant.
    public mutating func utcOffsetSeconds(atUnixMicroseconds us: Int64) -> Int32 {
        let s = us >= 0 ? us / 1_000_000 : -((-us + 999_999) / 1_000_000)
        if s >= validFrom, s < validUntil { return offsetSeconds }
        let date = Date(timeIntervalSince1970: Double(s))
        offsetSeconds = Int32(zone.secondsFromGMT(for: date))
        validFrom = s
        if let next = zone.nextDaylightSavingTimeTransition(after: date) {
            validUntil = Int64(next.timeIntervalSince1970.rounded(.down))
        } else {
            validUntil = Int64.max
        }
        return offsetSeconds
    }

    /// The local wall time at the given instant.
    public mutating func localTime(atUnixMicroseconds us: Int64) -> LocalTime {
        let offset = Int64(utcOffsetSeconds(atUnixMicroseconds: us))
        return LocalTime(localUnixMicroseconds: us + offset * 1_000_000)
    }
}

/// A local wall-clock reading: microseconds since 1970-01-01 00:00 local time.
public struct LocalTime: Sendable, Equatable {
    public var localUnixMicroseconds: Int64
    public init(localUnixMicroseconds: Int64) { self.localUnixMicroseconds = localUnixMicroseconds }

    static let day: Int64 = 86_400_000_000
    /// Local calendar days since 1970-01-01.
    public var day: Int64 {
        localUnixMicroseconds >= 0 ? localUnixMicroseconds / Self.day : -((-localUnixMicroseconds + Self.day - 1) / Self.day)
    }
    /// Microseconds since local midnight.
    public var microsecondsIntoDay: Int64 { localUnixMicroseconds - day * Self.day }
    /// Hour of the day, 0-23.
    public var hour: Int { Int(microsecondsIntoDay / 3_600_000_000) }
}
