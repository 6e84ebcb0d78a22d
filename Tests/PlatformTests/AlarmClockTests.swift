import Testing
import SimKernel
@testable import Platform

/// Users' alarm clocks (`AlarmClockModel`): who has one, when it rings, and the ring
/// across a DST night, to the microsecond.
@Suite struct AlarmClockTests {
    /// 2026-03-28T12:00:00Z, the day before Europe's spring-forward (01:00 UTC on the 29th).
    let start: Int64 = 1_774_699_200

    @Test func theNextRingIsTodayBeforeTheTimeAndTomorrowAtOrAfterIt() {
        var utc = LocalTimeZone(identifier: "UTC")!
        let seven = SimDuration.hours(7)
        // Simulated 0 is 12:00 UTC: the next 07:00 is 19 h away.
        #expect(AlarmClockModel.nextRing(after: .zero, timeOfDay: seven, zone: &utc, startUnixSeconds: start)
                == SimTime.zero + .hours(19))
        // At 06:59:59.999999 it is 1 µs away; at 07:00 exactly it is the next day's.
        let justBefore = SimTime.zero + .hours(19) - .microseconds(1)
        #expect(AlarmClockModel.nextRing(after: justBefore, timeOfDay: seven, zone: &utc, startUnixSeconds: start)
                == SimTime.zero + .hours(19))
        #expect(AlarmClockModel.nextRing(after: SimTime.zero + .hours(19), timeOfDay: seven, zone: &utc, startUnixSeconds: start)
                == SimTime.zero + .hours(43))
    }

    /// Berlin springs forward at 01:00 UTC on 2026-03-29: 07:00 local that morning is
    /// 05:00 UTC (+2), 17 h after 12:00 UTC the day before, not 18 h.
    @Test func aDSTNightKeepsTheLocalTime() {
        var berlin = LocalTimeZone(identifier: "Europe/Berlin")!
        #expect(AlarmClockModel.nextRing(after: .zero, timeOfDay: .hours(7), zone: &berlin, startUnixSeconds: start)
                == SimTime.zero + .hours(17))
    }

    @Test func theShareDecidesWhoHasOneAndTheTimeStaysWithinTheDay() {
        var rng = RandomStream(seed: 7, entity: 0, purpose: "user.alarmClock")
        #expect(AlarmClockModel(share: 0).draw(rng: &rng) == nil)
        let t = AlarmClockModel(share: 1).draw(rng: &rng)
        #expect(t.map { $0 >= .hours(6) && $0 <= .hours(8) } == true)
        let wrapped = AlarmClockModel(share: 1, timeOfDay: .constant(25 * 3_600e6)).draw(rng: &rng)
        #expect(wrapped == .hours(1))
    }
}
