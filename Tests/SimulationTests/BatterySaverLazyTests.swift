import Testing
import Platform
import SimKernel
import Scenario
@testable import Simulation

/// Battery Saver holds due work whatever Doze does (OS/Android/AndroidHost+WorkManager,
/// `batterySaverHoldsWork`): in a lazy world an attempt under it stops before the gates
/// and its due work does not wait on Doze. The lazy world must be the eager one
/// (`lazyDoze` off: every attempt through the gates, every Doze step an event) in
/// everything but its event count and hashes, including the instant Battery Saver's end
/// releases the work.
@Suite struct BatterySaverLazyTests {
    /// The default fleet for three days with Battery Saver on a third of the Android
    /// phones all along and on half of them from 6 h to 30 h (a fault), so that it ends
    /// with work due on many.
    static func scenario() throws -> Scenario {
        var scenario = try Fixtures.scenario("scenarios/default.json").scaled(by: 0.02)
        scenario.duration = .days(3)
        for k in scenario.fleet.indices where scenario.fleet[k].platform == .android {
            scenario.fleet[k].settings.lowPowerMode = 1.0 / 3
        }
        scenario.faults.append(Fault(kind: .lowPowerMode, at: .hours(6), duration: .hours(24), cohort: nil, fraction: 0.5))
        return scenario
    }

    /// What an attempt moves on one Android phone: Doze, both works' schedules and
    /// deferrals, and whether each runs.
    struct Look: Equatable {
        var doze: DozeState
        var refresh: Slot
        var steps: Slot
        var jobsRunning: UInt8
        var refreshRunning: Bool

        struct Slot: Equatable {
            var spec: WorkSpecState
            var enqueued: Bool
            var deferredSince: SimTime?
            var stoppedAt: SimTime?
            init(_ slot: AndroidWorkSlot) {
                spec = slot.spec
                enqueued = slot.enqueued
                deferredSince = slot.deferredSince
                stoppedAt = slot.stoppedAt
            }
        }

        init(_ world: World, _ d: Int) {
            let device = world.android.devices[world.androidIndex(UInt32(d))]
            doze = device.doze
            refresh = Slot(device[.refresh])
            steps = Slot(device[.stepSync])
            jobsRunning = device.jobsRunning
            refreshRunning = world.core.devices[d].task.running
        }

        /// The first of `devices` that looks different in `a` and in `b`. (The worlds come
        /// in as arguments: a closure over the test's `var`s copied both whole for every
        /// device at every look, a quarter of the test's time in a debug build.)
        static func firstDifference(_ a: World, _ b: World, among devices: [Int]) -> Int? {
            devices.first { Look(a, $0) != Look(b, $0) }
        }
    }

    /// Every Android phone in lock step every 10 s: each looks the same in the lazy world
    /// as in the eager one at every look (Battery Saver's phones among them, before, under
    /// and after it), both report the same figures, and work due under Battery Saver is
    /// seen (so the rule is exercised) and released when it ends.
    @Test func workHeldByBatterySaverRunsAsWhenEveryAttemptGoesThroughTheGates() throws {
        var (eager, lazy) = LazyDozeTests.pair(try Self.scenario())
        let androids = eager.core.devices.indices.filter { eager.core.devices[$0].isAndroid }
        var t = SimTime.zero
        var firstDifference: (SimTime, Int)?
        var heldLooks = 0
        while t < eager.end, firstDifference == nil {
            t = t + .seconds(10)
            eager.run(until: t)
            lazy.run(until: t)
            if let d = Look.firstDifference(eager, lazy, among: androids) { firstDifference = (t, d) }
            for d in androids where lazy.core.devices[d].lowPowerMode {
                let a = lazy.androidIndex(UInt32(d))
                if lazy.android.workIsDue(UInt32(d), a, .refresh, core: &lazy.core) || lazy.android.workIsDue(UInt32(d), a, .stepSync, core: &lazy.core) { heldLooks += 1 }
            }
        }
        #expect(firstDifference == nil, "device \(firstDifference?.1 ?? -1) differs before \(firstDifference?.0 ?? .zero)")
        #expect(heldLooks > 1_000)
        #expect(try LazyDozeTests.figures(lazy) == LazyDozeTests.figures(eager))
        #expect(lazy.eventsProcessed < eager.eventsProcessed)
    }

    /// The rule's boundary: a due work under Battery Saver does not wait on Doze, and
    /// the same work waits again the moment Battery Saver is off.
    @Test func dueWorkWaitsOnDozeOnlyWithoutBatterySaver() throws {
        var world = World(scenario: try Self.scenario())
        world.run(until: SimTime.zero + .hours(5))
        var held: Int?
        for d in world.core.devices.indices where world.core.devices[d].isAndroid && world.core.devices[d].lowPowerModeSetting {
            let a = world.androidIndex(UInt32(d))
            let device = world.android.devices[a]
            if !device.alarmHeld, !device.fcmWaiting, !device.forceStopped, world.android.workIsDue(UInt32(d), a, .stepSync, core: &world.core) { held = d; break }
        }
        let d = try #require(held)
        let a = world.androidIndex(UInt32(d))
        let underBatterySaver = world.android.dozeWatched(UInt32(d), a, core: &world.core)
        world.core.devices[d].lowPowerModeSetting = false
        let without = world.android.dozeWatched(UInt32(d), a, core: &world.core)
        world.android.lazyDoze = false
        world.core.devices[d].lowPowerModeSetting = true
        let eager = world.android.dozeWatched(UInt32(d), a, core: &world.core)
        #expect(!underBatterySaver)
        #expect(without)
        #expect(eager)
    }
}
