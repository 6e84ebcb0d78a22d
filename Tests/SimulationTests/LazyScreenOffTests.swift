import Testing
import Platform
import Reports
import SimKernel
import Scenario
@testable import Simulation

/// Lazy screen-offs (OS/Android/AndroidHost+Screen, docs/android.md "Lazy screen-offs"): a
/// screen-off nothing waits on is settled at its own instant when the device's Android
/// state is next read, instead of as its own event. A lazy world must be the eager one
/// (`lazyScreenOffs` off: one event per screen-off) in everything but its event count
/// and hashes.
@Suite struct LazyScreenOffTests {
    /// Every Android phone of the default fleet (80 of 200) in lock step every 10 s for
    /// three days: each looks the same in the lazy world as in the eager one at every
    /// look, and no owed screen-off is left while something waits on Doze (it would
    /// have released that). The lazy world runs at least a twentieth fewer events.
    @Test func everyPhoneLooksAsWhenEachScreenOffIsAnEvent() throws {
        try LazyScreen.lockStep(eagerWhenOff: \.lazyScreenOffs, owing: .screenOff)
    }

    /// Whole runs, as `fleetsim run` makes them: the default fleet, the hostile one
    /// (clock jumps, outages, jetsam, FCM errors) and a clock scenario report the same
    /// figures either way.
    @Test(arguments: LazyScreen.wholeRuns)
    func aLazyRunReportsTheEagerRunsFigures(file: String, scale: Double) throws {
        try LazyScreen.wholeRun(file, scale, eagerWhenOff: \.lazyScreenOffs)
    }
}

/// What the lazy screen tests share (``LazyScreenOffTests``, ``LazyScreenSessionTests``):
/// an eager world (one of ``AndroidHost``'s lazy switches off) beside the lazy one, run in
/// lock step or whole.
enum LazyScreen {
    static let wholeRuns = [("scenarios/default.json", SharedRuns.defaultScale), ("scenarios/hostile.json", SharedRuns.hostileScale),
                            ("scenarios/clocks/jumps.json", 1.0)]

    static func pair(_ scenario: Scenario, eagerWhenOff flag: WritableKeyPath<AndroidHost, Bool>) -> (eager: World, lazy: World) {
        var eager = World(scenario: scenario)
        eager.android[keyPath: flag] = false
        return (eager, World(scenario: scenario))
    }

    /// What a session and a screen-off move on one Android phone: the screen and the
    /// stream that draws the sessions, the bucket's history and screen-on clock (the
    /// phone's only one), the bucket last seen and the next moment it can change, and Doze.
    struct Look: Equatable {
        var isOn: Bool
        var onUntil: SimTime
        var screenStream: StreamPosition
        var bucket: StandbyBucketState
        var lastBucket: StandbyBucket
        var bucketCheckAt: SimTime?
        var doze: DozeState

        init(_ world: World, _ a: Int) {
            let device = world.android.devices[a]
            isOn = device.screen.isOn
            onUntil = device.screen.onUntil
            screenStream = device.screenStream
            bucket = device.bucket
            lastBucket = device.lastBucket
            bucketCheckAt = device.bucketCheckAt
            doze = device.doze
        }

        /// The first Android phone that looks different in `a` and in `b`. (The worlds
        /// come in as arguments, as in ``BatterySaverLazyTests``, where a closure over the
        /// test's `var`s copied both worlds whole for every phone at every look.)
        static func firstDifference(_ a: World, _ b: World) -> Int? {
            a.android.devices.indices.first { Look(a, $0) != Look(b, $0) }
        }
    }

    /// What ``AndroidHost/dozeWatched(_:_:core:)`` asks, for what waits since before the look: a work
    /// due at the look's instant itself has its check pending then.
    static func waitsBefore(_ world: inout World, _ d: Int, _ a: Int) -> Bool {
        let device = world.android.devices[a]
        if device.alarmHeld { return true }
        if device.forceStopped { return false }
        if device.fcmWaiting && world.core.devices[d].online { return true }
        // Battery Saver holds due work whatever Doze does.
        if world.core.devices[d].lowPowerMode { return false }
        let due = WorkID.allCases.compactMap { world.android.workDueAt(UInt32(d), a, $0, core: &world.core) }
        return due.contains { $0 < world.now }
    }

    /// Every Android phone of the default fleet (80 of 200) in lock step every 10 s for
    /// three days, eager (`flag` off) and lazy: each looks the same in both at every look
    /// (each look settles what is owed before it, as `run(until:)` does); `owing` is owed
    /// at some looks, never while something waits on Doze nor where `forbidden` says; the
    /// figures are the same and the lazy world runs at least a twentieth fewer events.
    static func lockStep(eagerWhenOff flag: WritableKeyPath<AndroidHost, Bool>, owing: AndroidOwed,
                         forbidden: (AndroidDevice) -> Bool = { _ in false }) throws {
        var scenario = try Fixtures.scenario("scenarios/default.json").scaled(by: 0.02)
        scenario.duration = .days(3)
        var (eager, lazy) = pair(scenario, eagerWhenOff: flag)
        #expect(eager.android.devices.count == 80)
        var t = SimTime.zero
        var firstDifference: (SimTime, Int)?
        var waitedOn: (SimTime, Int)?
        var forbiddenAt: (SimTime, Int)?
        var owedLooks = 0
        while t < eager.end, firstDifference == nil, waitedOn == nil, forbiddenAt == nil {
            t = t + .seconds(10)
            eager.run(until: t)
            lazy.run(until: t)
            if let a = Look.firstDifference(eager, lazy) { firstDifference = (t, a) }
            for d in lazy.core.devices.indices where lazy.core.devices[d].isAndroid {
                let a = lazy.androidIndex(UInt32(d))
                guard lazy.android.devices[a].owed.contains(owing) else { continue }
                owedLooks += 1
                if waitsBefore(&lazy, d, a) { waitedOn = (t, a) }
                if forbidden(lazy.android.devices[a]) { forbiddenAt = (t, a) }
            }
        }
        #expect(firstDifference == nil, "Android device \(firstDifference?.1 ?? -1) differs before \(firstDifference?.0 ?? .zero)")
        #expect(waitedOn == nil, "Android device \(waitedOn?.1 ?? -1) owes \(owing) at \(waitedOn?.0 ?? .zero) with something waiting")
        #expect(forbiddenAt == nil, "Android device \(forbiddenAt?.1 ?? -1) owes \(owing) at \(forbiddenAt?.0 ?? .zero) where it must not")
        #expect(owedLooks > 0)
        #expect(try LazyDozeTests.figures(lazy) == LazyDozeTests.figures(eager))
        #expect(lazy.eventsProcessed * 20 < eager.eventsProcessed * 19)
    }

    /// A whole run of `file` at `scale` reports the eager run's figures (`flag` off), with
    /// fewer events; settling schedules nothing, so a run in `fleetsim run`'s 50 steps
    /// (each settling what is owed at its end) is the same run, its events included.
    static func wholeRun(_ file: String, _ scale: Double, eagerWhenOff flag: WritableKeyPath<AndroidHost, Bool>) throws {
        let scenario = try Fixtures.scenario(file).scaled(by: scale)
        var eager = pair(scenario, eagerWhenOff: flag).eager
        eager.runToEnd()
        let lazy = try SharedRuns.run(file, scale) ?? SharedRuns.finish(scenario)
        #expect(try lazy.figuresWithoutEvents == LazyDozeTests.figures(eager))
        #expect(lazy.eventsProcessed < eager.eventsProcessed)
        var stepped = World(scenario: scenario)
        for k in Int64(1)...50 { stepped.run(until: SimTime(microseconds: stepped.end.microseconds / 50 * k)) }
        stepped.runToEnd()
        #expect(try JSONWriter.encode(stepped.report().report) == lazy.reportBytes)
    }
}
