import Testing
import SimKernel
@testable import Platform

/// Screen sessions and app opens on a diurnal curve in the user's local time.
@Suite struct UserBehaviorTests {
    /// 2026-03-02T00:00:00Z, the scenario default start.
    let start: Int64 = 1_772_409_600

    /// Hour shares of `draws` arrivals, by the user's local hour in `zone`.
    func shares(_ model: UserBehaviorModel, zone identifier: String, draws: Int, seed: UInt64) -> [Double] {
        var zone = LocalTimeZone(identifier: identifier)!
        var rng = RandomStream(seed: seed, entity: 0, purpose: "user.open")
        var counts = Array(repeating: 0, count: 24)
        var t = SimTime.zero
        for _ in 0..<draws {
            t = model.nextAppOpen(after: t, rng: &rng, zone: &zone, startUnixSeconds: start)!
            counts[zone.localTime(atUnixMicroseconds: start * 1_000_000 + t.microseconds).hour] += 1
        }
        return counts.map { Double($0) / Double(draws) }
    }

    @Test func opensFollowThePhoneUseCurvesHourlySharesOverManyDraws() {
        let model = UserBehaviorModel(curve: .phoneUse, appOpensPerDay: 2.5)
        // The assumption's weights over their sum, 22.08.
        let expected = [0.01585, 0.00679, 0.00362, 0.00226, 0.00226, 0.00453, 0.01812, 0.04076,
                        0.05435, 0.05435, 0.04982, 0.04982, 0.05888, 0.05435, 0.04982, 0.04982,
                        0.05435, 0.05888, 0.06341, 0.07246, 0.07699, 0.07246, 0.05435, 0.03170]
        for seed: UInt64 in [1, 2] {
            let measured = shares(model, zone: "UTC", draws: 100_000, seed: seed)
            for h in 0..<24 { #expect(abs(measured[h] - expected[h]) < 0.004, "seed \(seed) hour \(h): \(measured[h])") }
        }
    }

    @Test func twoHoursWeightedThreeToOneGetThreeQuartersAndAQuarter() {
        var weights = Array(repeating: 0.0, count: 24)
        weights[8] = 3
        weights[20] = 1
        let model = UserBehaviorModel(curve: DiurnalCurve(weights: weights)!, appOpensPerDay: 2.5)
        let measured = shares(model, zone: "Europe/Berlin", draws: 20_000, seed: 9)
        #expect(abs(measured[8] - 0.75) < 0.01)
        #expect(abs(measured[20] - 0.25) < 0.01)
        #expect(measured[8] + measured[20] == 1)
    }

    @Test func theCurveFollowsLocalTimeAcrossTheDSTChange() {
        // Opens only at 08:xx New York time; DST starts 2026-03-08 (UTC-5 → UTC-4).
        var weights = Array(repeating: 0.0, count: 24)
        weights[8] = 1
        let model = UserBehaviorModel(curve: DiurnalCurve(weights: weights)!, appOpensPerDay: 3)
        var zone = LocalTimeZone(identifier: "America/New_York")!
        var rng = RandomStream(seed: 4, entity: 0, purpose: "user.open")
        let dstStarts = SimTime.zero + .days(6) + .hours(7)  // 2026-03-08T07:00Z
        var t = SimTime.zero
        var before = 0, after = 0
        while t < .zero + .days(14) {
            t = model.nextAppOpen(after: t, rng: &rng, zone: &zone, startUnixSeconds: start)!
            let utcHour = (t.microseconds / 3_600_000_000) % 24
            if t < dstStarts { #expect(utcHour == 13); before += 1 } else { #expect(utcHour == 12); after += 1 }
        }
        #expect(before > 5)
        #expect(after > 5)
    }

    @Test func aZeroRateHasNoArrivalsAndABadCurveIsRejected() {
        var zone = LocalTimeZone(identifier: "UTC")!
        var rng = RandomStream(seed: 1, entity: 0, purpose: "user.open")
        let model = UserBehaviorModel(appOpensPerDay: 0)
        #expect(model.nextAppOpen(after: .zero, rng: &rng, zone: &zone, startUnixSeconds: start) == nil)
        #expect(DiurnalCurve(weights: Array(repeating: 0, count: 24)) == nil)
        #expect(DiurnalCurve(weights: Array(repeating: 1, count: 23)) == nil)
        #expect(DiurnalCurve(weights: [-1] + Array(repeating: 1, count: 23)) == nil)
    }

    /// Nil means only "rate zero": a high rate that starts in hours of weight 0 still
    /// finds its arrival. 100,000 opens a day, all at 08:xx UTC, asked at 00:00: the
    /// candidates of 00:00-08:00 are skipped and the arrival falls in 08:00-09:00.
    @Test func aHighRateStartingInZeroWeightHoursStillArrives() {
        var weights = Array(repeating: 0.0, count: 24)
        weights[8] = 1
        let model = UserBehaviorModel(curve: DiurnalCurve(weights: weights)!, appOpensPerDay: 100_000)
        var zone = LocalTimeZone(identifier: "UTC")!
        var rng = RandomStream(seed: 1, entity: 0, purpose: "user.open")
        let at = model.nextAppOpen(after: .zero, rng: &rng, zone: &zone, startUnixSeconds: start)
        #expect(at != nil)
        if let at {
            #expect(at >= .zero + .hours(8))
            #expect(at < .zero + .hours(9))
        }
    }

    /// A rate near zero (1e-12 a day: a mean gap of ~2.7 billion years) has no arrival
    /// within the clock's range, instead of overflowing the local-time conversion.
    @Test func aRateNearZeroHasNoArrivalInsteadOfOverflowing() {
        var zone = LocalTimeZone(identifier: "Europe/Berlin")!
        var rng = RandomStream(seed: 1, entity: 0, purpose: "user.open")
        let model = UserBehaviorModel(appOpensPerDay: 1e-12)
        #expect(model.nextAppOpen(after: .zero, rng: &rng, zone: &zone, startUnixSeconds: start) == nil)
    }

    @Test func screenSessionsAverageTheirDailyRate() {
        let model = UserBehaviorModel(screenSessionsPerDay: 40)
        var zone = LocalTimeZone(identifier: "Asia/Tokyo")!
        var rng = RandomStream(seed: 2, entity: 0, purpose: "user.screen")
        var t = SimTime.zero
        var n = 0
        while true {
            t = model.nextScreenSession(after: t, rng: &rng, zone: &zone, startUnixSeconds: start)!
            if t >= .zero + .days(100) { break }
            n += 1
        }
        #expect(abs(Double(n) / 100 - 40) < 1.5)
    }
}

@Suite struct ScreenStateTests {
    let t0 = SimTime.zero + .hours(3)

    @Test func overlappingSessionsMergeAndAStaleOffEventDoesNothing() {
        var screen = ScreenState()
        guard case .turnedOn(let off1, let g1) = screen.sessionStarts(now: t0, length: .minutes(2)) else { Issue.record("on"); return }
        #expect(off1 == t0 + .minutes(2))
        let shorter = screen.sessionStarts(now: t0 + .minutes(1), length: .seconds(30))
        #expect(shorter == .unchanged)
        guard case .extended(let off2, let g2) = screen.sessionStarts(now: t0 + .minutes(1), length: .minutes(3)) else { Issue.record("ext"); return }
        #expect(off2 == t0 + .minutes(4))
        let staleTurnedOff = screen.offTimerFires(generation: g1)
        #expect(!staleTurnedOff)
        #expect(screen.isOn)
        let turnedOff = screen.offTimerFires(generation: g2)
        #expect(turnedOff)
        #expect(!screen.isOn)
    }
}

@Suite struct DeviceClockTests {
    @Test func berlinSwitchesToSummerTimeAt0100UTCOnTheLastSundayOfMarch() {
        var berlin = LocalTimeZone(identifier: "Europe/Berlin")!
        let switchAt: Int64 = 1_774_746_000 * 1_000_000  // 2026-03-29T01:00:00Z
        let winter = berlin.utcOffsetSeconds(atUnixMicroseconds: switchAt - 1)
        let summer = berlin.utcOffsetSeconds(atUnixMicroseconds: switchAt)
        // Asking about the past again after the cache moved on.
        let winterAgain = berlin.utcOffsetSeconds(atUnixMicroseconds: switchAt - 1)
        let lastWinterHour = berlin.localTime(atUnixMicroseconds: switchAt - 1).hour
        let firstSummerHour = berlin.localTime(atUnixMicroseconds: switchAt).hour
        #expect([winter, summer, winterAgain] == [3_600, 7_200, 3_600])
        #expect(lastWinterHour == 1)
        #expect(firstSummerHour == 3)
    }

    @Test func localTimeBeforeTheEpochRoundsDownToTheRightDay() {
        let t = LocalTime(localUnixMicroseconds: -1)
        #expect(t.day == -1)
        #expect(t.hour == 23)
    }

    @Test func travelMovesTheUserAndTheDeviceZoneOnlyWhenSetAutomatically() {
        var zones = [LocalTimeZone(identifier: "UTC")!, LocalTimeZone(identifier: "Asia/Tokyo")!]
        let start: Int64 = 1_772_409_600  // 2026-03-02T00:00:00Z
        var clock = DeviceClock(timeZone: 0)
        clock.skew = .minutes(-30)
        clock.travel(to: 1)
        #expect(clock.timeZone == 1)
        #expect(clock.userLocalTime(at: .zero, startUnixSeconds: start, zones: &zones).hour == 9)
        // The app sees its skewed clock: 08:30 in Tokyo.
        #expect(clock.deviceLocalTime(at: .zero, startUnixSeconds: start, zones: &zones).hour == 8)
        var manual = DeviceClock(timeZone: 0)
        manual.automaticTimeZone = false
        manual.travel(to: 1)
        #expect(manual.timeZone == 0)
        #expect(manual.userLocalTime(at: .zero, startUnixSeconds: start, zones: &zones).hour == 9)
        #expect(manual.deviceLocalTime(at: .zero, startUnixSeconds: start, zones: &zones).hour == 0)
    }
}
