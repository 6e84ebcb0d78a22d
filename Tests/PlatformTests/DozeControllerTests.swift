import Testing
import SimKernel
@testable import Platform

/// Drives one device's `DozeController` through the kernel's way of time: inputs at
/// given instants, `.timer` at each `nextDeadline`, and records every transition.
struct DozeRun {
    let controller: DozeController
    var state: DozeState
    var now = SimTime.zero
    var log: [(SimTime, DozeTransition)] = []
    /// When true, the device has background work waiting in every maintenance window:
    /// jobs start as a window opens and are stopped as it closes.
    var busyInMaintenance = false

    init(config: DozeConfig = .init()) {
        controller = DozeController(config: config)
        state = DozeState()
    }

    mutating func send(_ input: DozeInput, at t: SimTime) {
        run(until: t)
        now = t
        apply(input)
    }

    mutating func run(until end: SimTime) {
        while let d = state.nextDeadline, d <= end {
            now = d
            apply(.timer)
        }
        now = end
    }

    private mutating func apply(_ input: DozeInput) {
        var out: [DozeTransition] = []
        controller.handle(input, state: &state, now: now, into: &out)
        for t in out { log.append((now, t)) }
        guard busyInMaintenance else { return }
        for t in out {
            switch t {
            case .deep(.idleMaintenance), .light(.idleMaintenance): applyQuiet(.jobsActive(true))
            case .deep(.idle), .light(.idle): applyQuiet(.jobsActive(false))
            default: break
            }
        }
    }

    private mutating func applyQuiet(_ input: DozeInput) {
        var out: [DozeTransition] = []
        controller.handle(input, state: &state, now: now, into: &out)
        for t in out { log.append((now, t)) }
    }

    /// The log as (seconds since start, transition) for literal comparison.
    var timeline: [Timed] { log.map { Timed(seconds: $0.0.microseconds / 1_000_000, transition: $0.1) } }
}

struct Timed: Equatable, CustomStringConvertible {
    var seconds: Int64
    var transition: DozeTransition
    init(_ seconds: Int64, _ t: DozeTransition) { self.seconds = seconds; transition = t }
    init(seconds: Int64, transition: DozeTransition) { self.seconds = seconds; self.transition = transition }
    var description: String { "\(seconds)s \(transition)" }
}

/// `docs/platform-facts.md` A: the Doze timeline of a stationary, unplugged device whose screen
/// goes off at 0, written out as literal seconds from the AOSP constants.
///
/// Android 12–14 ([DIC] @01740ef `stepLightIdleStateLocked`): the light IDLE →
/// maintenance alarm is a non-wakeup window alarm of 1, 2, 4, 8, 15 min; with nothing
/// else waking the device it opens at the window's end, or with Doze's own wakeup alarm
/// when that falls inside the window (deep SENSING at 3,600 s below).
@Suite struct DozeTimelineTests {
    /// Every maintenance window has work, so each lasts its whole length: light budget
    /// 1 min; light idle 5 (+1 flex), 10 (+2), 15 (+4) min, then cut short by deep
    /// SENSING's alarm at 3,600 s inside the 15 (+8) min window; deep IDLE at 30 + 30 min
    /// + 10 s AnyMotion + 30 s LOCATING = 1:00:40; deep idle 1 h, 2 h, 4 h, 6 h, 6 h
    /// with maintenance windows of 5 then 10 min (deep alarms wake the device: at their
    /// window's start).
    @Test func stationaryScreenOffDeviceWithWorkFollowsTheAOSPConstantsFor24Hours() {
        var run = DozeRun()
        run.busyInMaintenance = true
        run.send(.screen(on: false), at: .zero)
        run.run(until: SimTime.zero + .hours(24))
        #expect(run.timeline == [
            Timed(0, .deep(.inactive)), Timed(0, .light(.inactive)),
            Timed(60, .light(.idle)),                    // 1 min after-inactive
            Timed(420, .light(.idleMaintenance)),        // + 5 min idle + 1 min flex
            Timed(480, .light(.idle)),                   // + 1 min budget
            Timed(1_200, .light(.idleMaintenance)),      // + 10 min + 2 min flex
            Timed(1_260, .light(.idle)),
            Timed(1_800, .deep(.idlePending)),           // 30 min INACTIVE_TIMEOUT
            Timed(2_400, .light(.idleMaintenance)),      // + 15 min (cap) + 4 min flex
            Timed(2_460, .light(.idle)),
            Timed(3_600, .deep(.sensing)),               // + 30 min IDLE_AFTER_INACTIVE
            Timed(3_600, .light(.idleMaintenance)),      // window 3,360–3,840 s: woken by SENSING's alarm
            Timed(3_610, .deep(.locating)),              // + 10 s AnyMotion
            Timed(3_640, .deep(.idle)), Timed(3_640, .light(.override)), // + 30 s LOCATING
            Timed(7_240, .deep(.idleMaintenance)),       // + 1 h
            Timed(7_540, .deep(.idle)),                  // + 5 min
            Timed(14_740, .deep(.idleMaintenance)),      // + 2 h
            Timed(15_340, .deep(.idle)),                 // + 10 min
            Timed(29_740, .deep(.idleMaintenance)),      // + 4 h
            Timed(30_340, .deep(.idle)),                 // + 10 min
            Timed(51_940, .deep(.idleMaintenance)),      // + 6 h
            Timed(52_540, .deep(.idle)),                 // + 10 min
            Timed(74_140, .deep(.idleMaintenance)),      // + 6 h (cap)
            Timed(74_740, .deep(.idle)),                 // + 10 min; next maintenance at 96_340 > 24 h
        ])
    }

    /// No work: each window closes at its minimum, 5 s light and 30 s deep. The light
    /// budget's unused 55 s a window is carried forward (it does not lengthen idle).
    @Test func stationaryScreenOffDeviceWithoutWorkClosesEachWindowAtItsMinimum() {
        var run = DozeRun()
        run.send(.screen(on: false), at: .zero)
        run.run(until: SimTime.zero + .hours(24))
        #expect(run.timeline == [
            Timed(0, .deep(.inactive)), Timed(0, .light(.inactive)),
            Timed(60, .light(.idle)),
            Timed(420, .light(.idleMaintenance)), Timed(425, .light(.idle)),     // 5 + 1 min
            Timed(1_145, .light(.idleMaintenance)), Timed(1_150, .light(.idle)), // 10 + 2 min
            Timed(1_800, .deep(.idlePending)),
            Timed(2_290, .light(.idleMaintenance)), Timed(2_295, .light(.idle)), // 15 + 4 min
            Timed(3_600, .deep(.sensing)),
            Timed(3_600, .light(.idleMaintenance)), Timed(3_605, .light(.idle)), // woken at 3,600
            Timed(3_610, .deep(.locating)),
            Timed(3_640, .deep(.idle)), Timed(3_640, .light(.override)),
            Timed(7_240, .deep(.idleMaintenance)), Timed(7_270, .deep(.idle)),   // 1 h, 30 s
            Timed(14_470, .deep(.idleMaintenance)), Timed(14_500, .deep(.idle)), // 2 h
            Timed(28_900, .deep(.idleMaintenance)), Timed(28_930, .deep(.idle)), // 4 h
            Timed(50_530, .deep(.idleMaintenance)), Timed(50_560, .deep(.idle)), // 6 h
            Timed(72_160, .deep(.idleMaintenance)), Timed(72_190, .deep(.idle)), // 6 h
        ])
    }

    /// Android 15 (muhomorr/platform_frameworks_base-15 @0898a28): light after-inactive
    /// 4 min, and the light alarm wakes the device, so each window opens at its start.
    @Test func android15StationaryScreenOffDeviceWithWork() {
        var run = DozeRun(config: DozeConfig(version: .android15))
        run.busyInMaintenance = true
        run.send(.screen(on: false), at: .zero)
        run.run(until: SimTime.zero + .seconds(3_700))
        #expect(run.timeline == [
            Timed(0, .deep(.inactive)), Timed(0, .light(.inactive)),
            Timed(240, .light(.idle)),                   // 4 min after-inactive
            Timed(540, .light(.idleMaintenance)),        // + 5 min
            Timed(600, .light(.idle)),
            Timed(1_200, .light(.idleMaintenance)),      // + 10 min
            Timed(1_260, .light(.idle)),
            Timed(1_800, .deep(.idlePending)),
            Timed(2_160, .light(.idleMaintenance)),      // + 15 min
            Timed(2_220, .light(.idle)),
            Timed(3_120, .light(.idleMaintenance)),      // + 15 min
            Timed(3_180, .light(.idle)),
            Timed(3_600, .deep(.sensing)),
            Timed(3_610, .deep(.locating)),
            Timed(3_640, .deep(.idle)), Timed(3_640, .light(.override)),
        ])
    }

    /// Android 15 without location prefetch: SENSING steps through LOCATING into IDLE at
    /// once (`stepIdleStateLocked`, `mIsLocationPrefetchEnabled` false); on a small-battery
    /// device INACTIVE and IDLE_AFTER_INACTIVE are 1 min each.
    @Test func android15SmallBatteryWithoutLocationPrefetch() {
        var config = DozeConfig(version: .android15, smallBattery: true)
        config.locationPrefetch = false
        var run = DozeRun(config: config)
        run.send(.screen(on: false), at: .zero)
        run.run(until: SimTime.zero + .seconds(200))
        #expect(run.timeline.filter { if case .deep = $0.transition { return true } else { return false } } == [
            Timed(0, .deep(.inactive)),
            Timed(60, .deep(.idlePending)),
            Timed(120, .deep(.sensing)),
            Timed(130, .deep(.locating)), Timed(130, .deep(.idle)),
        ])
        #expect(DozeConfig(version: .android14, smallBattery: true).inactiveTimeout == .minutes(15))
        #expect(DozeConfig(version: .android14) == DozeConfig())
    }

    /// `advance(through:)`, which the world uses while nothing waits on Doze: a day run
    /// in one call, each step at its own deadline, with motion at 5 h and the screen on
    /// at 20 h sent late (the steps before them first), ends in the state and with the
    /// transitions of one `.timer` at every deadline, on both constant sets.
    @Test(arguments: [AndroidVersion.android14, .android15])
    func advancingInOneCallIsOneTimerPerDeadline(version: AndroidVersion) {
        let config = DozeConfig(version: version)
        var stepped = DozeRun(config: config)
        stepped.send(.screen(on: false), at: .zero)
        stepped.send(.motion, at: .zero + .hours(5))
        stepped.send(.screen(on: true), at: .zero + .hours(20))
        stepped.run(until: .zero + .hours(24))
        let controller = DozeController(config: config)
        var state = DozeState()
        var out: [DozeTransition] = []
        controller.handle(.screen(on: false), state: &state, now: .zero, into: &out)
        for (input, at) in [(DozeInput.motion, SimTime.zero + .hours(5)), (.screen(on: true), .zero + .hours(20))] {
            controller.handle(.timer, state: &state, now: at, into: &out)
            controller.handle(input, state: &state, now: at, into: &out)
        }
        controller.advance(&state, through: .zero + .hours(24), into: &out)
        #expect(out.count > 20)
        #expect(out == stepped.log.map(\.1))
        #expect(state == stepped.state)
    }

    /// The sensing timeout (`mSensingTimeoutAlarmListener`) only calls
    /// `becomeInactiveIfAppropriateLocked`, which does nothing in SENSING: the device
    /// stays there until AnyMotion answers (here after 5 min, past the 4 min timeout).
    @Test func theSensingTimeoutLeavesTheDeviceInSensing() {
        var config = DozeConfig()
        config.anyMotionCheck = .minutes(5)
        var run = DozeRun(config: config)
        run.send(.screen(on: false), at: .zero)
        run.run(until: SimTime.zero + .seconds(3_600 + 240))
        #expect(run.state.deep == .sensing)
        run.run(until: SimTime.zero + .seconds(3_600 + 300))
        #expect(run.timeline.filter { if case .deep = $0.transition { return true } else { return false } }.suffix(2) == [
            Timed(3_600, .deep(.sensing)), Timed(3_900, .deep(.locating)),
        ])
    }
}

/// `MIN_TIME_TO_ALARM` (docs/platform-facts.md A: 30 min) and `isUpcomingAlarmClock`
/// (`now + MIN_TIME_TO_ALARM >= getNextWakeFromIdleTime()`, [DIC] @01740ef and
/// @0898a28): deep Doze does not step on with a wake-from-idle alarm due within 30 min,
/// 30 min included; it goes ACTIVE and INACTIVE again, and `becomeInactiveIfAppropriateLocked`
/// then sets its step alarm to (alarm − now) + `INACTIVE_TIMEOUT`.
@Suite struct DozeMinTimeToAlarmTests {
    /// Screen off at 0 with an alarm clock set; the alarm fires at `cleared` (the next
    /// one is none); deep transitions up to `until` seconds.
    func deepTimeline(alarmAt alarm: Int64, clearedAt cleared: Int64, until: Int64 = 7_300, quickDoze: Bool = false) -> [Timed] {
        var run = DozeRun()
        run.send(.nextWakeFromIdleAlarm(SimTime.zero + .seconds(alarm)), at: .zero)
        if quickDoze { run.send(.quickDoze(true), at: .zero) }
        run.send(.screen(on: false), at: .zero)
        if cleared <= until { run.send(.nextWakeFromIdleAlarm(nil), at: SimTime.zero + .seconds(cleared)) }
        run.run(until: SimTime.zero + .seconds(until))
        return run.timeline.filter { if case .deep = $0.transition { return true } else { return false } }
    }

    /// The alarm at 59:59 is 29:59 away when INACTIVE ends at 30 min: ACTIVE, INACTIVE
    /// again until the alarm + 30 min (1:29:59), then the usual progression.
    @Test func anAlarm29MinutesAwayHoldsDeepDozeBackUntilItPlus30Minutes() {
        #expect(deepTimeline(alarmAt: 1_800 + 1_799, clearedAt: 3_599) == [
            Timed(0, .deep(.inactive)),
            Timed(1_800, .deep(.active)), Timed(1_800, .deep(.inactive)),
            Timed(5_399, .deep(.idlePending)),
            Timed(7_199, .deep(.sensing)), Timed(7_209, .deep(.locating)), Timed(7_239, .deep(.idle)),
        ])
    }

    /// Exactly 30 min away is upcoming too (`>=`): held back, INACTIVE until 1:30.
    @Test func anAlarmExactly30MinutesAwayHoldsItBackToo() {
        #expect(deepTimeline(alarmAt: 1_800 + 1_800, clearedAt: 3_600, until: 5_400) == [
            Timed(0, .deep(.inactive)),
            Timed(1_800, .deep(.active)), Timed(1_800, .deep(.inactive)),
            Timed(5_400, .deep(.idlePending)),
        ])
    }

    /// 30 min 1 s away does not: IDLE_PENDING at 30 min. At 60 min the alarm is 1 s away
    /// and the step to SENSING is held: INACTIVE until the alarm + 30 min.
    @Test func anAlarm30MinutesAnd1SecondAwayDoesNot() {
        #expect(deepTimeline(alarmAt: 1_800 + 1_801, clearedAt: 3_601, until: 5_401) == [
            Timed(0, .deep(.inactive)),
            Timed(1_800, .deep(.idlePending)),
            Timed(3_600, .deep(.active)), Timed(3_600, .deep(.inactive)),
            Timed(5_401, .deep(.idlePending)),
        ])
    }

    /// An alarm clock 20 min after the screen goes off: INACTIVE lasts until 20 + 30 min,
    /// not 30 min.
    @Test func screenOffWithAnUpcomingAlarmClockWaitsPastIt() {
        #expect(deepTimeline(alarmAt: 1_200, clearedAt: 1_200, until: 3_000) == [
            Timed(0, .deep(.inactive)),
            Timed(3_000, .deep(.idlePending)),
        ])
    }

    /// With Quick Doze the delay is the alarm + `QUICK_DOZE_DELAY_TIMEOUT` (1 min).
    @Test func quickDozeWithAnUpcomingAlarmClockWaitsOneMinutePastIt() {
        #expect(deepTimeline(alarmAt: 1_200, clearedAt: 1_200, until: 1_260, quickDoze: true) == [
            Timed(0, .deep(.quickDozeDelay)),
            Timed(1_260, .deep(.idle)),
        ])
    }

    /// The state keeps Doze's growing delays as steps (docs/performance.md#memory-per-device): the
    /// progressions hold AOSP's values (`docs/platform-facts.md` A: IDLE 1, 2, 4, 6 h;
    /// maintenance 5, 10 min; light IDLE 5, 10, 15 min with windows of 1, 2, 4, 8, 15
    /// min), zero first; a step past the cap stays there, and a reset's zero steps to the
    /// first value (deep, `max(IDLE_TIMEOUT, …)`) or stays zero (light, `min(…)`).
    @Test func delaysAreStepsOfTheirProgressions() {
        let c = DozeController()
        #expect(c.idleDelays.values == [.zero, .hours(1), .hours(2), .hours(4), .hours(6)])
        #expect(c.idlePendingDelays.values == [.zero, .minutes(5), .minutes(10)])
        #expect(c.lightIdleDelays.values == [.zero, .minutes(5), .minutes(10), .minutes(15)])
        #expect(c.lightIdleFlexes.values == [.zero, .minutes(1), .minutes(2), .minutes(4), .minutes(8), .minutes(15)])
        #expect(c.idleDelays.after(0) == 1 && c.idlePendingDelays.after(0) == 1)
        #expect(c.lightIdleDelays.after(0) == 0 && c.lightIdleFlexes.after(0) == 0)
        #expect(c.idleDelays.after(3) == 4 && c.idleDelays.after(4) == 4 && c.idleDelays[4] == .hours(6))
        // Two progressions share the light step: past its last, each reads its last.
        #expect(c.lightIdleDelays[5] == .minutes(15) && c.lightIdleFlexes[5] == .minutes(15))
        #expect(MemoryLayout<DozeState>.stride == 96)
    }

    /// The longest progression a factor of 2 allows: from 1 µs to a cap of 2^61 µs, 61
    /// doublings, the first value and zero, 63 values; each step's delay is the one the
    /// rule gives. A cap of 2^62 µs is refused: doubled, it wraps past Int64 and the
    /// delay would start over, which no step can store.
    @Test func aProgressionFromOneMicrosecondToTwoToTheSixtyFirst() async {
        var config = DozeConfig()
        config.idleTimeout = .microseconds(1)
        config.maxIdleTimeout = .microseconds(1 << 61)
        let c = DozeController(config: config)
        #expect(c.idleDelays.values.count == 63)
        var step: UInt8 = 0, delay = SimDuration.zero
        for _ in 0..<70 {
            #expect(c.idleDelays[step] == delay)
            step = c.idleDelays.after(step)
            delay = max(config.idleTimeout, min(delay * config.idleFactor, config.maxIdleTimeout))
        }
        #expect(step == 62 && delay == .microseconds(1 << 61))
        await #expect(processExitsWith: .failure) {
            var wraps = DozeConfig()
            wraps.maxIdleTimeout = .microseconds(1 << 62)
            wraps.idleTimeout = .microseconds(1)
            _ = DozeController(config: wraps)
        }
    }
}
