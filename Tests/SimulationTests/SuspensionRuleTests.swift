import Testing
import Scenario
import SimKernel
@testable import Simulation

/// One rule decides whether the OS may suspend the app (docs/model.md, "Suspension"),
/// and every suspension path goes through it: a foreground session's end, a task's
/// completion, a HealthKit wake's end. Each path is tried with each hold on a running
/// app out of the foreground; a path that skipped a hold would suspend the app under it.
@Suite struct SuspensionRuleTests {
    enum Hold: CaseIterable { case none, appTask, continuationTask, healthKitWake, androidJob }
    enum Path: CaseIterable { case foregroundEnds, taskCompletes, healthKitWakeEnds }

    /// One iPhone (device 0) and one Android phone (device 1), every feature, no user
    /// that swipes the app away; not yet run.
    static func world() throws -> World {
        let s = try Fixtures.decode("""
        {"name": "rule", "duration": "1d", "seed": 1,
         "fleet": [{"cohort": "i", "count": 1, "platform": "ios", "usage": {"forceQuitProbability": 0}},
                   {"cohort": "a", "count": 1, "platform": "android", "usage": {"forceQuitProbability": 0}}]}
        """)
        return World(scenario: s)
    }

    /// Whether `path` suspends the app of the device that can hold `hold`.
    static func suspends(_ path: Path, _ hold: Hold) throws -> Bool {
        var world = try world()
        let d: UInt32 = hold == .androidJob ? 1 : 0, i = Int(d)
        world.core.devices[i].process = .running
        world.core.devices[i].foregroundUntil = world.now
        switch hold {
        case .none: break
        case .appTask: world.core.devices[i].task.running = true
        case .continuationTask: world.features.continuation.slots[i].holdsBackgroundTask = true
        case .healthKitWake: world.features.stepSync.waking[i] = true
        case .androidJob: world.android.devices[Int(world.core.devices[i].androidIndex)].jobsRunning = WorkID.stepSync.bit
        }
        switch path {
        case .foregroundEnds: world.foregroundSessionEnds(d, incarnation: world.core.devices[i].incarnation)
        case .taskCompletes: world.suspendAfterTask(d, serial: world.core.devices[i].task.serial)
        case .healthKitWakeEnds: world.stepWakeEnds(d)
        }
        return world.core.devices[i].process == .suspended
    }

    /// Only an app nothing holds is suspended; the end of a HealthKit wake releases that
    /// wake's own hold, and no other.
    @Test(arguments: Path.allCases, Hold.allCases) func everyPathHonoursEveryHold(_ path: Path, _ hold: Hold) throws {
        let released = hold == .none || (hold == .healthKitWake && path == .healthKitWakeEnds)
        #expect(try Self.suspends(path, hold) == released)
    }

    /// Old iPhones with 5 minutes of background time and frequent HealthKit wakes, whose
    /// users move on from every analysis while the server takes minutes (slowed 20
    /// times): wakes end while "Move On & Notify" holds its background task. The app
    /// stays running, so the 180 s and 300 s deadlines fire and the answers inside the
    /// background time are heard: no `continuationPastDeadline`, no result lost (the
    /// wake's end suspended the app under the task before the rule was shared).
    @Test func aHealthKitWakeEndingUnderTheContinuationsTaskKeepsTheAppRunning() throws {
        for seed: UInt64 in [1, 2] {
            let s = try Fixtures.decode("""
            {"name": "wake-under-task", "duration": "1d", "seed": \(seed),
             "fleet": [{"cohort": "old", "count": 40, "platform": "ios", "features": ["stepSync", "continuation"], "signedIn": 1,
                        "battery": {"initialPercent": {"uniform": [60, 100]}},
                        "usage": {"appOpensPerDay": 8, "notificationOpenProbability": 0, "forceQuitProbability": 0},
                        "settings": {"backgroundAppRefresh": 1, "lowPowerMode": 0, "notificationPermission": {"authorized": 1}},
                        "continuation": {"startProbability": 1, "choice": {"moveOn": 1}, "backgroundTime": "5m"}}],
             "faults": [{"kind": "backendSlowdown", "at": "0s", "duration": "1d", "factor": 20}]}
            """)
            var world = World(scenario: s)
            world.runToEnd()
            #expect(world.features.continuation.metrics.timedOut > 0, "seed \(seed): no deadline reached")
            ReadableFailures.expectNoViolation(world)
        }
    }
}
