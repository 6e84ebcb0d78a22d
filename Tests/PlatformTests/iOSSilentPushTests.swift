import Testing
import SimKernel
@testable import Platform

/// Silent pushes (docs/platform-facts.md F, G): priority 5, three an hour (assumption on F's
/// "two or three per hour"), held and coalesced, 30 s of runtime, none with Background App
/// Refresh off, in Low Power Mode or after a force-quit; the held one delivered at the
/// user's launch and discarded at a kill.
@Suite struct iOSSilentPushTests {
    let throttle = SilentPushThrottle()
    let t0 = SimTime.zero + .hours(1)
    /// Background App Refresh on, no Low Power Mode, no force-quit.
    static let open = SilentPushThrottle.Conditions(backgroundAppRefresh: true, lowPowerMode: false, forceQuit: false)

    static func with(backgroundAppRefresh: Bool = true, lowPowerMode: Bool = false, forceQuit: Bool = false) -> SilentPushThrottle.Conditions {
        SilentPushThrottle.Conditions(backgroundAppRefresh: backgroundAppRefresh, lowPowerMode: lowPowerMode, forceQuit: forceQuit)
    }

    /// The bucket emptied at `t0` and a fourth push held until `t0` + 20 min.
    func holding() -> SilentPushState {
        var state = SilentPushState(throttle: throttle, now: .zero)
        for _ in 0..<4 { _ = throttle.receive(priority: 5, now: t0, conditions: Self.open, state: &state) }
        return state
    }

    @Test func threeAnHourThenCoalescedIntoOneWakeAtTheNextToken() {
        var state = SilentPushState(throttle: throttle, now: .zero)
        for k in 0..<3 {
            #expect(throttle.receive(priority: 5, now: t0, conditions: Self.open, state: &state) == .deliver(runtime: .seconds(30)), "push \(k)")
        }
        // The bucket is empty; one token takes 20 min at 3 an hour.
        let due = t0 + .minutes(20)
        #expect(throttle.receive(priority: 5, now: t0, conditions: Self.open, state: &state) == .coalesced(at: due, newlyScheduled: true))
        #expect(throttle.receive(priority: 5, now: t0 + .minutes(5), conditions: Self.open, state: &state)
                == .coalesced(at: due, newlyScheduled: false))
        #expect(state.merged == 2)
        // One microsecond early it is still held, and nothing happens.
        #expect(throttle.deliverWaiting(now: due - .microseconds(1), conditions: Self.open, state: &state) == nil)
        #expect(state.waiting)
        #expect(throttle.deliverWaiting(now: due, conditions: Self.open, state: &state) == .deliver(runtime: .seconds(30)))
        #expect(throttle.deliverWaiting(now: due, conditions: Self.open, state: &state) == nil)
        // The bucket is empty again right after.
        if case .coalesced = throttle.receive(priority: 5, now: due, conditions: Self.open, state: &state) {} else {
            Issue.record("expected a coalesced push")
        }
    }

    @Test func theBucketRefillsToThreeAfterAnHour() {
        var state = SilentPushState(throttle: throttle, now: .zero)
        for _ in 0..<3 { _ = throttle.receive(priority: 5, now: t0, conditions: Self.open, state: &state) }
        for k in 0..<3 {
            #expect(throttle.receive(priority: 5, now: t0 + .hours(5) + .seconds(Int64(k)), conditions: Self.open, state: &state)
                    == .deliver(runtime: .seconds(30)))
        }
    }

    /// Each reason alone, then the order: priority, Background App Refresh, Low Power
    /// Mode, force-quit. No token is taken.
    @Test func notDeliveredWithRefreshOffInLowPowerModeAfterAForceQuitOrAtPriority10() {
        var state = SilentPushState(throttle: throttle, now: .zero)
        #expect(throttle.receive(priority: 5, now: t0, conditions: Self.with(backgroundAppRefresh: false), state: &state)
                == .dropped(.backgroundAppRefreshOff))
        #expect(throttle.receive(priority: 5, now: t0, conditions: Self.with(lowPowerMode: true), state: &state) == .dropped(.lowPowerMode))
        #expect(throttle.receive(priority: 5, now: t0, conditions: Self.with(forceQuit: true), state: &state) == .dropped(.forceQuit))
        #expect(throttle.receive(priority: 10, now: t0, conditions: Self.open, state: &state) == .dropped(.notPriority5))
        let all = Self.with(backgroundAppRefresh: false, lowPowerMode: true, forceQuit: true)
        #expect(throttle.receive(priority: 10, now: t0, conditions: all, state: &state) == .dropped(.notPriority5))
        #expect(throttle.receive(priority: 5, now: t0, conditions: all, state: &state) == .dropped(.backgroundAppRefreshOff))
        #expect(throttle.receive(priority: 5, now: t0, conditions: Self.with(lowPowerMode: true, forceQuit: true), state: &state)
                == .dropped(.lowPowerMode))
        #expect(state.tokens == 3 && !state.waiting)
    }

    @Test func aHeldPushIsDroppedIfLowPowerModeOrRefreshOffCameMeanwhile() {
        var state = holding()
        #expect(throttle.deliverWaiting(now: t0 + .minutes(20), conditions: Self.with(lowPowerMode: true), state: &state) == .dropped(.lowPowerMode))
        #expect(!state.waiting)
        state = holding()
        #expect(throttle.deliverWaiting(now: t0 + .minutes(20), conditions: Self.with(backgroundAppRefresh: false, lowPowerMode: true), state: &state)
                == .dropped(.backgroundAppRefreshOff))
        #expect(!state.waiting)
    }

    /// A launch one second before the due time delivers the held push then, without a
    /// token, whatever Background App Refresh says; the due time then finds nothing.
    @Test func aHeldPushIsDeliveredAtTheLaunchAndItsDueTimeFindsNothing() {
        var state = holding()
        let tokens = state.tokens
        #expect(throttle.deliverHeldAtLaunch(state: &state) == 1)
        #expect(!state.waiting && state.tokens == tokens)
        #expect(throttle.deliverWaiting(now: t0 + .minutes(20), conditions: Self.open, state: &state) == nil)
        state = holding()
        _ = throttle.receive(priority: 5, now: t0 + .minutes(19), conditions: Self.open, state: &state)
        #expect(throttle.deliverHeldAtLaunch(state: &state) == 2)
        #expect(throttle.deliverHeldAtLaunch(state: &state) == nil)
    }

    @Test func aLaunchOrAKillWithNothingHeldDoesNothing() {
        var state = SilentPushState(throttle: throttle, now: .zero)
        #expect(throttle.deliverHeldAtLaunch(state: &state) == nil)
        #expect(throttle.discardHeld(state: &state) == nil)
        #expect(state.tokens == 3 && !state.waiting)
    }

    @Test func aKillDiscardsTheHeldPushAndItsDueTimeFindsNothing() {
        var state = holding()
        #expect(throttle.discardHeld(state: &state) == 1)
        #expect(!state.waiting)
        #expect(throttle.deliverWaiting(now: t0 + .minutes(20), conditions: Self.open, state: &state) == nil)
    }

    /// After a launch delivered the held push at `t0` + 19 min, a push at `t0` + 19.5 min
    /// finds no token and starts a new hold, due when the bucket next has a token: at
    /// `t0` + 20 min, the first hold's time (the launch took no token). The first hold's
    /// event then delivers the second once, and the second's own event finds nothing.
    @Test func aNewHoldAfterALaunchIsDueWhenTheBucketAllows() {
        var state = holding()
        #expect(throttle.deliverHeldAtLaunch(state: &state) == 1)
        guard case .coalesced(let due, true) = throttle.receive(priority: 5, now: t0 + .minutes(19) + .seconds(30), conditions: Self.open, state: &state)
        else {
            Issue.record("expected a new hold")
            return
        }
        #expect(abs((due - (t0 + .minutes(20))).microseconds) <= 1)
        #expect(throttle.deliverWaiting(now: due, conditions: Self.open, state: &state) == .deliver(runtime: .seconds(30)))
        #expect(throttle.deliverWaiting(now: due, conditions: Self.open, state: &state) == nil)
    }
}
