import Foundation

/// Local dates and clock times of one IANA time zone: the app's "which local day is
/// it" (steps by day) and the simulator's models that follow the user's day (charging
/// at night). DST-aware through Foundation's zone data; instants are Unix seconds.
/// An app keeps one per zone and makes a new one when the user's zone changes.
///
/// The zone's UTC offsets from 1970 to 2100 are read from Foundation once, at
/// creation (one `secondsFromGMT` and one `nextDaylightSavingTimeTransition` per
/// transition, a few hundred per zone), so a lookup on the hot path is a binary search
/// of that table, not an ICU call. Instants outside it ask Foundation.
///
/// A class, as it never changes: a struct's every copy (the simulator reads a device's
/// calendar from its table per step-sync read) retained its name, zone and table.
public final class LocalCalendar: Sendable, Hashable {
    /// The IANA name it was made from (`TimeZone.current.identifier` in an app).
    public let identifier: String
    let zone: TimeZone
    /// `(from, offset)`: `offset` (seconds east of UTC) holds from Unix second `from`
    /// until the next entry's `from`; the last entry holds until `tableEnd`.
    let transitions: [(from: Int64, offset: Int32)]
    /// 2100-01-01T00:00:00Z: the table covers `[0, tableEnd)`.
    static let tableEnd: Int64 = 4_102_444_800

    public init(identifier: String) {
        let zone = TimeZone(identifier: identifier) ?? TimeZone(secondsFromGMT: 0)!
        self.identifier = identifier
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
        return Int64(transitions[entry(atOrBefore: unixSeconds)].offset)
    }

    /// Seconds east of UTC at `unixSeconds` without daylight saving time: the zone's
    /// standard offset (``StepSyncVariants/localDayIgnoresDST`` reads it).
    public func standardOffset(atUnix unixSeconds: Int64) -> Int64 {
        offset(atUnix: unixSeconds) - Int64(zone.daylightSavingTimeOffset(for: Date(timeIntervalSince1970: Double(unixSeconds))))
    }

    /// The last table entry whose `from` is at or before `unixSeconds` (in the table's
    /// span; entry 0 is at 0).
    private func entry(atOrBefore unixSeconds: Int64) -> Int {
        transitions.withUnsafeBufferPointer { t in
            var low = 0, high = t.count - 1
            while low < high {
                let mid = (low &+ high &+ 1) >> 1
                if t[mid].from <= unixSeconds { low = mid } else { high = mid &- 1 }
            }
            return low
        }
    }

    /// The local date (days since 1970-01-01) and the local clock reading (seconds since
    /// local midnight) at `unixSeconds`.
    public func local(atUnix unixSeconds: Int64) -> (day: Int32, secondOfDay: Int) {
        let local = unixSeconds + offset(atUnix: unixSeconds)
        let day = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        return (Int32(day), Int(local - day * 86_400))
    }

    /// The Unix second at which local date `day` begins: its local midnight (on a DST
    /// night the offset in force at midnight, not the one at noon, decides), the first
    /// one where a change back repeats it, and the change itself where a change forward
    /// skips it (Santiago, Havana: 00:00 becomes 01:00), as `Calendar.startOfDay` answers.
    public func dayStart(_ day: Int32) -> Int64 {
        let midnight = Int64(day) * 86_400
        // Most days: one offset holds over the two days around `midnight`, so local
        // midnight is `midnight` less it (one search of the table, not four).
        if midnight - 86_400 >= 0, midnight + 86_400 < Self.tableEnd {
            let i = entry(atOrBefore: midnight - 86_400)
            if i + 1 == transitions.count || transitions[i + 1].from > midnight + 86_400 {
                return midnight - Int64(transitions[i].offset)
            }
        }
        // Local midnight lies within 14 h of `midnight` read as UTC; a zone changes its
        // offset at most once in the two days around it.
        let before = offset(atUnix: midnight - 86_400), after = offset(atUnix: midnight + 86_400)
        let early = midnight - max(before, after), late = midnight - min(before, after)
        if early + offset(atUnix: early) == midnight { return early }
        if late + offset(atUnix: late) == midnight { return late }
        // Midnight is skipped: the day begins at the change, after `early` and at or before `late`.
        guard late >= 0, late < Self.tableEnd else {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            return Int64(calendar.startOfDay(for: Date(timeIntervalSince1970: Double(late))).timeIntervalSince1970.rounded(.down))
        }
        return transitions[entry(atOrBefore: late)].from
    }

    /// The Unix second at which the local day holding `unixSeconds` begins: what
    /// `Calendar.startOfDay(for:)` answers for this zone, without asking ICU (about
    /// 3 µs a call even with a kept `Calendar`). A day whose midnight a DST change
    /// skips begins at the change.
    public func startOfDay(containing unixSeconds: Int64) -> Int64 {
        dayStart(local(atUnix: unixSeconds).day)
    }

    /// One calendar per zone name: the zone's table decides equality.
    public static func == (a: LocalCalendar, b: LocalCalendar) -> Bool { a.identifier == b.identifier }
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }
}
