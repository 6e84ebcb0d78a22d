import Testing
import SimKernel
import Platform

/// Each user's own day (wake-up and bedtime): spread over the morning, never one
/// instant for a whole zone, and the steps and the charger follow it to the second.
@Suite struct DailyRhythmTests {
    let rhythm = DailyRhythm(seed: 42)
    let day: Int32 = 20_514   // 2026-03-02

    /// 20,000 users' wake-ups and bedtimes on one day: wake-ups with mean about 06:55 and
    /// a spread of about 52 min, all within 04:30-09:00; bedtimes at most midnight; and no
    /// second holds more than a handful of either (a bound clamped to its second would
    /// hold hundreds: the 2-4 % of users past it).
    @Test func wakeUpsAndBedtimesSpreadOverTheirHours() {
        let users = 20_000
        var wakeUps: [Int: Int] = [:], bedtimes: [Int: Int] = [:]
        var sum = 0.0, squares = 0.0
        for u in 0..<users {
            let d = rhythm.day(rhythm.user(u), day: day)
            #expect(d.wakeUp >= 4 * 3600 + 1800 && d.wakeUp <= 9 * 3600)
            #expect(d.bedtime <= 86_400)
            wakeUps[d.wakeUp, default: 0] += 1
            bedtimes[d.bedtime, default: 0] += 1
            sum += Double(d.wakeUp)
            squares += Double(d.wakeUp) * Double(d.wakeUp)
        }
        let mean = sum / Double(users)
        let sd = (squares / Double(users) - mean * mean).squareRoot()
        // A normal (07:00, 1 h) truncated to [-2 sd, +1.5 sd]: mean 7 h - 0.0830 h (06:55:01),
        // variance 0.6611 h²; plus a uniform ±30 min (0.0833 h²): sd 0.8628 h.
        #expect(abs(mean - (7 * 3600 - 299)) < 120)
        #expect(sd > 0.96 * 0.8628 * 3600 && sd < 1.04 * 0.8628 * 3600)
        // At the peak about 2.4 wake-ups a second (20,000 × the density); the most in any
        // of some 16,000 seconds is then about 9, not a zone's thousands.
        #expect((wakeUps.values.max() ?? 0) <= 15)
        #expect((bedtimes.values.max() ?? 0) <= 15)
    }

    /// A user's days move around their usual wake-up by at most 30 min, and differ.
    @Test func aUsersDaysVaryAroundTheirUsualWakeUp() {
        for u in 0..<500 {
            let usual = rhythm.usualWakeUp(user: u)
            let days = (0..<14).map { rhythm.day(rhythm.user(u), day: day + Int32($0)) }
            for d in days {
                #expect(abs(d.wakeUp - usual) <= DailyRhythm.dailyShift)
                #expect(d.bedtime == d.wakeUp + DailyRhythm.awake)
            }
            #expect(Set(days.map(\.wakeUp)).count > 1)
        }
    }

    /// Steps accrue from the wake-up second to bedtime: none a second before, all of the
    /// day's total at bedtime, and the night in between waits for tomorrow's wake-up.
    @Test func stepsFollowTheUsersDayToTheSecond() {
        let health = HealthDataGenerator(seed: 42, rhythm: rhythm)
        let user = rhythm.user(77)
        let today = rhythm.day(user, day: day), tomorrow = rhythm.day(user, day: day + 1)
        let total = health.dailyTotal(user: user.id, day: day)
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
        let mine = (0..<100).map { rhythm.day(rhythm.user($0), day: day) }
        #expect(mine == (0..<100).map { again.day(again.user($0), day: day) })
        #expect(mine != (0..<100).map { other.day(other.user($0), day: day) })
    }
}
