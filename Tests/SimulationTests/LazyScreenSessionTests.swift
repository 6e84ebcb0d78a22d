import Testing
import Platform
import Reports
import SimKernel
import Scenario
@testable import Simulation

/// Lazy screen sessions (OS/Android/AndroidHost+Screen, docs/android.md "Lazy screen
/// sessions"): while nothing waits on Doze, the user's next screen session on an Android
/// phone is owed, not an event, and settled at its own instant when the phone's Android
/// state is next read. A lazy world must be the eager one (`lazyScreenSessions` off: one
/// event per session) in everything but its event count and hashes.
@Suite struct LazyScreenSessionTests {
    static func pair(_ scenario: Scenario) -> (eager: World, lazy: World) {
        var eager = World(scenario: scenario)
        eager.android.lazyScreenSessions = false
        return (eager, World(scenario: scenario))
    }

    /// What a session moves on one Android phone: the screen and the stream that draws
    /// the sessions, the bucket's history and screen-on clock, the bucket last seen and
    /// the next moment it can change, and Doze.
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

        static func firstDifference(_ a: World, _ b: World) -> Int? {
            a.android.devices.indices.first { Look(a, $0) != Look(b, $0) }
        }
    }

    /// Every Android phone of the default fleet (80 of 200) in lock step every 10 s for
    /// three days: each looks the same in the lazy world as in the eager one at every look
    /// (each look settles what is owed before it, as `run(until:)` does), no session is
    /// owed while something waits on Doze or while a screen-off event is pending (whose
    /// handler reads the screen as it stands), and the lazy world runs at least a
    /// twentieth fewer events.
    @Test func everyPhoneLooksAsWhenEachSessionIsAnEvent() throws {
        var scenario = try Fixtures.scenario("scenarios/default.json").scaled(by: 0.02)
        scenario.duration = .days(3)
        var (eager, lazy) = Self.pair(scenario)
        #expect(eager.android.devices.count == 80)
        var t = SimTime.zero
        var firstDifference: (SimTime, Int)?
        var waitedOn: (SimTime, Int)?
        var beforeScreenOffEvent: (SimTime, Int)?
        var owedLooks = 0
        while t < eager.end, firstDifference == nil, waitedOn == nil, beforeScreenOffEvent == nil {
            t = t + .seconds(10)
            eager.run(until: t)
            lazy.run(until: t)
            if let a = Look.firstDifference(eager, lazy) { firstDifference = (t, a) }
            for d in lazy.core.devices.indices where lazy.core.devices[d].isAndroid {
                let a = lazy.androidIndex(UInt32(d))
                let device = lazy.android.devices[a]
                guard device.owed.contains(.session) else { continue }
                owedLooks += 1
                if LazyScreenOffTests.waitsBefore(&lazy, d, a) { waitedOn = (t, a) }
                if device.screen.isOn && !device.owed.contains(.screenOff) { beforeScreenOffEvent = (t, a) }
            }
        }
        #expect(firstDifference == nil, "Android device \(firstDifference?.1 ?? -1) differs before \(firstDifference?.0 ?? .zero)")
        #expect(waitedOn == nil, "Android device \(waitedOn?.1 ?? -1) owes a session at \(waitedOn?.0 ?? .zero) with something waiting")
        #expect(beforeScreenOffEvent == nil, "Android device \(beforeScreenOffEvent?.1 ?? -1) owes a session at \(beforeScreenOffEvent?.0 ?? .zero) beside a screen-off event")
        #expect(owedLooks > 0)
        #expect(try LazyDozeTests.figures(lazy) == LazyDozeTests.figures(eager))
        #expect(lazy.eventsProcessed * 20 < eager.eventsProcessed * 19)
    }

    /// Whole runs: the default fleet, the hostile one (a trip abroad moves the zone the
    /// next session is drawn in; clock jumps, outages, jetsam) and a clock scenario report
    /// the same figures either way, and a run in `fleetsim run`'s 50 steps is the same run.
    @Test(arguments: [("scenarios/default.json", SharedRuns.defaultScale), ("scenarios/hostile.json", SharedRuns.hostileScale), ("scenarios/clocks/jumps.json", 1.0)])
    func aLazyRunReportsTheEagerRunsFigures(file: String, scale: Double) throws {
        let scenario = try Fixtures.scenario(file).scaled(by: scale)
        var eager = Self.pair(scenario).eager
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
