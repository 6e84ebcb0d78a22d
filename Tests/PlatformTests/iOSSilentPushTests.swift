import Testing
import SimKernel
@testable import Platform

/// Silent pushes (docs/platform-facts.md F, G): priority 5, three an hour (assumption on F's
/// "two or three per hour"), coalesced, 30 s of runtime, none in Low Power Mode or
/// after a force-quit.
@Suite struct iOSSilentPushTests {
    let throttle = SilentPushThrottle()
    let t0 = SimTime.zero + .hours(1)

    @Test func threeAnHourThenCoalescedIntoOneWakeAtTheNextToken() {
        var state = SilentPushState(throttle: throttle, now: .zero)
        for k in 0..<3 {
            #expect(throttle.receive(priority: 5, now: t0, lowPowerMode: false, forceQuit: false, state: &state)
                    == .deliver(runtime: .seconds(30)), "push \(k)")
        }
        // The bucket is empty; one token takes 20 min at 3 an hour.
        let due = t0 + .minutes(20)
        #expect(throttle.receive(priority: 5, now: t0, lowPowerMode: false, forceQuit: false, state: &state)
                == .coalesced(at: due, newlyScheduled: true))
        #expect(throttle.receive(priority: 5, now: t0 + .minutes(5), lowPowerMode: false, forceQuit: false, state: &state)
                == .coalesced(at: due, newlyScheduled: false))
        #expect(state.merged == 2)
        #expect(throttle.deliverWaiting(now: due - .microseconds(1), lowPowerMode: false, forceQuit: false, state: &state)
                == .coalesced(at: due, newlyScheduled: false))
        #expect(throttle.deliverWaiting(now: due, lowPowerMode: false, forceQuit: false, state: &state) == .deliver(runtime: .seconds(30)))
        #expect(throttle.deliverWaiting(now: due, lowPowerMode: false, forceQuit: false, state: &state) == nil)
        // The bucket is empty again right after.
        if case .coalesced = throttle.receive(priority: 5, now: due, lowPowerMode: false, forceQuit: false, state: &state) {} else {
            Issue.record("expected a coalesced push")
        }
    }

    @Test func theBucketRefillsToThreeAfterAnHour() {
        var state = SilentPushState(throttle: throttle, now: .zero)
        for _ in 0..<3 { _ = throttle.receive(priority: 5, now: t0, lowPowerMode: false, forceQuit: false, state: &state) }
        for k in 0..<3 {
            #expect(throttle.receive(priority: 5, now: t0 + .hours(5) + .seconds(Int64(k)), lowPowerMode: false, forceQuit: false, state: &state)
                    == .deliver(runtime: .seconds(30)))
        }
    }

    @Test func notDeliveredInLowPowerModeAfterAForceQuitOrAtPriority10() {
        var state = SilentPushState(throttle: throttle, now: .zero)
        #expect(throttle.receive(priority: 5, now: t0, lowPowerMode: true, forceQuit: false, state: &state) == .dropped(.lowPowerMode))
        #expect(throttle.receive(priority: 5, now: t0, lowPowerMode: false, forceQuit: true, state: &state) == .dropped(.forceQuit))
        #expect(throttle.receive(priority: 10, now: t0, lowPowerMode: false, forceQuit: false, state: &state) == .dropped(.notPriority5))
        #expect(state.tokens == 3)
    }

    @Test func aWaitingDeliveryIsDroppedIfLowPowerModeCameOnMeanwhile() {
        var state = SilentPushState(throttle: throttle, now: .zero)
        for _ in 0..<4 { _ = throttle.receive(priority: 5, now: t0, lowPowerMode: false, forceQuit: false, state: &state) }
        #expect(throttle.deliverWaiting(now: t0 + .minutes(20), lowPowerMode: true, forceQuit: false, state: &state) == .dropped(.lowPowerMode))
        #expect(!state.waiting)
    }
}
