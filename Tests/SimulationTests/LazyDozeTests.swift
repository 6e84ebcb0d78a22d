import Testing
import Reports
import SimKernel
import Scenario
@testable import Simulation

/// Lazy Doze steps (OS/Android/AndroidHost+Doze, docs/android.md "Lazy Doze steps"): a step
/// nothing waits on runs when Doze is next fed or read instead of as its own event. A
/// lazy world must be the eager one (`lazyDoze` off: one event per step) in everything
/// but its event count and hashes.
@Suite struct LazyDozeTests {
    static func pair(_ scenario: Scenario) -> (eager: World, lazy: World) {
        var eager = World(scenario: scenario)
        eager.android.lazyDoze = false
        return (eager, World(scenario: scenario))
    }

    /// The first Android phone whose Doze differs in `a` and in `b`. (The worlds come in
    /// as arguments, as in ``BatterySaverLazyTests``, where a closure over the test's
    /// `var`s copied both worlds whole at every look of a debug build.)
    static func firstDozeDifference(_ a: World, _ b: World) -> Int? {
        a.android.devices.indices.first { a.android.devices[$0].doze != b.android.devices[$0].doze }
    }

    /// report.json without the keys that count or hash delivered events.
    static func figures(_ world: World) throws -> String {
        guard case .object(var top) = try world.report().report else { return "" }
        top["events"] = nil
        if case .object(var simulated)? = top["simulated"] {
            simulated["events"] = nil
            top["simulated"] = .object(simulated)
        }
        return JSONWriter.encode(.object(top))
    }

    /// Every Android phone of the default fleet (80 of 200, three releases) in lock step
    /// every 10 s for three days: both machines, their alarms, budgets and the start of
    /// the maintenance window under way are the same in the lazy world as in the eager
    /// one at every look, so every maintenance window opens and closes at the same
    /// microsecond (its length is carried in the light budget, and in the deep idle
    /// that follows). The lazy world runs at least a tenth fewer events.
    @Test func everyPhoneDozesAsWhenEachStepIsAnEvent() throws {
        var scenario = try Fixtures.scenario("scenarios/default.json").scaled(by: 0.02)
        scenario.duration = .days(3)
        var (eager, lazy) = Self.pair(scenario)
        #expect(eager.android.devices.count == 80)
        var t = SimTime.zero
        var firstDifference: (SimTime, Int)?
        while t < eager.end, firstDifference == nil {
            t = t + .seconds(10)
            eager.run(until: t)
            lazy.run(until: t)
            if let a = Self.firstDozeDifference(eager, lazy) { firstDifference = (t, a) }
        }
        #expect(firstDifference == nil, "Android device \(firstDifference?.1 ?? -1) differs before \(firstDifference?.0 ?? .zero)")
        #expect(try Self.figures(lazy) == Self.figures(eager))
        #expect(lazy.eventsProcessed * 10 < eager.eventsProcessed * 9)
    }

    /// Whole runs, as `fleetsim run` makes them: the default fleet and the hostile one
    /// (clock jumps, outages, jetsam, FCM errors) report the same figures either way.
    @Test(arguments: [("scenarios/default.json", SharedRuns.defaultScale), ("scenarios/hostile.json", SharedRuns.hostileScale)])
    func aLazyRunReportsTheEagerRunsFigures(file: String, scale: Double) throws {
        let scenario = try Fixtures.scenario(file).scaled(by: scale)
        var eager = Self.pair(scenario).eager
        eager.runToEnd()
        let lazy = try SharedRuns.run(file, scale) ?? SharedRuns.finish(scenario)
        #expect(try lazy.figuresWithoutEvents == Self.figures(eager))
        #expect(lazy.eventsProcessed < eager.eventsProcessed)
    }

    /// `fleetsim run`'s 50 progress steps (``World/advance(until:)``) settle nothing owed
    /// between them, so its events are those of a run in one go, generation for generation,
    /// and so is its report. A settle at each step (``World/run(until:)``, as the steps
    /// once did) leaves the report as it is; on this fleet it re-armed one phone's
    /// bucket timer once more (the same events, one timer's generation apart).
    @Test func progressStepsAreARunInOneGo() throws {
        let scenario = try Fixtures.scenario("scenarios/clocks/dst-fall-new-york.json")
        func events(observed: Bool = true, _ run: (inout World) -> Void) throws -> (events: [String], report: String) {
            var world = World(scenario: scenario)
            let log = EventLog()
            if observed { world.eventObserver = { log.lines.append("\($0.time.microseconds) \($0.device ?? -1) \($0.hash) \($0.description)") } }
            run(&world)
            return (log.lines, JSONWriter.encode(try world.report().report))
        }
        let oneGo = try events { $0.runToEnd() }
        let steps: Int64 = 50
        let advanced = try events { world in
            for k in 1...steps { world.advance(until: SimTime(microseconds: world.end.microseconds / steps * k)) }
            world.runToEnd()
        }
        let settled = try events(observed: false) { world in
            for k in 1...steps { world.run(until: SimTime(microseconds: world.end.microseconds / steps * k)) }
            world.runToEnd()
        }
        #expect(oneGo.events.count > 50_000)
        #expect(advanced.events == oneGo.events)
        #expect(advanced.report == oneGo.report)
        #expect(settled.report == oneGo.report)
    }

    /// The delivered events' lines, appended by the world's observer.
    final class EventLog { var lines: [String] = [] }
}
