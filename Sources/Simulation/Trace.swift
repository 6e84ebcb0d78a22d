import Foundation
import SimKernel

/// The event-by-event story of one device, with true UTC time and the device's
/// local wall time (its clock, skew included, in its time zone).
final class Trace {
    let device: Int
    /// Each line with the true time it happened at.
    private(set) var entries: [(time: SimTime, line: String)] = []

    init(device: Int) { self.device = device }

    func append(time: SimTime, wallMicroseconds: Int64, timeZone: String, startUnixSeconds: Int64, _ text: String) {
        let utc = Trace.utc(startUnixSeconds * 1_000_000 + time.microseconds)
        let local = Trace.local(wallMicroseconds, timeZone: timeZone)
        entries.append((time, "\(utc)  \(local)  \(text)"))
    }

    /// `2026-03-06T04:12:33.250Z`
    static func utc(_ unixMicroseconds: Int64) -> String {
        let (date, time, millis) = civil(unixMicroseconds)
        return "\(date)T\(time).\(pad(millis, 3))Z"
    }

    /// `2026-03-05 23:12:33 EST` in `timeZone` (Foundation's IANA database).
    static func local(_ unixMicroseconds: Int64, timeZone: String) -> String {
        let zone = TimeZone(identifier: timeZone) ?? TimeZone(secondsFromGMT: 0)!
        let date = Date(timeIntervalSince1970: Double(unixMicroseconds) / 1e6)
        let offset = Int64(zone.secondsFromGMT(for: date))
        let (day, time, _) = civil(unixMicroseconds + offset * 1_000_000)
        return "\(day) \(time) \(zone.abbreviation(for: date) ?? timeZone)"
    }

    /// Days-from-civil inverse (H. Hinnant's algorithm): no calendar objects needed for UTC.
    static func civil(_ unixMicroseconds: Int64) -> (date: String, time: String, millis: Int64) {
        let micros = unixMicroseconds
        var seconds = micros / 1_000_000
        var rem = micros % 1_000_000
        if rem < 0 { rem += 1_000_000; seconds -= 1 }
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 { secondOfDay += 86_400; days -= 1 }
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        let date = "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))"
        let time = "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
        return (date, time, rem / 1_000)
    }

    private static func pad(_ v: Int64, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
