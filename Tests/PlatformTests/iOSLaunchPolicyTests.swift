import Testing
import SimKernel
@testable import Platform

/// The launch policy's hard rules (docs/platform-facts.md F) and its named assumptions.
@Suite struct iOSLaunchPolicyTests {
    let hour = SimDuration.hours(1)
    let plugged = LaunchPolicyModel.Conditions(backgroundAppRefresh: true, lowPowerMode: false, charging: true, onWiFi: true)

    /// A policy that grants every allowed opportunity, so the rules show alone.
    var always: LaunchPolicyModel { var m = LaunchPolicyModel(); m.baseAcceptance = 1; return m }

    func fresh(opensPerDay: Double = 2.5) -> LaunchPolicyState {
        LaunchPolicyState(opensPerDay: opensPerDay, curve: .flat, now: .zero)
    }

    @Test func lowPowerModeOrBackgroundAppRefreshOffGetZeroLaunches() {
        var rng = RandomStream(seed: 7, entity: 0, purpose: "test.launch")
        var state = fresh()
        let model = always
        var launches = 0
        for k in 0..<10_000 {
            let c = LaunchPolicyModel.Conditions(backgroundAppRefresh: k % 2 == 0, lowPowerMode: k % 2 == 0 || rng.chance(0.5),
                                                 charging: rng.chance(0.5), onWiFi: rng.chance(0.5))
            let d = model.decide(now: .zero + .minutes(Int64(k)), conditions: c, localHourAhead: k % 24, state: &state, rng: &rng)
            if d == .launch { launches += 1 }
            #expect(d == .blocked(c.backgroundAppRefresh ? .lowPowerMode : .backgroundAppRefreshOff))
        }
        #expect(launches == 0)
        #expect(state.launchesInDay == 0)
    }

    @Test func submitFailsAsUnavailableWithBackgroundAppRefreshOff() {
        let scheduler = BGTaskSchedulerModel(runLimit: .seconds(30), earlyExpirationRate: 0, watchdogGrace: .seconds(5))
        #expect(scheduler.submit(backgroundAppRefresh: false) == .unavailable)
        #expect(scheduler.submit(backgroundAppRefresh: true) == .accepted)
    }

    /// One refresh request and ten processing requests pending across the app's other
    /// identifiers at most (`BGTaskScheduler.submit(_:)`, docs/platform-facts.md F).
    @Test func submitIsRefusedAtTheKindsPendingLimit() {
        let scheduler = BGTaskSchedulerModel(runLimit: .seconds(30), earlyExpirationRate: 0, watchdogGrace: .seconds(5))
        #expect(scheduler.submit(backgroundAppRefresh: true, kind: .bgAppRefreshTask, othersPending: 1) == .tooManyPendingTaskRequests)
        #expect(scheduler.submit(backgroundAppRefresh: true, kind: .bgProcessingTask, othersPending: 9) == .accepted)
        #expect(scheduler.submit(backgroundAppRefresh: true, kind: .bgProcessingTask, othersPending: 10) == .tooManyPendingTaskRequests)
    }

    /// A processing request that requires external power or a network is not launched
    /// while the device lacks it (`BGProcessingTaskRequest`, docs/platform-facts.md F):
    /// every look is "not now" and spends none of the day's budget; the first look with
    /// the requirements met launches it.
    @Test func aProcessingRequestWaitsForItsRequirements() {
        var rng = RandomStream(seed: 7, entity: 2, purpose: "test.launch")
        var state = fresh()
        let model = always
        var unplugged = plugged
        unplugged.charging = false
        unplugged.requirementsMet = false
        for k in 0..<48 {
            let d = model.decide(now: .zero + hour * Int64(k), conditions: unplugged, localHourAhead: k % 24, state: &state, rng: &rng)
            guard case .lookAgain(let at) = d else { Issue.record("\(d) at look \(k)"); return }
            #expect(at > .zero + hour * Int64(k))
        }
        #expect(state.launchesInDay == 0)
        #expect(model.decide(now: .zero + hour * 48, conditions: plugged, localHourAhead: 0, state: &state, rng: &rng) == .launch)
    }

    @Test func aForceQuitAppGetsNoLaunchUntilReopened() {
        var rng = RandomStream(seed: 7, entity: 1, purpose: "test.launch")
        var state = fresh()
        let model = always
        state.userForceQuits()
        for k in 0..<48 {
            let d = model.decide(now: .zero + hour * Int64(k), conditions: plugged, localHourAhead: k % 24, state: &state, rng: &rng)
            #expect(d == .blocked(.forceQuit))
        }
        state.appOpened(at: .zero + hour * 48, localHour: 0, model: model)
        #expect(model.decide(now: .zero + hour * 48, conditions: plugged, localHourAhead: 0, state: &state, rng: &rng) == .launch)
    }

    @Test func theDailyBudgetHoldsUntilTheBudgetDayEnds() {
        var rng = RandomStream(seed: 7, entity: 2, purpose: "test.launch")
        var state = fresh(opensPerDay: 2.5)  // budget 1 + 2 × 2.5 = 6
        let model = always
        for k in 0..<6 {
            #expect(model.decide(now: .zero + .minutes(Int64(k)), conditions: plugged, localHourAhead: 9, state: &state, rng: &rng) == .launch)
        }
        let lastMoment = SimTime.zero + .days(1) - .microseconds(1)
        guard case .lookAgain(let at) = model.decide(now: lastMoment, conditions: plugged, localHourAhead: 9, state: &state, rng: &rng) else {
            Issue.record("expected the budget to hold"); return
        }
        #expect(at >= .zero + .days(1))
        #expect(model.decide(now: .zero + .days(1), conditions: plugged, localHourAhead: 9, state: &state, rng: &rng) == .launch)
    }

    @Test func theBudgetGrowsWithAppUse() {
        let model = LaunchPolicyModel()
        var state = fresh(opensPerDay: 0)
        #expect(model.dailyBudget(state) == 1)
        for k in 0..<7 { state.appOpened(at: .zero + hour * Int64(k), localHour: k, model: model) }
        state.roll(to: .zero + .days(1), model: model)
        // A day of 7 opens moves the week-long average from 0 to 1: budget 1 + 2 × 1.
        #expect(abs(state.opensPerDay - 1) < 1e-12)
        #expect(abs(model.dailyBudget(state) - 3) < 1e-12)
        // Twelve idle days later it has faded below a third of an open a day.
        state.roll(to: .zero + .days(13), model: model)
        #expect(state.opensPerDay < 0.17)
        #expect(model.dailyBudget(LaunchPolicyState(opensPerDay: 50, curve: .flat, now: .zero)) == 12)
    }

    @Test func launchesFavourTheHoursAheadOfTheUsersOwnUse() {
        // A user who opens the app only at 20:00: a week of 2.5 opens a day gives 18
        // opens at hour 20, none elsewhere.
        var weights = Array(repeating: 0.0, count: 24)
        weights[20] = 1
        let model = LaunchPolicyModel()
        let state = LaunchPolicyState(opensPerDay: 2.5, curve: DiurnalCurve(weights: weights)!, now: .zero)
        #expect(state.opensByHour[20] == 18)
        // 24 × (1 + 18) / (24 + 18) and 24 × 1 / 42.
        #expect(abs(model.affinity(hour: 20, state: state) - 10.857142857) < 1e-8)
        #expect(abs(model.affinity(hour: 3, state: state) - 0.571428571) < 1e-8)

        // Granted share of opportunities at hour 3: 0.2 × 0.5714 unplugged on cellular,
        // × 4 × 1.5 plugged in on Wi-Fi; at hour 20 every time.
        let cellular = LaunchPolicyModel.Conditions(backgroundAppRefresh: true, lowPowerMode: false, charging: false, onWiFi: false)
        func grantedShare(hour: Int, _ c: LaunchPolicyModel.Conditions) -> Double {
            var rng = RandomStream(seed: 11, entity: UInt64(hour), purpose: "test.launch")
            var granted = 0
            for _ in 0..<20_000 {
                var s = state  // a fresh budget each time
                if model.decide(now: .zero, conditions: c, localHourAhead: hour, state: &s, rng: &rng) == .launch { granted += 1 }
            }
            return Double(granted) / 20_000
        }
        #expect(abs(grantedShare(hour: 3, cellular) - 0.1143) < 0.01)
        #expect(abs(grantedShare(hour: 3, plugged) - 0.6857) < 0.01)
        #expect(grantedShare(hour: 20, cellular) == 1)
    }

    @Test func theFirstLookIsNeverBeforeEarliestBegin() {
        let model = LaunchPolicyModel()
        var rng = RandomStream(seed: 3, entity: 0, purpose: "test.launch")
        for _ in 0..<1_000 {
            #expect(model.firstLook(earliestBegin: .zero + hour * 4, now: .zero, rng: &rng) >= .zero + hour * 4)
            #expect(model.firstLook(earliestBegin: .zero, now: .zero + hour, rng: &rng) >= .zero + hour)
        }
    }
}
