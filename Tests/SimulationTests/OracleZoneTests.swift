import Foundation
import Testing
@testable import Simulation

/// The oracle's own wall clock (Oracle/OracleZone) agrees with Foundation's zone data at
/// every hour of 2026 and one second either side of every change, whatever the order of
/// the lookups (its cache keeps the windows it met), in zones with 30-minute changes
/// (Lord Howe), changes at midnight (Santiago, Beirut), odd offsets and no DST.
@Suite struct OracleZoneTests {
    static let zones = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Santiago", "Asia/Beirut",
                        "Pacific/Chatham", "Asia/Kathmandu", "America/St_Johns", "Pacific/Kiritimati", "Pacific/Pago_Pago",
                        "Australia/Adelaide", "Pacific/Auckland", "Asia/Kolkata", "UTC"]
    static let year2026: Int64 = 1_767_225_600  // 2026-01-01T00:00:00Z

    static func instants(_ zone: TimeZone) -> [Int64] {
        var out: [Int64] = []
        var t = year2026
        while t < year2026 + 366 * 86_400 {
            out.append(t)
            t += 3_600
        }
        var date = Date(timeIntervalSince1970: Double(year2026))
        while let next = zone.nextDaylightSavingTimeTransition(after: date), next.timeIntervalSince1970 < Double(year2026 + 366 * 86_400) {
            let change = Int64(next.timeIntervalSince1970.rounded(.down))
            out += [change - 1, change, change + 1]
            date = next
        }
        return out
    }

    @Test(arguments: zones) func offsetsAgreeWithFoundationInAnyOrder(_ name: String) {
        let tz = TimeZone(identifier: name)!
        let instants = Self.instants(tz)
        // Forward, backward, and strided (a deterministic shuffle).
        let orders = [instants, instants.reversed(), instants.indices.map { instants[($0 * 7_919) % instants.count] }]
        for order in orders {
            var zone = OracleZone(identifier: name)
            for t in order {
                let expected = Int64(tz.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t))))
                #expect(zone.offset(t) == expected, "\(name) at \(t)")
            }
        }
    }

    @Test(arguments: zones) func dayStartIsFoundationsStartOfDay(_ name: String) {
        let tz = TimeZone(identifier: name)!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = tz
        var zone = OracleZone(identifier: name)
        let first = zone.wall(Self.year2026).day + 1
        for day in first ..< first + 365 {
            // Local noon of `day` (no zone changes at noon).
            var noon = day * 86_400 + 43_200
            noon -= zone.offset(noon)
            #expect(zone.wall(noon) == (day, 43_200))
            let expected = Int64(calendar.startOfDay(for: Date(timeIntervalSince1970: Double(noon))).timeIntervalSince1970)
            #expect(zone.dayStart(day) == expected, "\(name), day \(day)")
        }
    }

    /// Hand-checked changes: Lord Howe's half hour, Santiago's skipped and repeated midnights.
    @Test func changesAtMidnightAndHalfHours() {
        var lordHowe = OracleZone(identifier: "Australia/Lord_Howe")
        // 2026-10-04 02:00 (+10:30) becomes 02:30 (+11:00): 2026-10-03T15:30:00Z.
        #expect(lordHowe.wall(1_791_041_400 - 1).second == 2 * 3_600 - 1)
        #expect(lordHowe.wall(1_791_041_400).second == 2 * 3_600 + 1_800)
        var santiago = OracleZone(identifier: "America/Santiago")
        // 2026-09-06 00:00 (-4) becomes 01:00 (-3) at 04:00Z: the day begins at 01:00, at the change.
        let sep6 = Int64(20_702)  // days since 1970-01-01 of 2026-09-06
        #expect(santiago.dayStart(sep6) == sep6 * 86_400 + 4 * 3_600)
        #expect(santiago.wall(sep6 * 86_400 + 4 * 3_600) == (sep6, 3_600))
        // 2026-04-05 00:00 (-3) becomes 2026-04-04 23:00 (-4) at 03:00Z: 23:00-24:00 repeats, and
        // 2026-04-05 begins at 04:00Z.
        let apr5 = Int64(20_548)
        #expect(santiago.wall(apr5 * 86_400 + 3 * 3_600 - 1) == (apr5 - 1, 86_399))
        #expect(santiago.wall(apr5 * 86_400 + 3 * 3_600) == (apr5 - 1, 23 * 3_600))
        #expect(santiago.dayStart(apr5) == apr5 * 86_400 + 4 * 3_600)
    }
}
