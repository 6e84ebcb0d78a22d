import Testing
import SimKernel
@testable import Platform

/// `docs/platform-facts.md` D: backoff, periodic schedule with flex, constraints; E: the battery
/// hysteresis behind battery-not-low.
@Suite struct WorkManagerModelTests {
    let model = WorkManagerModel()

    @Test func exponentialRetryDelaysDoubleFrom30SecondsAndCapAt5Hours() {
        let r = model.request(.oneTime)
        let delays = (1...13).map { model.backoff(r, attempt: $0).microseconds / 1_000_000 }
        #expect(delays == [30, 60, 120, 240, 480, 960, 1_920, 3_840, 7_680, 15_360, 18_000, 18_000, 18_000])
    }

    @Test func linearRetryDelaysGrowBy30SecondsAndCapAt5Hours() {
        let r = model.request(.oneTime, backoffPolicy: .linear)
        #expect(model.backoff(r, attempt: 1) == .seconds(30))
        #expect(model.backoff(r, attempt: 2) == .seconds(60))
        #expect(model.backoff(r, attempt: 599) == .seconds(17_970))
        #expect(model.backoff(r, attempt: 600) == .seconds(18_000))
        #expect(model.backoff(r, attempt: 601) == .seconds(18_000))
    }

    @Test func backoffDelayIsClampedTo10SecondsAnd5Hours() {
        #expect(model.request(.oneTime, backoffDelay: .seconds(9)).backoffDelay == .seconds(10))
        #expect(model.request(.oneTime, backoffDelay: .seconds(10)).backoffDelay == .seconds(10))
        #expect(model.request(.oneTime, backoffDelay: .hours(6)).backoffDelay == .hours(5))
    }

    @Test func aRetriedRunIsDueItsBackoffAfterTheRunEnded() {
        let r = model.request(.oneTime)
        var s = WorkSpecState(enqueuedAt: .zero)
        #expect(model.nextRunTime(r, s) == .zero)
        model.runFinished(r, &s, result: .retry, now: SimTime.zero + .seconds(5))
        #expect(model.nextRunTime(r, s) == SimTime.zero + .seconds(35))
        model.runFinished(r, &s, result: .retry, now: SimTime.zero + .seconds(40))
        #expect(model.nextRunTime(r, s) == SimTime.zero + .seconds(100))
        model.runFinished(r, &s, result: .success, now: SimTime.zero + .seconds(101))
        #expect(model.nextRunTime(r, s) == nil)
    }

    @Test func periodicIntervalAndFlexAreClamped() {
        #expect(model.request(.periodic(interval: .minutes(14), flex: .minutes(4))).kind
                == .periodic(interval: .minutes(15), flex: .minutes(5)))
        #expect(model.request(.periodic(interval: .minutes(15), flex: .minutes(5))).kind
                == .periodic(interval: .minutes(15), flex: .minutes(5)))
        #expect(model.request(.periodic(interval: .hours(1), flex: .hours(2))).kind
                == .periodic(interval: .hours(1), flex: .hours(1)))
    }

    /// `PeriodicWorkRequest.Builder(interval)` (`WorkSpec.setPeriodic(interval)`): flex is
    /// the clamped interval, so a 10 min request is 15 min unflexed, due at once; the
    /// two-argument builder with the same 10 min keeps a 10 min flex (first run at 5 min).
    @Test func theOneArgumentBuilderSetsFlexToTheClampedInterval() {
        let one = model.periodicRequest(interval: .minutes(10))
        #expect(one.kind == .periodic(interval: .minutes(15), flex: .minutes(15)))
        #expect(model.nextRunTime(one, WorkSpecState(enqueuedAt: .zero)) == .zero)
        let two = model.request(.periodic(interval: .minutes(10), flex: .minutes(10)))
        #expect(two.kind == .periodic(interval: .minutes(15), flex: .minutes(10)))
        #expect(model.nextRunTime(two, WorkSpecState(enqueuedAt: .zero)) == SimTime.zero + .minutes(5))
        #expect(model.periodicRequest(interval: .minutes(15) - .microseconds(1)).kind
                == .periodic(interval: .minutes(15), flex: .minutes(15)))
        #expect(model.periodicRequest(interval: .minutes(16)).kind == .periodic(interval: .minutes(16), flex: .minutes(16)))
    }

    /// `WorkerWrapper.resetWorkerStatus` keeps `lastEnqueueTime`; the attempt counted at
    /// the start makes `calculateNextRunTime` back off from it. Periodic 4 h work last
    /// re-enqueued at 0 runs at 4 h 10 min and is stopped by quota at 4 h 20 min: due again
    /// at 0 + 30 s (at once), not at 4 h 20 min 30 s as a `retry` would be; stopped again,
    /// at 0 + 60 s; a success then starts the next period from its end.
    @Test func aRunStoppedBySystemIsDueFromTheOriginalEnqueueTime() {
        let r = model.periodicRequest(interval: .hours(4))
        var s = WorkSpecState(enqueuedAt: .zero)
        model.runFinished(r, &s, result: .success, now: .zero)
        #expect(model.nextRunTime(r, s) == SimTime.zero + .hours(4))
        let stop = SimTime.zero + .hours(4) + .minutes(20)
        model.runStoppedBySystem(&s)
        #expect(model.nextRunTime(r, s) == SimTime.zero + .seconds(30))
        var retried = s
        retried.runAttemptCount = 0
        model.runFinished(r, &retried, result: .retry, now: stop)
        #expect(model.nextRunTime(r, retried) == stop + .seconds(30))
        model.runStoppedBySystem(&s)
        #expect(model.nextRunTime(r, s) == SimTime.zero + .seconds(60))
        let done = stop + .minutes(15)
        model.runFinished(r, &s, result: .success, now: done)
        #expect(s.runAttemptCount == 0)
        #expect(model.nextRunTime(r, s) == done + .hours(4))
        var finished = WorkSpecState(enqueuedAt: .zero)
        model.runFinished(model.request(.oneTime), &finished, result: .success, now: .zero)
        model.runStoppedBySystem(&finished)
        #expect(finished.runAttemptCount == 0)
    }

    /// The attempt count stops at 65,535 (16 bits: docs/performance.md#memory-per-device), where the
    /// backoff has long reached its 5 h cap: through 70,000 retries of a linear 10 s
    /// backoff (the slowest to reach it: attempt 1,800), each next run is due when the
    /// true count's backoff says.
    @Test func theAttemptCountSaturatesPastTheCap() {
        let r = model.request(.oneTime, backoffPolicy: .linear, backoffDelay: .seconds(10))
        var s = WorkSpecState(enqueuedAt: .zero)
        var now = SimTime.zero
        for attempt in 1...70_000 as ClosedRange<UInt32> {
            model.runFinished(r, &s, result: .retry, now: now)
            #expect(model.nextRunTime(r, s) == now + model.backoff(r, attempt: attempt))
            now = now + .seconds(1)
        }
        #expect(s.runAttemptCount == 65_535 && model.backoff(r, attempt: 1_800) == .hours(5))
        #expect(MemoryLayout<WorkSpecState>.size == 15)
    }

    /// A configuration whose backoff reaches its cap at attempt 65,535 is built; one
    /// that would reach it a microsecond of cap later, at 65,536, is refused.
    @Test func aBackoffReachingItsCapPastTheCountIsRefused() async {
        var config = WorkManagerConfig()
        config.minBackoff = .microseconds(1)
        config.maxBackoff = .microseconds(65_535)
        let r = WorkManagerModel(config: config).request(.oneTime, backoffPolicy: .linear, backoffDelay: .microseconds(1))
        #expect(WorkManagerModel(config: config).backoff(r, attempt: 65_535) == .microseconds(65_535))
        await #expect(processExitsWith: .failure) {
            var late = WorkManagerConfig()
            late.minBackoff = .microseconds(1)
            late.maxBackoff = .microseconds(65_536)
            _ = WorkManagerModel(config: late).request(.oneTime, backoffPolicy: .linear, backoffDelay: .microseconds(1))
        }
    }

    /// 4 h interval, 1 h flex: the flex windows are [3 h, 4 h], [7 h, 8 h]…; each run is
    /// due at the start of its window, the next one interval after the run ended.
    @Test func periodicWorkWithFlexRunsInItsFlexWindow() {
        let r = model.request(.periodic(interval: .hours(4), flex: .hours(1)))
        var s = WorkSpecState(enqueuedAt: .zero)
        #expect(model.nextRunTime(r, s) == SimTime.zero + .hours(3))
        model.runFinished(r, &s, result: .success, now: SimTime.zero + .hours(3) + .minutes(2))
        #expect(model.nextRunTime(r, s) == SimTime.zero + .hours(7) + .minutes(2))
        model.runFinished(r, &s, result: .failure, now: SimTime.zero + .hours(7) + .minutes(3))
        #expect(model.nextRunTime(r, s) == SimTime.zero + .hours(11) + .minutes(3))
    }

    @Test func unflexedPeriodicWorkRunsAtOnceThenEveryInterval() {
        let r = model.request(.periodic(interval: .hours(1), flex: .hours(1)), initialDelay: .minutes(10))
        var s = WorkSpecState(enqueuedAt: .zero)
        #expect(model.nextRunTime(r, s) == SimTime.zero + .minutes(10))
        model.runFinished(r, &s, result: .success, now: SimTime.zero + .minutes(11))
        #expect(model.nextRunTime(r, s) == SimTime.zero + .minutes(71))
    }

    @Test func aDueRunWaitsForDozeToOpenAMaintenanceWindow() {
        let r = model.request(.oneTime, constraints: WorkConstraints(network: .connected))
        let s = WorkSpecState(enqueuedAt: .zero)
        let online = DeviceConditions(network: .connected, charging: false, batteryLow: false)
        let doze = DozeController()
        var d = DozeState()
        var out: [DozeTransition] = []
        doze.handle(.screen(on: false), state: &d, now: .zero, into: &out)
        #expect(model.mayRun(r, s, now: SimTime.zero + .seconds(30), conditions: online, doze: d, quotaAllows: true))
        doze.handle(.timer, state: &d, now: SimTime.zero + .minutes(1), into: &out)
        #expect(d.light == .idle)
        #expect(!model.mayRun(r, s, now: SimTime.zero + .minutes(1), conditions: online, doze: d, quotaAllows: true))
        // Android 12–14: the light alarm (window 6–7 min) does not wake the device; at
        // 6 min nothing else has, so the window opens at its end, 7 min.
        doze.handle(.timer, state: &d, now: SimTime.zero + .minutes(6), into: &out)
        #expect(d.light == .idle)
        doze.handle(.timer, state: &d, now: SimTime.zero + .minutes(7), into: &out)
        #expect(d.light == .idleMaintenance)
        #expect(model.mayRun(r, s, now: SimTime.zero + .minutes(7), conditions: online, doze: d, quotaAllows: true))
        #expect(!model.mayRun(r, s, now: SimTime.zero + .minutes(7), conditions: online, doze: d, quotaAllows: false))
        let offline = DeviceConditions(network: .notRequired, charging: false, batteryLow: false)
        #expect(!model.mayRun(r, s, now: SimTime.zero + .minutes(7), conditions: offline, doze: d, quotaAllows: true))
    }

    @Test func constraintsNetworkChargingAndBatteryNotLow() {
        let c = WorkConstraints(network: .unmetered, requiresCharging: true, requiresBatteryNotLow: true)
        #expect(model.constraintsMet(c, DeviceConditions(network: .unmetered, charging: true, batteryLow: false)))
        #expect(!model.constraintsMet(c, DeviceConditions(network: .connected, charging: true, batteryLow: false)))
        #expect(!model.constraintsMet(c, DeviceConditions(network: .unmetered, charging: false, batteryLow: false)))
        #expect(!model.constraintsMet(c, DeviceConditions(network: .unmetered, charging: true, batteryLow: true)))
        #expect(model.constraintsMet(WorkConstraints(network: .connected), DeviceConditions(network: .unmetered, charging: false, batteryLow: true)))
    }

    /// Unplugged and draining: low at 15 %, not at 15.1 %; it stays low up to 19.9 %
    /// while charging back up from a dead spot unplugged, and clears at 20 % or on plug-in.
    @Test func batteryLowFollowsThe15And20PercentHysteresis() {
        let m = BatteryLowMonitor()
        #expect(!m.isLow(levelPercent: 15.1, plugged: false, wasLow: false))
        #expect(m.isLow(levelPercent: 15, plugged: false, wasLow: false))
        #expect(m.isLow(levelPercent: 19.9, plugged: false, wasLow: true))
        #expect(!m.isLow(levelPercent: 19.9, plugged: false, wasLow: false))
        #expect(!m.isLow(levelPercent: 20, plugged: false, wasLow: true))
        #expect(!m.isLow(levelPercent: 10, plugged: true, wasLow: true))
    }

    @Test func batterySaverTurnsOnAt15PercentUnpluggedAndOffWhenPlugged() {
        let m = BatterySaverModel()
        #expect(!m.isOn(levelPercent: 15.1, plugged: false, wasOn: false))
        #expect(m.isOn(levelPercent: 15, plugged: false, wasOn: false))
        #expect(m.isOn(levelPercent: 40, plugged: false, wasOn: true))
        #expect(!m.isOn(levelPercent: 10, plugged: true, wasOn: true))
        #expect(!BatterySaverModel(autoLevelPercent: nil).isOn(levelPercent: 5, plugged: false, wasOn: false))
    }
}
