import Foundation
import SimKernel

/// The oracle's own reading of a zone's wall clock (docs/architecture.md: a judge computes with code
/// of its own): Foundation's tz data through arithmetic written here, never the logic's
/// `LocalTime`/`LocalCalendar` nor the world's calendars, so a bug in those cannot hide
/// from the judge that uses them.
///
/// Each UTC offset is cached from the lookup that read it until the zone's next change.
/// The cache keeps every offset window of the run's span (the windows a lookup met, in
/// time order: a handful per zone), not only the last one: the judges look at many users
/// of a zone at once, back in time (a notification's creation, 30 days of backfill) and
/// on clocks moved days away, and one window would be refilled from Foundation at almost
/// every lookup.
struct OracleZone {
    let zone: TimeZone
    /// `(from, until, offset)`: `offset` (seconds east of UTC) holds in `[from, until)`,
    /// sorted by `from`, not overlapping.
    private var windows: [(from: Int64, until: Int64, offset: Int64)] = []

    init(identifier: String) {
        zone = TimeZone(identifier: identifier) ?? TimeZone(secondsFromGMT: 0)!
    }

    /// Seconds east of UTC at Unix second `unix`.
    mutating func offset(_ unix: Int64) -> Int64 {
        var low = 0, high = windows.count
        while low < high {
            let mid = (low + high) / 2
            if windows[mid].until <= unix { low = mid + 1 } else { high = mid }
        }
        if low < windows.count, windows[low].from <= unix { return windows[low].offset }
        let date = Date(timeIntervalSince1970: Double(unix))
        let offset = Int64(zone.secondsFromGMT(for: date))
        var until = zone.nextDaylightSavingTimeTransition(after: date).map { Int64($0.timeIntervalSince1970.rounded(.down)) } ?? .max
        // A known window after this one starts at or before the change: stop there.
        if low < windows.count { until = min(until, windows[low].from) }
        windows.insert((unix, until, offset), at: low)
        return offset
    }

    /// The local day (days since 1970-01-01) and the second of that day at Unix second `unix`.
    mutating func wall(_ unix: Int64) -> (day: Int64, second: Int64) {
        let local = unix + offset(unix)
        let day = Self.floorDiv(local, 86_400)
        return (day, local - day * 86_400)
    }

    /// The Unix second at which local day `day` begins: the first instant whose wall clock
    /// reads that day (its midnight, the earlier one when a change back repeats it, the
    /// change itself when a change forward skips it: Santiago, Beirut).
    mutating func dayStart(_ day: Int64) -> Int64 {
        let midnight = day * 86_400
        // Offsets lie within ±14 h, and a zone changes at most once in the two days around
        // midnight: midnight is `midnight − o` for one of the offsets in force then.
        var first = Int64.max
        for o in [offset(midnight - 86_400), offset(midnight + 86_400)] {
            let u = midnight - o
            if u + offset(u) == midnight { first = min(first, u) }
        }
        if first != .max { return first }
        // Midnight skipped (a change forward): the day begins at the change, the first second
        // whose wall clock reads `day`; without a change back nearby the day only grows.
        var low = midnight - 14 * 3_600, high = midnight + 14 * 3_600
        while low < high {
            let mid = Self.floorDiv(low + high, 2)
            if wall(mid).day >= day { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// Unix second of true time `t` (a run starting at `startUnixSeconds`), rounded towards the past.
    static func unixSeconds(_ t: SimTime, startUnixSeconds: Int64) -> Int64 {
        startUnixSeconds + floorDiv(t.microseconds, 1_000_000)
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}
