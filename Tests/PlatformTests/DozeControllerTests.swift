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
        state = DozeState(config: config)
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

/// `REFERENCE.md` A: the Doze timeline of a stationary, unplugged device whose screen
/// goes off at 0, written out as literal seconds from the AOSP constants.
@Suite struct DozeTimelineTests {
    /// Every maintenance window has work, so each lasts its whole length: light budget
    /// 1 min; light idle 5, 10, 15, 15 min; deep IDLE at 30 + 30 min + 10 s AnyMotion +
    /// 30 s LOCATING = 1:00:40; deep idle 1 h, 2 h, 4 h, 6 h, 6 h with maintenance
    /// windows of 5 then 10 min.
    @Test func stationaryScreenOffDeviceWithWorkFollowsTheAOSPConstantsFor24Hours() {
        var run = DozeRun()
        run.busyInMaintenance = true
        run.send(.screen(on: false), at: .zero)
        run.run(until: SimTime.zero + .hours(24))
        #expect(run.timeline == [
            Timed(0, .deep(.inactive)), Timed(0, .light(.inactive)),
            Timed(60, .light(.idle)),                    // 1 min after-inactive
            Timed(360, .light(.idleMaintenance)),        // + 5 min idle
            Timed(420, .light(.idle)),                   // + 1 min budget
            Timed(1_020, .light(.idleMaintenance)),      // + 10 min
            Timed(1_080, .light(.idle)),
            Timed(1_800, .deep(.idlePending)),           // 30 min INACTIVE_TIMEOUT
            Timed(1_980, .light(.idleMaintenance)),      // + 15 min (cap)
            Timed(2_040, .light(.idle)),
            Timed(2_940, .light(.idleMaintenance)),      // + 15 min
            Timed(3_000, .light(.idle)),
            Timed(3_600, .deep(.sensing)),               // + 30 min IDLE_AFTER_INACTIVE
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
            Timed(360, .light(.idleMaintenance)), Timed(365, .light(.idle)),
            Timed(965, .light(.idleMaintenance)), Timed(970, .light(.idle)),     // 10 min
            Timed(1_800, .deep(.idlePending)),
            Timed(1_870, .light(.idleMaintenance)), Timed(1_875, .light(.idle)), // 15 min
            Timed(2_775, .light(.idleMaintenance)), Timed(2_780, .light(.idle)),
            Timed(3_600, .deep(.sensing)),
            Timed(3_610, .deep(.locating)),
            Timed(3_640, .deep(.idle)), Timed(3_640, .light(.override)),
            Timed(7_240, .deep(.idleMaintenance)), Timed(7_270, .deep(.idle)),   // 1 h, 30 s
            Timed(14_470, .deep(.idleMaintenance)), Timed(14_500, .deep(.idle)), // 2 h
            Timed(28_900, .deep(.idleMaintenance)), Timed(28_930, .deep(.idle)), // 4 h
            Timed(50_530, .deep(.idleMaintenance)), Timed(50_560, .deep(.idle)), // 6 h
            Timed(72_160, .deep(.idleMaintenance)), Timed(72_190, .deep(.idle)), // 6 h
        ])
    }
}

/// `MIN_TIME_TO_ALARM` (REFERENCE.md A: 30 min): deep Doze does not step on with a
/// wake-from-idle alarm due sooner; it goes ACTIVE and INACTIVE again.
@Suite struct DozeMinTimeToAlarmTests {
    /// Screen off at 0 with an alarm clock set; the alarm fires at `cleared` (the next
    /// one is none); deep transitions up to `until` seconds.
    func deepTimeline(alarmAt alarm: Int64, clearedAt cleared: Int64, until: Int64 = 7_200) -> [Timed] {
        var run = DozeRun()
        run.send(.nextWakeFromIdleAlarm(SimTime.zero + .seconds(alarm)), at: .zero)
        run.send(.screen(on: false), at: .zero)
        if cleared <= until { run.send(.nextWakeFromIdleAlarm(nil), at: SimTime.zero + .seconds(cleared)) }
        run.run(until: SimTime.zero + .seconds(until))
        return run.timeline.filter { if case .deep = $0.transition { return true } else { return false } }
    }

    /// The alarm at 55 min is 25 min away when INACTIVE ends at 30 min: back to
    /// INACTIVE for another 30 min; the alarm fires (and is cleared) at 55 min.
    @Test func anAlarm29MinutesAwayHoldsDeepDozeBack() {
        #expect(deepTimeline(alarmAt: 1_800 + 1_799, clearedAt: 3_599) == [
            Timed(0, .deep(.inactive)),
            Timed(1_800, .deep(.active)), Timed(1_800, .deep(.inactive)),
            Timed(3_600, .deep(.idlePending)),
            Timed(5_400, .deep(.sensing)), Timed(5_410, .deep(.locating)), Timed(5_440, .deep(.idle)),
        ])
    }

    /// Exactly 30 min away does not hold it back: IDLE_PENDING at 30 min. (At 60 min the
    /// alarm is due now, and the next step would be held; the timeline stops before.)
    @Test func anAlarm30MinutesAwayDoesNot() {
        #expect(deepTimeline(alarmAt: 1_800 + 1_800, clearedAt: 3_600, until: 3_599) == [
            Timed(0, .deep(.inactive)),
            Timed(1_800, .deep(.idlePending)),
        ])
    }
}

