import Foundation

/// Civil time for what people read: a report's UTC start (`simulated.start`) as Unix
/// seconds, and an instant as the wall-clock time of an IANA zone (docs/report.md,
/// "Local time"). The zone's offset comes from the system's time-zone database, as the
/// phones' local clocks do.
public enum LocalClock {
    /// `2026-03-02T00:00:00.000Z` (or without the milliseconds) → Unix seconds; nil for
    /// another shape.
    public static func unixSeconds(utc text: String) -> Int64? {
        let u = Array(text.utf8)
        guard u.count >= 20, u[19] == UInt8(ascii: ".") || u[19] == UInt8(ascii: "Z") else { return nil }
        return UTCTimestamp.parse(String(decoding: u[0..<19], as: UTF8.self) + "Z")
    }

    /// The wall-clock time of `zone` at `unixSeconds`, `2026-03-04 02:36`; nil for a zone
    /// the database does not know.
    public static func text(unixSeconds: Int64, zone: String) -> String? {
        guard let tz = TimeZone(identifier: zone) else { return nil }
        let local = unixSeconds + Int64(tz.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(unixSeconds))))
        // `YYYY-MM-DDTHH:MM:SSZ` → `YYYY-MM-DD HH:MM`.
        let utc = UTCTimestamp.format(local)
        return utc.prefix(10) + " " + utc.dropFirst(11).prefix(5)
    }
}
