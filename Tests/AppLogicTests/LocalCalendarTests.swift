import Foundation
import Testing
@testable import AppLogic
@testable import AppLogicContract

/// The calendar's offset table (read from Foundation once) gives Foundation's offset at
/// every instant: around each DST transition to the second and hourly over a year.
@Suite struct LocalCalendarTests {
    static let zones = ["America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kolkata", "Pacific/Auckland", "UTC"]

    static func foundationOffset(_ zone: TimeZone, _ s: Int64) -> Int64 {
        Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(s))))
    }

    @Test(arguments: zones) func theTableMatchesFoundationAroundEveryTransitionOf2026(_ identifier: String) {
        let calendar = LocalCalendar(identifier: identifier)
        let zone = TimeZone(identifier: identifier)!
        // 2026-01-01 to 2027-01-01: hourly, plus one second either side of each transition.
        let from: Int64 = 1_767_225_600, until: Int64 = 1_798_761_600
        var s = from
        while s < until {
            #expect(calendar.offset(atUnix: s) == Self.foundationOffset(zone, s))
            s += 3_600
        }
        var date = Date(timeIntervalSince1970: Double(from))
        while let next = zone.nextDaylightSavingTimeTransition(after: date), next.timeIntervalSince1970 < Double(until) {
            let t = Int64(next.timeIntervalSince1970.rounded(.down))
            for probe in [t - 1, t, t + 1] {
                #expect(calendar.offset(atUnix: probe) == Self.foundationOffset(zone, probe), "\(identifier) at \(probe)")
            }
            date = next
        }
    }

    @Test func aDSTNightStartsAtLocalMidnightAndOutsideTheTableFoundationAnswers() {
        let berlin = LocalCalendar(identifier: "Europe/Berlin")
        // 2026-03-29 (the spring-forward day, day 20541): local midnight is 23:00 UTC the day before.
        #expect(berlin.dayStart(20_541) == 20_541 * 86_400 - 3_600)
        // 2026-03-30: summer time, midnight is 22:00 UTC.
        #expect(berlin.dayStart(20_542) == 20_542 * 86_400 - 7_200)
        // Past 2100 and before 1970 the table does not reach: Foundation's answer.
        let zone = TimeZone(identifier: "Europe/Berlin")!
        for s: Int64 in [LocalCalendar.tableEnd - 1, LocalCalendar.tableEnd, LocalCalendar.tableEnd + 15_768_000, -1, -15_768_000] {
            #expect(berlin.offset(atUnix: s) == Self.foundationOffset(zone, s))
        }
    }

    /// The day's start is Foundation's `Calendar.startOfDay` to the second: at every
    /// DST change of 2020-2030 (one second either side, and the local days around it),
    /// in zones whose changes fall at 00:00 (Santiago, Havana), 02:00, 02:30 (Lord Howe)
    /// or not at all, and at seeded random instants.
    @Test(arguments: zones + ["America/Santiago", "America/Havana", "Asia/Tehran", "Africa/Casablanca"])
    func theDayStartsWhereFoundationsCalendarSays(_ identifier: String) {
        let local = LocalCalendar(identifier: identifier)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: identifier)!
        func foundation(_ s: Int64) -> Int64 {
            Int64(calendar.startOfDay(for: Date(timeIntervalSince1970: Double(s))).timeIntervalSince1970.rounded(.down))
        }
        let from: Int64 = 1_577_836_800, until: Int64 = 1_893_456_000  // 2020-01-01 to 2030-01-01
        var probes: [Int64] = []
        var date = Date(timeIntervalSince1970: Double(from))
        while let next = calendar.timeZone.nextDaylightSavingTimeTransition(after: date), next.timeIntervalSince1970 < Double(until) {
            let t = Int64(next.timeIntervalSince1970.rounded(.down))
            probes += [t - 1, t, t + 1, t - 86_400, t + 3_600, t + 86_400]
            date = next
        }
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(identifier.utf8.count)
        for _ in 0..<500 {  // xorshift: reproducible instants in the decade
            x ^= x << 13; x ^= x >> 7; x ^= x << 17
            probes.append(from + Int64(x % UInt64(until - from)))
        }
        for s in probes {
            #expect(local.startOfDay(containing: s) == foundation(s), "\(identifier) at \(s)")
        }
    }
}

