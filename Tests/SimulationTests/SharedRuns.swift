import Reports
import Scenario
@testable import Simulation

/// Whole runs that several suites read, each made once per test process: a debug-build
/// run of the default fleet or of the hostile one at 0.02 costs seconds to tens of seconds
/// of CPU, and up to six suites made the same plain run each. Each is a plain
/// ``World`` (nothing switched off, nothing observed) run to its end; a test that needs
/// another world (eager, unwatched, measured, another seed) still builds its own.
enum SharedRuns {
    /// What the suites read of a finished run.
    struct Finished: Sendable {
        /// report.json as `fleetsim run` writes it.
        var reportBytes: String
        /// report.json without the keys that count or hash delivered events (``LazyDozeTests/figures(_:)``).
        var figuresWithoutEvents: String
        /// report.json without the oracle's keys (``OracleOffTests/figures(_:)``).
        var figuresWithoutOracle: String
        var eventsProcessed: UInt64
        var checked: UInt64
        var violations: UInt64
    }

    static func finish(_ scenario: Scenario) throws -> Finished {
        var world = World(scenario: scenario)
        world.runToEnd()
        return Finished(reportBytes: JSONWriter.encode(try world.report().report),
                        figuresWithoutEvents: try LazyDozeTests.figures(world),
                        figuresWithoutOracle: try OracleOffTests.figures(world),
                        eventsProcessed: world.eventsProcessed,
                        checked: world.core.oracle.checked,
                        violations: world.core.oracle.violations)
    }

    /// `scenarios/default.json` at 0.02 (200 phones, 80 of them Android, seven days, seed
    /// 42): the fleet the lock-step tests look at for three days, run for the whole week.
    static let defaultScale = 0.02
    static func defaultScenario() throws -> Scenario { try Fixtures.scenario("scenarios/default.json").scaled(by: defaultScale) }
    static let defaultRun = Result { try finish(defaultScenario()) }

    /// `scenarios/hostile.json` at 0.02 (200 phones, six days, its own seed 1).
    static let hostileScale = 0.02
    static func hostileScenario() throws -> Scenario { try Fixtures.scenario("scenarios/hostile.json").scaled(by: hostileScale) }
    static let hostileRun = Result { try finish(hostileScenario()) }

    /// The shared run of `file` at `scale` when there is one, else nil.
    static func run(_ file: String, _ scale: Double) throws -> Finished? {
        switch (file, scale) {
        case ("scenarios/default.json", defaultScale): return try defaultRun.get()
        case ("scenarios/hostile.json", hostileScale): return try hostileRun.get()
        default: return nil
        }
    }
}
