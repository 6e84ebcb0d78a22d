import Foundation
import SimKernel
import Scenario
import Simulation
import Reports

/// `fleetsim`: the commands of `INTERFACE.md`. Exit codes: 0 success; 1 an invariant
/// was violated or an expectation failed; 2 bad usage or a bad scenario.
enum FleetSimCommand {
    static let help = """
    fleetsim \(fleetsimVersion): deterministic discrete-event simulation of a fleet of phones running real background logic.

    USAGE
      fleetsim run SCENARIO [--seed N] [--scale F] [--variants LIST] [--swarm] [--out DIR] [--quiet]
          Simulate; write report.json, report.md, report.html and junit.xml into DIR
          (default reports/<scenario name>/). Exit 1 if an invariant or expectation failed.
          --variants replaces the file's logic.variants: a comma-separated list of
          names, or "none" for the correct logic.
      fleetsim validate SCENARIO
          Check a scenario file without running it.
      fleetsim replay SCENARIO --device ID [--seed N] [--scale F] [--variants LIST] [--swarm] [--from T] [--to T]
          Re-run deterministically and print one device's event-by-event story
          (OS events, logic inputs and effects, network and backend steps, oracle
          verdicts) with UTC and local times. T is a duration since the start ("26h", "3600s").
      fleetsim explore SCENARIO --seeds N [--first S] [--jobs J] [--swarm] [--scale F] [--variants LIST]
          Run N seeds (S, S+1, ...; default S = 1) in parallel, each world single-threaded;
          print every failing seed with its violation kinds and the exact replay command,
          then a summary table. Exit 1 if any seed failed. --swarm also draws OS-policy
          parameters and fault rates from each seed (ranges in the README).
      fleetsim bench [--devices N] [--quick]
          Kernel reference model (exact event counts, events per second) and
          whole-world throughput.
      fleetsim compare BASELINE.json REPORT.json [--tolerance PCT]
          Regression gate: exit 1 if a metric where lower is better (latency
          percentiles, energy, violations, rejected requests, ...) grew by more
          than PCT percent (default 5) over the baseline.
      fleetsim merge | run --shard
          Not available yet in this build.

    Exit codes: 0 success, 1 violation or failed expectation, 2 bad usage or bad scenario.
    """

    static func main(_ arguments: [String]) -> Int32 {
        let args = arguments.dropFirst()
        guard let command = args.first else {
            print(help)
            return 2
        }
        do throws(UsageError) {
            switch command {
            case "run": return try run(args.dropFirst())
            case "validate": return try validate(args.dropFirst())
            case "replay": return try replay(args.dropFirst())
            case "bench": return try bench(args.dropFirst())
            case "explore": return try Explore.run(args.dropFirst())
            case "compare": return try Compare.run(args.dropFirst())
            case "shrink": return try Shrink.run(args.dropFirst())
            case "merge":
                eprint("fleetsim: '\(command)' is not available yet in this build.")
                return 2
            case "help", "--help", "-h":
                print(help)
                return 0
            case "--version", "version":
                print(fleetsimVersion)
                return 0
            default:
                throw UsageError("unknown command '\(command)'")
            }
        } catch {
            eprint("fleetsim: \(error.message)\nRun 'fleetsim help' for usage.")
            return 2
        }
    }

    // MARK: - validate

    static func validate(_ args: ArraySlice<String>) throws(UsageError) -> Int32 {
        let parsed = try Arguments(args, valued: [], flags: [])
        let path = try parsed.positional(0, "SCENARIO file")
        try parsed.noExtraPositionals(after: 1)
        guard let scenario = load(path) else { return 2 }
        let devices = scenario.fleet.reduce(0) { $0 + $1.count }
        print("\(path): valid. Scenario '\(scenario.name)': \(scenario.fleet.count) cohort(s), \(devices) devices, \(scenario.duration), seed \(scenario.seed).")
        return 0
    }

    /// Loads and fully checks a scenario, including the metric names of `expect`
    /// (resolved against the report of an empty fleet). Prints the error and returns
    /// nil when it is unusable.
    static func load(_ path: String) -> Scenario? {
        do {
            let scenario = try ScenarioDecoder.load(path: path)
            _ = try World(scenario: scenario.scaled(by: 0)).report()
            return scenario
        } catch {
            eprint("error: \(error)")
            return nil
        }
    }

    // MARK: - run

    static func run(_ args: ArraySlice<String>) throws(UsageError) -> Int32 {
        let parsed = try Arguments(args, valued: ["seed", "scale", "out", "shard", "variants"], flags: ["quiet", "swarm"])
        let path = try parsed.positional(0, "SCENARIO file")
        try parsed.noExtraPositionals(after: 1)
        if parsed.options["shard"] != nil {
            eprint("fleetsim: --shard is not available yet in this build.")
            return 2
        }
        let seed = try parsed.uint64("seed")
        guard var scenario = load(path) else { return 2 }
        if let seed { scenario.seed = seed }
        scenario = swarmIfAsked(try adjust(scenario, parsed), parsed)
        let outDir = parsed.options["out"] ?? "reports/\(safeName(scenario.name))"
        let progress = !parsed.flags.contains("quiet") && isatty(2) == 1

        let started = ContinuousClock.now
        var world = World(scenario: scenario)
        let steps: Int64 = 50
        for k in 1...steps {
            world.run(until: SimTime(microseconds: world.end.microseconds / steps * k))
            if progress {
                FileHandle.standardError.write(Data("\r\(scenario.name): \(k * 100 / steps)% simulated, \(world.eventsProcessed) events".utf8))
            }
        }
        world.runToEnd()
        if progress { FileHandle.standardError.write(Data("\n".utf8)) }
        let wall = started.duration(to: .now)
        let wallSeconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18

        let outcome: RunOutcome
        do { outcome = try world.report() } catch {
            eprint("error: \(error)")
            return 2
        }
        let json = JSONWriter.encode(outcome.report)
        let markdown = ReportDocuments.markdown(outcome, wallSeconds: wallSeconds)
        do {
            try AtomicFile.write(json, to: "\(outDir)/report.json")
            try AtomicFile.write(markdown, to: "\(outDir)/report.md")
            try AtomicFile.write(ReportDocuments.html(outcome, markdown: markdown), to: "\(outDir)/report.html")
            try AtomicFile.write(ReportDocuments.junit(outcome), to: "\(outDir)/junit.xml")
        } catch {
            eprint("error: cannot write the report: \(error)")
            return 2
        }
        let failed = outcome.expectations.filter { !$0.passed }
        print("\(scenario.name): \(world.deviceCount) devices, \(scenario.duration) simulated, \(world.eventsProcessed) events; \(outcome.violations) invariant violation(s), \(failed.count) failed expectation(s).")
        for e in failed { print("  expectation failed: \(e.metric) = \(e.value.map { String($0) } ?? "no data")") }
        if let samples = outcome.report.lookup("invariants.samples")?.arrayValue {
            for s in samples.prefix(5) {
                print("  violation \(s.lookup("kind")?.stringValue ?? "") on device \(s.lookup("device")?.intValue ?? -1): \(s.lookup("detail")?.stringValue ?? "")")
                print("    \(s.lookup("replay")?.stringValue ?? "")")
            }
        }
        print("Report: \(outDir)/report.md (and report.json, report.html, junit.xml)")
        eprint(String(format: "wall time %.2f s", wallSeconds))
        return outcome.passed ? 0 : 1
    }

    static func safeName(_ name: String) -> String {
        let mapped = name.unicodeScalars.map { s -> Character in
            (s.properties.isAlphabetic && s.isASCII) || ("0"..."9").contains(s) || s == "-" || s == "_" || s == "." ? Character(s) : "-"
        }
        let text = String(mapped).trimmingCharacters(in: CharacterSet(charactersIn: "."))
        return text.isEmpty ? "scenario" : text
    }

    // MARK: - replay

    static func replay(_ args: ArraySlice<String>) throws(UsageError) -> Int32 {
        let parsed = try Arguments(args, valued: ["seed", "device", "from", "to", "scale", "variants"], flags: ["swarm"])
        let path = try parsed.positional(0, "SCENARIO file")
        try parsed.noExtraPositionals(after: 1)
        guard let device = try parsed.int("device") else { throw UsageError("replay needs --device ID") }
        let from = try duration(parsed, "from") ?? .zero
        let to = try duration(parsed, "to")
        guard var scenario = load(path) else { return 2 }
        if let seed = try parsed.uint64("seed") { scenario.seed = seed }
        scenario = swarmIfAsked(try adjust(scenario, parsed), parsed)
        let devices = scenario.fleet.reduce(0) { $0 + $1.count }
        guard device >= 0, device < devices else { throw UsageError("--device must be in 0..<\(devices), found \(device)") }
        var world = World(scenario: scenario, traceDevice: device)
        world.run(until: SimTime.zero + (to ?? scenario.duration) + .microseconds(1))
        print("Replay of device \(device), scenario '\(scenario.name)', seed \(scenario.seed) (true UTC time, then the device's local clock):")
        let start = SimTime.zero + from
        for entry in world.trace where entry.time >= start { print(entry.line) }
        if let outcome = try? world.report() {
            for s in outcome.report.lookup("invariants.samples")?.arrayValue ?? [] where s.lookup("device")?.intValue == Int64(device) {
                print("VIOLATION \(s.lookup("kind")?.stringValue ?? "") at \(s.lookup("time").flatMap { $0.doubleValue }.map { String($0) } ?? "") s: \(s.lookup("detail")?.stringValue ?? "")")
            }
        }
        return 0
    }

    /// Applies `--scale` and `--variants`, and records them with `--swarm` so that
    /// every replay command printed for this run repeats them.
    static func adjust(_ scenario: Scenario, _ parsed: Arguments) throws(UsageError) -> Scenario {
        var s = scenario
        var options: [String] = []
        if let text = parsed.options["scale"], let scale = try parsed.double("scale") {
            guard scale > 0 else { throw UsageError("--scale must be greater than 0, found \(text)") }
            s = s.scaled(by: scale)
            let total = s.fleet.reduce(0) { $0 + $1.count }
            guard total <= FleetDecoder.maximumDevices else {
                throw UsageError("--scale \(text) gives \(total) devices; one world simulates at most \(FleetDecoder.maximumDevices) (shard larger fleets)")
            }
            options.append("--scale \(text)")
        }
        if let list = parsed.options["variants"] {
            s.logic.variants = try variants(list)
            options.append("--variants \(list)")
        }
        if parsed.flags.contains("swarm") {
            options.append("--swarm")
        }
        s.replayOptions = options.joined(separator: " ")
        return s
    }

    /// The swarm is drawn per seed, so it is applied after the seed is final.
    static func swarmIfAsked(_ scenario: Scenario, _ parsed: Arguments) -> Scenario {
        parsed.flags.contains("swarm") ? Swarm.apply(to: scenario) : scenario
    }

    /// `--variants a,b` or `--variants none`, checked against the catalog.
    static func variants(_ list: String) throws(UsageError) -> [String] {
        if list == "none" || list.isEmpty { return [] }
        let names = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        for name in names {
            guard let entry = Catalog.variants.first(where: { $0.name == name }) else {
                throw UsageError("--variants: unknown variant '\(name)'; known: \(Catalog.variants.map(\.name).joined(separator: ", "))")
            }
            guard entry.available else { throw UsageError("--variants: '\(name)' is not available yet in this build") }
        }
        return names
    }

    private static func duration(_ parsed: Arguments, _ name: String) throws(UsageError) -> SimDuration? {
        guard let text = parsed.options[name] else { return nil }
        guard let d = SimDuration.parse(text), d >= .zero else { throw UsageError("--\(name) expects a duration such as \"26h\" or \"3600s\", found '\(text)'") }
        return d
    }

    // MARK: - bench

    static func bench(_ args: ArraySlice<String>) throws(UsageError) -> Int32 {
        let parsed = try Arguments(args, valued: ["devices"], flags: ["quick"])
        try parsed.noExtraPositionals(after: 0)
        return Bench.run(worldDevices: try parsed.int("devices") ?? 10_000, quick: parsed.flags.contains("quick"))
    }
}

func eprint(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
