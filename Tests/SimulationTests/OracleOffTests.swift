import Testing
import Reports
@testable import Simulation

/// The oracle only watches (Oracle/Oracle.swift): no model decision reads a check's
/// outcome or a checker's state. With its checks off, the default scenario reports the
/// same figures byte for byte, every key but `invariants` and the expectations on it.
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

    /// The watched run is the suites' shared run of the default fleet (200 phones, a week).
    @Test func theDefaultScenarioReportsTheSameFiguresWithTheChecksOff() throws {
        let watched = try SharedRuns.defaultRun.get()
        var unwatched = World(scenario: try SharedRuns.defaultScenario())
        unwatched.core.oracle.watching = false
        unwatched.runToEnd()
        #expect(watched.checked > 10_000)
        #expect(unwatched.core.oracle.checked == 0)
        let figures = watched.figuresWithoutOracle
        #expect(figures.contains("\"latency\"") && !figures.contains("\"invariants\""))
        #expect(try Self.figures(unwatched) == figures)
    }
}
