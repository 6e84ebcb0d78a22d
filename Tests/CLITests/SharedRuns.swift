import Foundation

/// `fleetsim run`s that several tests read, each made once per test process: the same
/// command with the same inputs writes the same report.json (the determinism rule), so
/// a test that only reads a run's exit code, output and reports need not make its own.
/// A debug-build run of the shipped race scenario takes seconds of CPU, and five suites
/// made it again each. The directories are never written to after the run.
enum SharedRuns {
    struct Finished: Sendable {
        var result: CLI.Result
        /// The `--out` directory.
        var out: URL
        var report: URL { out.appendingPathComponent("report.json") }
    }

    static let race = "scenarios/races/unguarded-completion.json"

    /// `fleetsim ARGUMENTS --out DIR --quiet` in the repository root.
    static func run(_ arguments: [String]) -> Result<Finished, Error> {
        Result {
            let out = try CLI.temporaryDirectory().appendingPathComponent("out")
            let result = try CLI.run(arguments + ["--out", out.path, "--quiet"])
            return Finished(result: result, out: out)
        }
    }

    /// The race scenario with its known-bug variant (caught: exit 1).
    static let caught = run(["run", race])
    /// The race scenario with the correct logic (`--variants none`: exit 0).
    static let clean = run(["run", race, "--variants", "none"])
    /// The race scenario at half its fleet (`--scale 0.5`).
    static let half = run(["run", race, "--scale", "0.5"])
}
