import Foundation
import Testing
@testable import Platform

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
}
