import Testing
import Scenario
import AppLogicContract
@testable import Simulation

/// Worlds built in one process share each zone's calendar (Core/ZoneCalendars): the
/// table of a zone's offsets is read from Foundation once, not once a world, and a
/// shared calendar gives a world the same days as its own would.
@Suite struct ZoneCalendarsTests {
    @Test func worldsOfOneProcessShareTheirZonesCalendars() throws {
        var s = try Fixtures.scenario("scenarios/default.json")
        s = s.scaled(by: 0.002)
        let first = World(scenario: s), second = World(scenario: s.scaled(by: 0))
        #expect(!first.core.calendars.isEmpty)
        #expect(first.core.timeZones == second.core.timeZones)
        for (a, b) in zip(first.core.calendars, second.core.calendars) { #expect(a === b, "\(a.identifier)") }
        for (name, calendar) in zip(first.core.timeZones, first.core.calendars) {
            let own = LocalCalendar(identifier: name)
            for day: Int32 in [20_500, 20_541, 20_542, 20_760] { #expect(calendar.dayStart(day) == own.dayStart(day), "\(name) day \(day)") }
        }
    }
}
