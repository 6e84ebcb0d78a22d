import Foundation
import Testing
@testable import FleetSimCLI
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

    /// An argument error of every command names the runner it was given to, as its
    /// second line ("Run 'appteam-sim help shrink' for usage.") does.
    @Test func everyCommandsArgumentErrorNamesTheRunner() {
        for type in FleetSimCommand.commands {
            let name = type.help.name
            var message: String?
            do { _ = try FleetSimCommand.parse([name, "--no-such-option"], runner: "appteam-sim") } catch {
                if case .usage(let text, let command) = error, command == name { message = text }
            }
            #expect(message?.hasPrefix("unknown option '--no-such-option' for 'appteam-sim \(name)'") == true, "\(name): \(message ?? "no usage error")")
            #expect(message?.contains("fleetsim") == false, "\(name): \(message ?? "")")
        }
    }

    /// The input errors that name a command to run instead name the runner's.
    @Test func inputErrorsThatNameACommandNameTheRunner() throws {
        let root = CLI.packageRoot.path
        let baseline = root + "/reports/baselines/default.json", scenario = root + "/scenarios/default.json"
        let dir = try CLI.temporaryDirectory()
        let context = Context(executable: "appteam-sim", runner: "appteam-sim", engine: .reference, stderrIsTerminal: false)
        func inputError(_ args: [String]) -> String {
            do throws(CLIError) {
                guard case .command(var command) = try FleetSimCommand.parse(args, runner: "appteam-sim") else { return "not a command" }
                try command.validate()
                _ = try command.run(context)
                return "no error"
            } catch {
                if case .input(let text) = error { return text }
                return "\(error)"
            }
        }
        #expect(inputError(["compare", scenario, baseline]).contains("expected a report.json (written by appteam-sim run or merge)"))
        #expect(inputError(["diverge", scenario, "--against", "/nonexistent/appteam-sim"]).contains("expected an executable appteam-sim build"))
        let copy = dir.appendingPathComponent("copy.json")
        try FileManager.default.copyItem(atPath: baseline, toPath: copy.path)
        let merged = inputError(["merge", baseline, copy.path, "--out", dir.appendingPathComponent("merged").path])
        #expect(merged.contains("it is not the report of a 'appteam-sim run --shard K/N' (nor of a 'appteam-sim merge --partial')"), "\(merged)")

        var world = try ScenarioOptions.load(scenario)
        world.runner = "appteam-sim"
        #expect {
            try MemoryGuard.check(world, shard: .whole, limit: .init(bytes: 1, source: "MemAvailable"))
        } throws: { error in
            guard case CLIError.input(let text) = error else { return false }
            return text.contains("and 'appteam-sim merge'") && !text.contains("fleetsim")
        }
    }
}
