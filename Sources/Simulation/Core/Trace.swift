import Foundation
import AppLogic
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
    static func utc(_ unixMicroseconds: Int64) -> String { Instant(unixMicroseconds: unixMicroseconds).iso8601 }

    /// `2026-03-05 23:12:33 EST` in `timeZone` (Foundation's IANA database).
    static func local(_ unixMicroseconds: Int64, timeZone: String) -> String {
        let zone = TimeZone(identifier: timeZone) ?? TimeZone(secondsFromGMT: 0)!
        let date = Date(timeIntervalSince1970: Double(unixMicroseconds) / 1e6)
        let offset = Int64(zone.secondsFromGMT(for: date))
        let iso = Instant(unixMicroseconds: unixMicroseconds + offset * 1_000_000).iso8601  // yyyy-MM-ddTHH:mm:ss.SSSZ
        return "\(iso.prefix(10)) \(iso.dropFirst(11).prefix(8)) \(zone.abbreviation(for: date) ?? timeZone)"
    }
}
