import Testing
import Reports
import Scenario
@testable import Simulation

/// The oracle only watches (Oracle/Oracle.swift; docs/architecture.md, "The oracle"): no
/// model decision reads a check's outcome or a checker's state. With its checks off, a
/// scenario reports the same figures byte for byte, every key but `invariants` and the
/// expectations on it: the default fleet, the hostile-clocks one (clocks set wrong, DST
/// changes, faults: the checkers that read zones and the push pipeline's truth) and the
/// capacity one (a broadcast per zone: the push judges under load).
@Suite struct OracleOffTests {
    /// report.json without the oracle's keys.
    static func figures(_ world: World) throws -> String {
        guard case .object(var top) = try world.report().report else { return "" }
        top["invariants"] = nil
        if case .array(let expectations)? = top["expect"] {
            top["expect"] = .array(expectations.filter { entry in
                guard case .object(let fields) = entry, case .string(let metric)? = fields["metric"] else { return true }
                return !metric.hasPrefix("invariants.")
            })
        }
        return JSONWriter.encode(.object(top))
    }

    /// `scenario` run with the checks off, to its end.
    static func unwatchedRun(_ scenario: Scenario) -> World {
        var world = World(scenario: scenario)
        world.core.oracle.watching = false
        world.runToEnd()
        return world
    }

    /// The watched run is the suites' shared run of the default fleet (200 phones, a week).
    @Test func theDefaultScenarioReportsTheSameFiguresWithTheChecksOff() throws {
        let watched = try SharedRuns.defaultRun.get()
        let unwatched = Self.unwatchedRun(try SharedRuns.defaultScenario())
        #expect(watched.checked > 10_000)
        #expect(unwatched.core.oracle.checked == 0)
        let figures = watched.figuresWithoutOracle
        #expect(figures.contains("\"latency\"") && !figures.contains("\"invariants\""))
        #expect(try Self.figures(unwatched) == figures)
    }

    /// `file` at `scale`, watched and unwatched: the same figures, and the watched run
    /// judged at least `checks` times (so the checkers ran on what the scenario stresses).
    func expectSameFigures(_ file: String, scale: Double, checks: UInt64) throws {
        let scenario = try Fixtures.scenario(file).scaled(by: scale)
        var watched = World(scenario: scenario)
        watched.runToEnd()
        let unwatched = Self.unwatchedRun(scenario)
        #expect(watched.core.oracle.checked > checks, "\(file): \(watched.core.oracle.checked) checks")
        #expect(unwatched.core.oracle.checked == 0)
        let figures = try Self.figures(watched)
        #expect(figures.contains("\"latency\"") && !figures.contains("\"invariants\""))
        #expect(try Self.figures(unwatched) == figures, "\(file) at \(scale): the oracle changed a figure")
    }

    /// `scenarios/hostile-clocks.json` at a tenth (150 phones, ten days).
    @Test func theHostileClocksScenarioReportsTheSameFiguresWithTheChecksOff() throws {
        try expectSameFigures("scenarios/hostile-clocks.json", scale: 0.1, checks: 10_000)
    }

    /// `scenarios/capacity.json` at a thousandth (200 phones, a day, a broadcast per zone).
    @Test func theCapacityScenarioReportsTheSameFiguresWithTheChecksOff() throws {
        try expectSameFigures("scenarios/capacity.json", scale: 0.001, checks: 1_000)
    }
}
