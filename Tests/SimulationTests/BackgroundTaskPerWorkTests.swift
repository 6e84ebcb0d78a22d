import Testing
import Scenario
import SimKernel
import Platform
@testable import Simulation

/// iOS keeps the app's background task requests per identifier, one identifier per work
/// (OS/iOS/WorldCore+BGTaskScheduler.swift, docs/platform-facts.md F): a submit
/// replaces only its own identifier's pending request, a cancel drops only its own, at
/// most one refresh request is pending across identifiers, and the task a request
/// launches is held by its work, which hears it and is booked its time and energy.
@Suite struct BackgroundTaskPerWorkTests {
    /// One iPhone running every feature (device 0), not yet run: the refresh's request
    /// is pending from before the run.
    static func world(features: String = "") throws -> World {
        let s = try Fixtures.decode("""
        {"name": "per-work", "duration": "3d", "seed": 3,
         "fleet": [{"cohort": "i", "count": 1, "platform": "ios", \(features)
                    "settings": {"backgroundAppRefresh": 1, "lowPowerMode": 0}, "signedIn": 1,
                    "usage": {"forceQuitProbability": 0}}]}
        """)
        return World(scenario: s)
    }

    static func generation(_ world: World, _ work: WorkID) -> UInt32 {
        world.core.requests(0).generations[Int(work.rawValue)]
    }

    static func bgProcessingTask(_ world: World) -> PeriodicWork {
        PeriodicWork(interval: .hours(6), constraints: [], iosKind: .bgProcessingTask)
    }

    @Test func twoWorksHoldPendingRequestsAtOnceAndEachSubmitOrCancelTouchesOnlyItsOwn() throws {
        var world = try Self.world()
        #expect(world.taskRequestPending(0, .refresh))
        #expect(!world.taskRequestPending(0, .stepSync))
        let refresh = Self.generation(world, .refresh)

        // The step sync's processing request beside the refresh's refresh request.
        world.submitTask(0, .stepSync, Self.bgProcessingTask(world), earliestBegin: world.now + .hours(1))
        let step = Self.generation(world, .stepSync)
        #expect(world.taskRequestPending(0, .refresh) && world.taskRequestPending(0, .stepSync))
        #expect(Self.generation(world, .refresh) == refresh)

        // Its submit again replaces its own request: its earlier looks are stale, the
        // refresh's still count.
        world.submitTask(0, .stepSync, Self.bgProcessingTask(world), earliestBegin: world.now + .hours(2))
        #expect(!world.core.bgTaskRequestPending(0, generation: step))
        #expect(world.core.bgTaskRequestPending(0, generation: Self.generation(world, .stepSync)))
        #expect(world.core.bgTaskRequestPending(0, generation: refresh))

        // Its cancel drops its own request only.
        world.cancelTask(0, .stepSync)
        #expect(!world.taskRequestPending(0, .stepSync))
        #expect(world.taskRequestPending(0, .refresh) && world.core.bgTaskRequestPending(0, generation: refresh))

        // The refresh's submit leaves a pending step-sync request alone.
        world.submitTask(0, .stepSync, Self.bgProcessingTask(world), earliestBegin: world.now + .hours(1))
        let stepAgain = Self.generation(world, .stepSync)
        world.submitTask(0, .refresh, world.featureWorkRequest(.refresh), earliestBegin: world.now + .hours(4))
        #expect(world.core.bgTaskRequestPending(0, generation: stepAgain))
        #expect(!world.core.bgTaskRequestPending(0, generation: refresh))
        #expect(world.taskRequestPending(0, .refresh))
    }

    @Test func aSecondRefreshRequestIsRefusedWhileAnotherIdentifierHoldsOne() throws {
        var world = try Self.world()
        let refresh = Self.generation(world, .refresh)
        world.submitTask(0, .stepSync, world.featureWorkRequest(.stepSync), earliestBegin: world.now + .hours(1))
        #expect(!world.taskRequestPending(0, .stepSync), "tooManyPendingTaskRequests")
        #expect(world.core.bgTaskRequestPending(0, generation: refresh))
        // Once the refresh's is cancelled, the step sync's refresh request is accepted.
        world.cancelTask(0, .refresh)
        world.submitTask(0, .stepSync, world.featureWorkRequest(.stepSync), earliestBegin: world.now + .hours(1))
        #expect(world.taskRequestPending(0, .stepSync))
    }

    /// A cohort with the step sync and no refresh: its request is under the step sync's
    /// identifier from before the run, each task launched is the step sync's, which
    /// submits its next request under its own identifier, and no task is booked to the
    /// refresh's time or energy.
    @Test func theStepSyncHoldsItsOwnTaskWhereNoRefreshRuns() throws {
        var world = try Self.world(features: #""features": ["stepSync"],"#)
        #expect(world.taskRequestPending(0, .stepSync) && !world.taskRequestPending(0, .refresh))
        world.runToEnd()
        #expect(world.core.devices[0].launches > 0)
        #expect(world.taskHolder(0) == .stepSync)
        #expect(!world.taskRequestPending(0, .refresh))
        #expect(world.features.refresh.metrics.energy[0].count == 0)
        #expect(world.features.refresh.metrics.taskDuration.whole.count == 0)
    }
}
