import Foundation

/// Civil time for what people read: a report's UTC start (`simulated.start`) as Unix
/// seconds, and an instant as the wall-clock time of an IANA zone (docs/report.md,
/// "Local time"). The zone's offset comes from the system's time-zone database, as the
/// phones' local clocks do.
public enum LocalClock {
    /// `2026-03-02T00:00:00.000Z` → Unix seconds; nil for another shape.
    public static func unixSeconds(utc text: String) -> Int64? {
        let u = Array(text.utf8)
        guard u.count >= 19, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-"), u[10] == UInt8(ascii: "T") else { return nil }
        func number(_ from: Int, _ count: Int) -> Int64? {
            var n: Int64 = 0
            for c in u[from ..< from + count] {
                guard c >= 0x30, c <= 0x39 else { return nil }
                n = n * 10 + Int64(c - 0x30)
            }
            return n
        }
        guard let y = number(0, 4), let m = number(5, 2), let d = number(8, 2), let h = number(11, 2), let mi = number(14, 2), let s = number(17, 2),
              (1...12).contains(m), (1...31).contains(d) else { return nil }
        return days(year: y, month: m, day: d) * 86_400 + h * 3_600 + mi * 60 + s
    }

    /// The wall-clock time of `zone` at `unixSeconds`, `2026-03-04 02:36`; nil for a zone
    /// the database does not know.
    public static func text(unixSeconds: Int64, zone: String) -> String? {
        guard let tz = TimeZone(identifier: zone) else { return nil }
        let local = unixSeconds + Int64(tz.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(unixSeconds))))
        let day = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let (y, m, d) = civil(day)
        let rest = local - day * 86_400
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(y)-\(two(m))-\(two(d)) \(two(rest / 3_600)):\(two(rest % 3_600 / 60))"
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's days_from_civil).
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date of a day since 1970-01-01 (Hinnant's civil_from_days).
    static func civil(_ days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
