import Testing
import SimKernel
@testable import Platform

/// `REFERENCE.md` A: how screen, charging, motion, network, Battery Saver's Quick Doze
/// and a high-priority push move Doze. Each test compares the whole transition list.
@Suite struct DozeInputTests {
    let t0 = SimTime.zero

    func deepIdleRun() -> DozeRun {
        var run = DozeRun()
        run.send(.screen(on: false), at: t0)
        run.run(until: t0 + .minutes(61))
        run.log.removeAll()
        return run
    }

    @Test func motionInDeepIdleStartsOverWithTheTenMinuteMotionTimeout() {
        var run = deepIdleRun()
        #expect(run.state.deep == .idle)
        run.send(.motion, at: t0 + .minutes(90))
        #expect(run.timeline == [
            Timed(5_400, .deep(.active)), Timed(5_400, .light(.active)),
            Timed(5_400, .deep(.inactive)), Timed(5_400, .light(.inactive)),
        ])
        run.run(until: t0 + .minutes(100) + .seconds(1))
        #expect(run.timeline.last == Timed(6_000, .deep(.idlePending)))  // 10 min, not 30
    }

    @Test func motionBeforeIdlePendingIsNotWatched() {
        var run = DozeRun()
        run.send(.screen(on: false), at: t0)
        run.run(until: t0 + .minutes(10))
        run.log.removeAll()
        run.send(.motion, at: t0 + .minutes(10))
        #expect(run.timeline == [])
        #expect(run.state.deep == .inactive)
    }

    @Test func screenOnOrChargingMakesBothMachinesActive() {
        var run = deepIdleRun()
        run.send(.charging(true), at: t0 + .minutes(90))
        #expect(run.timeline == [Timed(5_400, .deep(.active)), Timed(5_400, .light(.active))])
        run.send(.charging(false), at: t0 + .minutes(91))
        #expect(run.timeline.suffix(2) == [Timed(5_460, .deep(.inactive)), Timed(5_460, .light(.inactive))])
        run.send(.screen(on: true), at: t0 + .minutes(92))
        #expect(run.timeline.suffix(2) == [Timed(5_520, .deep(.active)), Timed(5_520, .light(.active))])
        #expect(run.state.nextDeadline == nil)
    }

    /// Light maintenance is due at 6 min but the device is offline: it waits up to one
    /// more idle period (10 min), and opens as soon as the network returns.
    @Test func lightMaintenanceWaitsForTheNetwork() {
        var run = DozeRun()
        run.send(.network(connected: false), at: t0)
        run.send(.screen(on: false), at: t0)
        run.send(.network(connected: true), at: t0 + .minutes(8))
        #expect(run.timeline == [
            Timed(0, .deep(.inactive)), Timed(0, .light(.inactive)),
            Timed(60, .light(.idle)),
            Timed(360, .light(.waitingForNetwork)),
            Timed(480, .light(.idleMaintenance)),
        ])
        var offline = DozeRun()
        offline.send(.network(connected: false), at: t0)
        offline.send(.screen(on: false), at: t0)
        offline.run(until: t0 + .minutes(16))
        #expect(offline.timeline.suffix(2) == [Timed(360, .light(.waitingForNetwork)), Timed(960, .light(.idleMaintenance))])
    }

    /// Light Doze waits up to 3 min (PRE_IDLE) for running jobs, less if they finish.
    @Test func lightPreIdleWaitsForRunningJobs() {
        var run = DozeRun()
        run.send(.jobsActive(true), at: t0)
        run.send(.screen(on: false), at: t0)
        run.send(.jobsActive(false), at: t0 + .minutes(2))
        #expect(run.timeline == [
            Timed(0, .deep(.inactive)), Timed(0, .light(.inactive)),
            Timed(60, .light(.preIdle)), Timed(120, .light(.idle)),
        ])
    }

    /// Battery Saver's Quick Doze: 1 min, then deep IDLE without motion or location checks.
    @Test func quickDozeGoesDeepAfterOneMinute() {
        var run = DozeRun()
        run.send(.quickDoze(true), at: t0)
        run.send(.screen(on: false), at: t0)
        run.run(until: t0 + .minutes(2))
        #expect(run.timeline == [
            Timed(0, .deep(.quickDozeDelay)), Timed(0, .light(.inactive)),
            Timed(60, .deep(.idle)), Timed(60, .light(.override)),
        ])
    }

    @Test func highPriorityPushAllowListsTheAppForFiveMinutes() {
        var run = deepIdleRun()
        let pushed = t0 + .minutes(70)
        run.send(.highPriorityPush, at: pushed)
        #expect(run.timeline == [])
        #expect(run.state.isAllowListed(at: pushed))
        #expect(run.state.isAllowListed(at: pushed + .minutes(5) - .microseconds(1)))
        #expect(!run.state.isAllowListed(at: pushed + .minutes(5)))
    }
}
