import Testing
import Scenario
@testable import Simulation

/// The shipped clock scenarios (device clocks jumping 2 days forward and 3 days back
/// mid-run, a zone change, DST nights in both directions and both zones): the correct
/// logic has no violation on their first seeds, at a quarter of their fleet (50
/// phones: a debug build runs the full 200 at ~3 s a seed). `fleetsim explore` runs
/// 200 full-size seeds of each (docs/clocks.md); this is the fast guard.
@Suite struct ClockScenarioTests {
    static let files = [
        "scenarios/clocks/jumps.json",
        "scenarios/clocks/dst-spring-new-york.json",
        "scenarios/clocks/dst-spring-berlin.json",
        "scenarios/clocks/dst-fall-new-york.json",
        "scenarios/clocks/dst-fall-berlin.json",
    ]

    @Test(arguments: files) func correctLogicPassesTheFirstSeeds(_ file: String) throws {
        let shipped = try Fixtures.scenario(file).scaled(by: 0.25)
        #expect(shipped.logic.variants.isEmpty)
        for seed in UInt64(1)...3 {
            var s = shipped
            s.seed = seed
            var world = World(scenario: s)
            world.runToEnd()
            ReadableFailures.expectNoViolation(world, file)
        }
    }
}
