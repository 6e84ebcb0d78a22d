import Testing
import SimKernel
import Platform

/// Each user's own day (wake-up and bedtime): spread over the morning, never one
/// instant for a whole zone, and the steps and the charger follow it to the second.
@Suite struct DailyRhythmTests {
    let rhythm = DailyRhythm(seed: 42)
    let day: Int32 = 20_514   // 2026-03-02

    /// 20,000 users' wake-ups on one day: mean about 07:00, spread about an hour, all
    /// within 04:30-09:30, and no second holds more than a handful of them.
    @Test func wakeUpsSpreadOverTheMorning() {
        let users = 20_000
        var perSecond: [Int: Int] = [:]
        var sum = 0.0, squares = 0.0
        for u in 0..<users {
            let w = rhythm.day(user: u, day: day).wakeUp
            #expect(w >= 4 * 3600 + 1800 && w <= 9 * 3600 + 1800)
            perSecond[w, default: 0] += 1
            sum += Double(w)
            squares += Double(w) * Double(w)
        }
        let mean = sum / Double(users)
        let sd = (squares / Double(users) - mean * mean).squareRoot()
        #expect(abs(mean - 7 * 3600) < 120)
        // A normal of sd 1 h clipped at ±2 sd (variance 0.921 h²) plus a uniform ±30 min
        // (0.083 h²): sd 1.002 h.
        #expect(sd > 0.96 * 3600 && sd < 1.04 * 3600)
        // At the 07:00 peak about 2.2 wake-ups a second (20,000 × the normal's density);
        // the most in any of some 18,000 seconds is then about 9, not a zone's thousands.
        #expect((perSecond.values.max() ?? 0) <= 15)
    }

    /// A user's days move around their usual wake-up by at most 30 min, and differ.
    @Test func aUsersDaysVaryAroundTheirUsualWakeUp() {
        for u in 0..<500 {
            let usual = rhythm.usualWakeUp(user: u)
            let days = (0..<14).map { rhythm.day(user: u, day: day + Int32($0)) }
            for d in days {
                #expect(abs(d.wakeUp - usual) <= DailyRhythm.dailyShift)
                #expect(d.bedtime == min(86_400, d.wakeUp + DailyRhythm.awake))
            }
            #expect(Set(days.map(\.wakeUp)).count > 1)
        }
    }

    /// Steps accrue from the wake-up second to bedtime: none a second before, all of the
    /// day's total at bedtime, and the night in between waits for tomorrow's wake-up.
    @Test func stepsFollowTheUsersDayToTheSecond() {
        let health = HealthDataGenerator(seed: 42, rhythm: rhythm)
        let user = 77
        let today = rhythm.day(user: user, day: day), tomorrow = rhythm.day(user: user, day: day + 1)
        let total = health.dailyTotal(user: user, day: day)
        #expect(health.steps(user: user, day: day, before: day, secondOfDay: today.wakeUp) == 0)
        #expect(health.steps(user: user, day: day, before: day, secondOfDay: today.wakeUp + 3600) > 0)
        #expect(health.steps(user: user, day: day, before: day, secondOfDay: today.bedtime - 1) < total)
        #expect(health.steps(user: user, day: day, before: day, secondOfDay: today.bedtime) == total)
        #expect(health.secondsUntilSteps(user: user, day: day, secondOfDay: today.wakeUp - 1) == 1)
        #expect(health.secondsUntilSteps(user: user, day: day, secondOfDay: today.wakeUp) == 0)
        #expect(health.secondsUntilSteps(user: user, day: day, secondOfDay: today.bedtime) == 86_400 - today.bedtime + tomorrow.wakeUp)
    }

    /// The same seed gives the same days; another seed other days.
    @Test func aClosedFormOfTheSeed() {
        let again = DailyRhythm(seed: 42), other = DailyRhythm(seed: 43)
        let mine = (0..<100).map { rhythm.day(user: $0, day: day) }
        #expect(mine == (0..<100).map { again.day(user: $0, day: day) })
        #expect(mine != (0..<100).map { other.day(user: $0, day: day) })
    }
}
