import Foundation

/// Local dates and clock times of one IANA time zone, for models that follow the
/// user's day (charging at night, steps by day). DST-aware through Foundation's
/// zone data; instants are Unix seconds.
///
/// The zone's UTC offsets from 1970 to 2100 are read from Foundation once, at
/// creation (one `secondsFromGMT` and one `nextDaylightSavingTimeTransition` per
/// transition, a few hundred per zone), so a lookup on the hot path is a binary search
/// of that table, not an ICU call. Instants outside it ask Foundation.
public struct LocalCalendar: Sendable {
    let zone: TimeZone
    /// `(from, offset)`: `offset` (seconds east of UTC) holds from Unix second `from`
    /// until the next entry's `from`; the last entry holds until `tableEnd`.
    let transitions: [(from: Int64, offset: Int32)]
    /// 2100-01-01T00:00:00Z: the table covers `[0, tableEnd)`.
    static let tableEnd: Int64 = 4_102_444_800

    public init(identifier: String) {
        let zone = TimeZone(identifier: identifier) ?? TimeZone(secondsFromGMT: 0)!
        self.zone = zone
        var table: [(from: Int64, offset: Int32)] = []
        var from: Int64 = 0
        while from < Self.tableEnd {
            let date = Date(timeIntervalSince1970: Double(from))
            table.append((from, Int32(zone.secondsFromGMT(for: date))))
            guard let next = zone.nextDaylightSavingTimeTransition(after: date) else { break }
            let nextFrom = Int64(next.timeIntervalSince1970.rounded(.down))
            guard nextFrom > from else { break }
            from = nextFrom
        }
        transitions = table
    }

    /// Seconds east of UTC at `unixSeconds`.
    public func offset(atUnix unixSeconds: Int64) -> Int64 {
        guard unixSeconds >= 0, unixSeconds < Self.tableEnd else {
            return Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(unixSeconds))))
        }
        // The last entry whose `from` is at or before `unixSeconds` (entry 0 is at 0).
        return transitions.withUnsafeBufferPointer { t in
            var low = 0, high = t.count - 1
            while low < high {
                let mid = (low &+ high &+ 1) >> 1
                if t[mid].from <= unixSeconds { low = mid } else { high = mid &- 1 }
            }
            return Int64(t[low].offset)
        }
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
