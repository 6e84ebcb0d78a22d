import Foundation
import Testing
import Reports
@testable import Simulation

/// The committed `reports/baselines/default.json` is what the default scenario at
/// `--scale 0.1` must produce, byte for byte, on any machine. A change meant to move
/// the numbers regenerates it with `make baseline` (and says why in its commit).
@Suite struct GoldenReportTests {
    @Test func defaultScenarioMatchesTheCommittedBaselineByteForByte() throws {
        let scenario = try Fixtures.scenario("scenarios/default.json").scaled(by: 0.1)
        var world = World(scenario: scenario)
        world.runToEnd()
        let produced = JSONWriter.encode(try world.report().report)
        let baseline = try String(contentsOfFile: Fixtures.path("reports/baselines/default.json"), encoding: .utf8)
        #expect(produced == baseline, "run `make baseline` if this change is meant to move the numbers")
    }
}
