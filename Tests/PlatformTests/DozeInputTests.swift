import Testing
import SimKernel
@testable import Platform

/// `docs/platform-facts.md` A: how screen, charging, motion, network, Battery Saver's Quick Doze
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

    /// Light maintenance is due in the 6–7 min window (delivered at its end, nothing
    /// waking the device) but the device is offline: it waits up to one more idle period
    /// (10 min, a wakeup alarm), and opens as soon as the network returns.
    @Test func lightMaintenanceWaitsForTheNetwork() {
        var run = DozeRun()
        run.send(.network(connected: false), at: t0)
        run.send(.screen(on: false), at: t0)
        run.send(.network(connected: true), at: t0 + .minutes(8))
        #expect(run.timeline == [
            Timed(0, .deep(.inactive)), Timed(0, .light(.inactive)),
            Timed(60, .light(.idle)),
            Timed(420, .light(.waitingForNetwork)),
            Timed(480, .light(.idleMaintenance)),
        ])
        var offline = DozeRun()
        offline.send(.network(connected: false), at: t0)
        offline.send(.screen(on: false), at: t0)
        offline.run(until: t0 + .minutes(17))
        #expect(offline.timeline.suffix(2) == [Timed(420, .light(.waitingForNetwork)), Timed(1_020, .light(.idleMaintenance))])
    }

    /// `WAIT_FOR_UNLOCK` (true): the screen turning on over the keyguard does not end
    /// deep idle (`updateInteractivityLocked`); unlocking does (`keyguardShowingLocked`).
    /// Without it, the locked screen-on is enough.
    @Test func aLockedScreenOnDoesNotEndDozeUntilUnlock() {
        var run = deepIdleRun()
        run.send(.screen(on: true, locked: true), at: t0 + .minutes(90))
        #expect(run.timeline == [])
        #expect(run.state.deep == .idle)
        run.send(.keyguard(locked: false), at: t0 + .minutes(91))
        #expect(run.timeline == [Timed(5_460, .deep(.active)), Timed(5_460, .light(.active))])

        var config = DozeConfig()
        config.waitForUnlock = false
        var eager = DozeRun(config: config)
        eager.send(.screen(on: false), at: t0)
        eager.run(until: t0 + .minutes(61))
        eager.log.removeAll()
        eager.send(.screen(on: true, locked: true), at: t0 + .minutes(90))
        #expect(eager.timeline == [Timed(5_400, .deep(.active)), Timed(5_400, .light(.active))])
    }

    /// The screen on but locked does not block Doze from starting either
    /// (`becomeInactiveIfAppropriateLocked`: `isScreenBlockingInactive`).
    @Test func aLockedScreenLetsDozeStart() {
        var run = DozeRun()
        run.send(.screen(on: true, locked: true), at: t0)
        run.send(.quickDoze(true), at: t0)
        #expect(run.timeline == [Timed(0, .deep(.quickDozeDelay)), Timed(0, .light(.inactive))])
    }

    /// Android 12–14's light IDLE → maintenance alarm is not a wakeup alarm: its window
    /// (6–7 min after a screen-off at 0) opens maintenance at the first moment the device
    /// is awake for something else, and not before the window's start.
    @Test func aNonWakeupLightAlarmFiresWhenSomethingElseWakesTheDevice() {
        var run = DozeRun()
        run.send(.screen(on: false), at: t0)
        run.send(.deviceAwake, at: t0 + .seconds(359))
        #expect(run.state.light == .idle)
        run.send(.deviceAwake, at: t0 + .seconds(370))
        #expect(run.timeline.last == Timed(370, .light(.idleMaintenance)))

        var pushed = DozeRun()
        pushed.send(.screen(on: false), at: t0)
        pushed.send(.highPriorityMessage, at: t0 + .seconds(360))
        #expect(pushed.timeline.last == Timed(360, .light(.idleMaintenance)))
    }

    /// Android 15's light alarm wakes the device: maintenance at the window's start.
    @Test func android15sLightAlarmWakesTheDevice() {
        var run = DozeRun(config: DozeConfig(version: .android15))
        run.send(.screen(on: false), at: t0)
        run.run(until: t0 + .minutes(10))
        #expect(run.timeline == [
            Timed(0, .deep(.inactive)), Timed(0, .light(.inactive)),
            Timed(240, .light(.idle)),                 // 4 min after-inactive
            Timed(540, .light(.idleMaintenance)),      // + 5 min, at the window's start
            Timed(545, .light(.idle)),
        ])
    }

    /// Android 15 has no PRE_IDLE: running jobs do not hold light Doze back.
    @Test func android15GoesLightIdleDespiteRunningJobs() {
        var run = DozeRun(config: DozeConfig(version: .android15))
        run.send(.jobsActive(true), at: t0)
        run.send(.screen(on: false), at: t0)
        run.run(until: t0 + .minutes(5))
        #expect(run.timeline == [Timed(0, .deep(.inactive)), Timed(0, .light(.inactive)), Timed(240, .light(.idle))])
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

    @Test func highPriorityMessageAllowListsTheAppForFiveMinutes() {
        var run = deepIdleRun()
        let pushed = t0 + .minutes(70)
        run.send(.highPriorityMessage, at: pushed)
        #expect(run.timeline == [])
        #expect(run.state.isAllowListed(at: pushed))
        #expect(run.state.isAllowListed(at: pushed + .minutes(5) - .microseconds(1)))
        #expect(!run.state.isAllowListed(at: pushed + .minutes(5)))
    }
}
