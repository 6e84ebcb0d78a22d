import Foundation
import Testing
import FleetSimCLI
import Simulation

/// An app's runner calls the command-line library's entry point with its own name, and
/// every replay command in the files it writes names it (docs/harness.md, "The runner"):
/// a team pastes `appteam-sim replay ...`, not a `fleetsim` it does not have.
@Suite struct RunnerNameTests {
    @Test func theReplayCommandsOfEveryFileNameTheRunner() throws {
        let dir = try CLI.temporaryDirectory()
        let run = dir.appendingPathComponent("run"), explore = dir.appendingPathComponent("explore")
        let race = CLI.packageRoot.appendingPathComponent(SharedRuns.race).path
        let status = FleetSimCommandLine.run(["appteam-sim", "run", race, "--out", run.path, "--quiet"], logics: ReferenceLogics.self, runner: "appteam-sim")
        #expect(status == 1, "the race scenario's variant is caught")
        let report = try String(contentsOf: run.appendingPathComponent("report.json"), encoding: .utf8)
        #expect(report.contains("\"replay\": \"appteam-sim replay "), "\(report.prefix(300))")
        #expect(!report.contains("fleetsim replay"))
        for file in ["report.md", "report.html", "junit.xml"] {
            let text = try String(contentsOf: run.appendingPathComponent(file), encoding: .utf8)
            #expect(text.contains("appteam-sim replay ") && !text.contains("fleetsim replay"), "\(file)")
            #expect(text.contains("with appteam-sim on PATH"), "\(file) says which binary its commands mean")
        }

        let explored = FleetSimCommandLine.run(["appteam-sim", "explore", race, "--seeds", "1", "--out", explore.path], logics: ReferenceLogics.self, runner: "appteam-sim")
        #expect(explored == 1)
        let summary = try String(contentsOf: explore.appendingPathComponent("summary.json"), encoding: .utf8)
        #expect(summary.contains("\"replay\": \"appteam-sim replay "), "\(summary.prefix(600))")
    }
}
