import Testing
import SimKernel
@testable import Platform

/// `docs/platform-facts.md` B: demotion needs both the elapsed and the screen-on threshold.
@Suite struct StandbyBucketModelTests {
    let model = StandbyBucketModel()
    let t0 = SimTime.zero

    /// Opened at 0, screen on 1 h–7 h (6 h, enough for every screen threshold): the
    /// elapsed thresholds alone decide, at 12 h, 24 h, 48 h and 8 d exactly.
    @Test func demotionAtTheElapsedThresholdsWhenScreenTimeSuffices() {
        var s = StandbyBucketState(lastUsedAt: t0)
        model.appUsed(state: &s, now: t0)
        model.screen(on: true, state: &s, now: t0 + .hours(1))
        model.screen(on: false, state: &s, now: t0 + .hours(7))
        #expect(model.bucket(s, at: t0 + .hours(12) - .seconds(1)) == .active)
        #expect(model.nextChange(s, after: t0 + .hours(7)) == t0 + .hours(12))
        #expect(model.bucket(s, at: t0 + .hours(12)) == .workingSet)
        #expect(model.nextChange(s, after: t0 + .hours(12)) == t0 + .hours(24))
        #expect(model.bucket(s, at: t0 + .hours(24) - .seconds(1)) == .workingSet)
        #expect(model.bucket(s, at: t0 + .hours(24)) == .frequent)
        #expect(model.bucket(s, at: t0 + .hours(48) - .seconds(1)) == .frequent)
        #expect(model.bucket(s, at: t0 + .hours(48)) == .rare)
        #expect(model.nextChange(s, after: t0 + .hours(48)) == t0 + .days(8))
        #expect(model.bucket(s, at: t0 + .days(8) - .seconds(1)) == .rare)
        #expect(model.bucket(s, at: t0 + .days(8)) == .restricted)
        #expect(model.nextChange(s, after: t0 + .days(8)) == nil)
    }

    /// Screen off for 30 days: the app stops at WORKING_SET. Then the screen-on time
    /// decides, applied at AppStandbyController's 3 h checks (`checkIdleStates`, checks at
    /// 720 h, 723 h, 726 h…): FREQUENT (1 h of screen, 721 h) and RARE (2 h, 722 h) both
    /// at the 723 h check, RESTRICTED (6 h) at 726 h, itself a check.
    @Test func demotionWaitsForScreenOnTimeAndThePeriodicCheck() {
        var s = StandbyBucketState(lastUsedAt: t0)
        model.appUsed(state: &s, now: t0)
        #expect(model.bucket(s, at: t0 + .days(30)) == .workingSet)
        #expect(model.nextChange(s, after: t0 + .hours(12)) == nil)
        let on = t0 + .days(30)
        model.screen(on: true, state: &s, now: on)
        #expect(model.nextChange(s, after: on) == on + .hours(3))
        #expect(model.bucket(s, at: on + .hours(1)) == .workingSet)
        #expect(model.bucket(s, at: on + .hours(3) - .microseconds(1)) == .workingSet)
        #expect(model.bucket(s, at: on + .hours(3)) == .rare)
        #expect(model.nextChange(s, after: on + .hours(3)) == on + .hours(6))
        #expect(model.bucket(s, at: on + .hours(6) - .seconds(1)) == .rare)
        #expect(model.bucket(s, at: on + .hours(6)) == .restricted)
    }

    /// The screen-on total at a check is the one it had then: 1 h of screen from 720 h
    /// to 721 h is FREQUENT at the 723 h check; 2 h more from 724 h on do not count for
    /// the 723 h check, only for the 726 h one (RARE; RESTRICTED needs 6 h).
    @Test func aCheckUsesTheScreenTimeAtItsInstant() {
        var s = StandbyBucketState(lastUsedAt: t0)
        model.appUsed(state: &s, now: t0)
        let on = t0 + .days(30)
        model.screen(on: true, state: &s, now: on)
        model.screen(on: false, state: &s, now: on + .hours(1))
        model.screen(on: true, state: &s, now: on + .hours(4))
        model.screen(on: false, state: &s, now: on + .hours(6) - .seconds(1))
        #expect(model.bucket(s, at: on + .hours(5)) == .frequent)
        #expect(model.bucket(s, at: on + .hours(6)) == .rare)
    }

    /// The grid's phase is the device's (its boot): with checks at 1 h + k × 3 h the
    /// 12 h WORKING_SET threshold applies at 13 h; without periodic checks, at 12 h.
    @Test func theCheckGridFollowsThePhaseAndCanBeTurnedOff() {
        var s = StandbyBucketState(lastUsedAt: t0, checkPhase: .hours(1))
        model.appUsed(state: &s, now: t0)
        #expect(model.nextChange(s, after: t0 + .hours(2)) == t0 + .hours(13))
        #expect(model.bucket(s, at: t0 + .hours(13) - .microseconds(1)) == .active)
        #expect(model.bucket(s, at: t0 + .hours(13)) == .workingSet)
        var config = StandbyBucketConfig()
        config.checkIdleInterval = nil
        let immediate = StandbyBucketModel(config: config)
        #expect(immediate.nextChange(s, after: t0 + .hours(2)) == t0 + .hours(12))
        #expect(immediate.bucket(s, at: t0 + .hours(12)) == .workingSet)
    }

    /// An open lifts even an app last used long ago (RESTRICTED) to ACTIVE, and as it
    /// is use, the app stays ACTIVE until the 12 h WORKING_SET threshold (the 1 h
    /// strong-usage hold lies inside those 12 h).
    @Test func openingTheAppPromotesToActive() {
        var s = StandbyBucketState(lastUsedAt: t0)
        model.screen(on: true, state: &s, now: t0)
        #expect(model.bucket(s, at: t0 + .days(9)) == .restricted)
        model.appUsed(state: &s, now: t0 + .days(9))
        #expect(model.bucket(s, at: t0 + .days(9)) == .active)
        #expect(model.bucket(s, at: t0 + .days(9) + .hours(12) - .seconds(1)) == .active)
        #expect(model.bucket(s, at: t0 + .days(9) + .hours(12)) == .workingSet)
    }

    /// A notification seen lifts a RARE app to WORKING_SET for 12 h, then it falls back.
    @Test func notificationSeenHoldsWorkingSetFor12Hours() {
        var s = StandbyBucketState(lastUsedAt: t0)
        model.screen(on: true, state: &s, now: t0)
        let seen = t0 + .hours(50)
        #expect(model.bucket(s, at: seen) == .rare)
        model.notificationSeen(state: &s, now: seen)
        #expect(model.bucket(s, at: seen) == .workingSet)
        #expect(model.nextChange(s, after: seen) == seen + .hours(12))
        #expect(model.bucket(s, at: seen + .hours(12) - .seconds(1)) == .workingSet)
        #expect(model.bucket(s, at: seen + .hours(12)) == .rare)
    }

    /// The 1 h strong-usage hold binds when the WORKING_SET threshold is shorter: with
    /// 30 min, an opened app is ACTIVE until 1 h (59:59 ACTIVE, 1:00:00 WORKING_SET).
    @Test func strongUsageHoldsActiveForOneHourUnderAShortWorkingSetThreshold() {
        var config = StandbyBucketConfig()
        config.elapsedThresholds[1] = .minutes(30)
        let model = StandbyBucketModel(config: config)
        var s = StandbyBucketState(lastUsedAt: t0)
        model.appUsed(state: &s, now: t0)
        #expect(model.bucket(s, at: t0 + .hours(1) - .seconds(1)) == .active)
        #expect(model.bucket(s, at: t0 + .hours(1)) == .workingSet)
    }
}
