import Foundation
import Reports
import Scenario
import Simulation

/// The options `run`, `replay` and `explore` share: which scenario, seed, scale,
/// variants and swarm. Parsed once here so the three commands agree on them.
struct ScenarioOptions {
    static func options(seed: Bool) -> [CommandHelp.Option] {
        (seed ? [CommandHelp.Option.valued("seed", "N", "the random seed; replaces the file's \"seed\"", default: "the file's seed")] : []) + [
            scaleOption,
            .valued("variants", "LIST", "known-bug variants to run instead of the file's logic.variants:\ncomma-separated names, or \"none\" for the correct logic", default: "the file's list"),
            .flag("swarm", "draw OS-policy parameters and fault rates from the seed (swarm testing)"),
        ]
    }

    /// `--scale F`, which `shrink` takes too.
    static let scaleOption = CommandHelp.Option.valued(
        "scale", "F", "multiply every cohort's count by F, rounded half away from zero;\nan error if a cohort would be left with 0 devices", default: "1")

    /// The command these options belong to (for the help hint of an error).
    var command: String
    var path: String
    var seed: UInt64?
    var scale: (text: String, factor: Double)?
    var variants: (text: String, names: [String])?
    var swarm: Bool
    /// The runner the replay commands name (``Context/runner``).
    var runner: String
    /// The logic set the scenario runs with (its variant names).
    var engine: Engine

    init(_ parsed: ParsedArguments) throws(CLIError) {
        command = parsed.command
        runner = parsed.runner
        engine = parsed.engine
        path = try parsed.positional(0, "SCENARIO file")
        seed = try parsed.uint64("seed")
        scale = try Self.scale(parsed)
        if let list = parsed.options["variants"] {
            variants = (list, try Self.variants(list, command: parsed.command, engine: parsed.engine))
        }
        swarm = parsed.flags.contains("swarm")
    }

    /// The options that changed the scenario, as arguments, so every replay command
    /// printed for this run repeats them.
    var replayArguments: [String] {
        var out: [String] = []
        if let scale { out += ["--scale", scale.text] }
        if let variants { out += ["--variants", variants.text] }
        if swarm { out.append("--swarm") }
        return out
    }

    /// Loads and fully checks the scenario (including `expect`'s metric names), then
    /// applies `--seed`, `--scale` and `--variants`. The swarm is not applied: it is
    /// drawn per seed (``withSwarm(_:)``).
    func load() throws(CLIError) -> Scenario {
        var s = try Self.load(path, engine: engine)
        if let seed { s.seed = seed }
        if let scale { s = try Self.scaled(s, by: scale, command: command) }
        if let variants { s.logic.variants = variants.names }
        // report.json's replay strings are machine-independent, and quoted for the shell.
        s.replayOptions = Shell.command(replayArguments)
        s.runner = runner
        return s
    }

    /// `--scale`'s value, checked: a factor no world can hold is refused before any file is read.
    static func scale(_ parsed: ParsedArguments) throws(CLIError) -> (text: String, factor: Double)? {
        guard let text = parsed.options["scale"], let factor = try parsed.double("scale") else { return nil }
        // No cohort holds fewer than one device, so a larger factor never fits one world.
        guard factor > 0, factor <= Double(FleetDecoder.maximumDevices) else {
            throw .usage("--scale must be greater than 0 and at most \(FleetDecoder.maximumDevices) (one world simulates at most "
                         + "\(FleetDecoder.maximumDevices) devices; shard larger fleets), found \(text.prefix(40))", command: parsed.command)
        }
        return (text, factor)
    }

    /// `scenario` with every cohort's count scaled; refused when a cohort would be left
    /// with no device or the fleet outgrows one world.
    static func scaled(_ scenario: Scenario, by scale: (text: String, factor: Double), command: String) throws(CLIError) -> Scenario {
        let emptied = scenario.cohortsEmptied(by: scale.factor)
        if !emptied.isEmpty { throw .usage(emptiedMessage(emptied, scale: scale.text), command: command) }
        let s = scenario.scaled(by: scale.factor)
        // In Double: scaled counts (up to 2^62 each) may overflow an integer sum.
        let total = s.fleet.reduce(0.0) { $0 + Double($1.count) }
        guard total <= Double(FleetDecoder.maximumDevices) else {
            throw .usage("--scale \(scale.text) gives \(String(format: "%.0f", total)) devices; one world simulates at most \(FleetDecoder.maximumDevices) (shard larger fleets)", command: command)
        }
        return s
    }

    /// The swarm is drawn per seed, so it is applied after the seed is final.
    func withSwarm(_ scenario: Scenario) -> Scenario {
        swarm ? Swarm.apply(to: scenario) : scenario
    }

    /// Loads and fully checks a scenario, including the metric names of `expect`
    /// (resolved against the report of an empty fleet).
    static func load(_ path: String, engine: Engine = .reference) throws(CLIError) -> Scenario {
        try MemoryGuard.checkInputs([path], factor: MemoryGuard.scenarioFactor, command: "\(path): reading this scenario",
                                    hint: "is it a scenario? (a scenario file is a few KB)")
        var scenario: Scenario
        do {
            scenario = try ScenarioDecoder.load(path: path, vocabulary: engine.vocabulary)
            scenario.sourcePath = canonicalPath(path)
        } catch {
            throw .input("\(error)")
        }
        // The metric names are resolved against the report of an empty fleet over the
        // whole run, whose series over time grow with its length.
        try MemoryGuard.checkReport(scenario)
        do {
            _ = try ReferenceWorld(scenario: scenario.scaled(by: 0)).report()
            return scenario
        } catch {
            throw .input("\(error)")
        }
    }

    /// How reports name a scenario file (the `replay` strings of report.json), so their
    /// bytes do not depend on how the path was typed: relative to the current directory
    /// when inside it, else absolute, with `.`, `..` and repeated slashes resolved by
    /// name (symbolic links are not followed): `x.json`, `./x.json` and `$PWD/x.json`
    /// are all `x.json`.
    static func canonicalPath(_ path: String, currentDirectory: String = FileManager.default.currentDirectoryPath) -> String {
        let absolute = path.hasPrefix("/") ? path : currentDirectory + "/" + path
        var parts: [Substring] = []
        for part in absolute.split(separator: "/") where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        let base = currentDirectory.split(separator: "/")
        if parts.count > base.count, Array(parts.prefix(base.count)) == base {
            return parts.dropFirst(base.count).joined(separator: "/")
        }
        return "/" + parts.joined(separator: "/")
    }

    /// `--variants a,b` or `--variants none`, checked against the logic set's; an error names
    /// `option` (`--against-variants` for diverge's other side).
    static func variants(_ list: String, command: String, option: String = "variants", engine: Engine = .reference) throws(CLIError) -> [String] {
        if list == "none" || list.isEmpty { return [] }
        let names = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        // The logic set's variants: the reference logic's, or an app's own (docs/harness.md, "The runner").
        let known = engine.variantNames
        for name in names where !known.contains(name) {
            let hint = KeySuggestion.closest(to: name, among: known).map { "did you mean '\($0)'? " } ?? ""
            throw .usage("--\(option): unknown variant '\(name)'; \(hint)known: \(known.isEmpty ? "none" : known.joined(separator: ", "))", command: command)
        }
        return names
    }

    /// Names each emptied cohort and the smallest scale that keeps one of its devices.
    static func emptiedMessage(_ cohorts: [Cohort], scale: String) -> String {
        let parts = cohorts.map { "'\($0.name)' (\($0.count) devices; keeps one from --scale \(smallestScale(keeping: $0.count)))" }
        let needed = smallestScale(keeping: cohorts.map(\.count).min() ?? 1)
        return "--scale \(scale) leaves \(cohorts.count == 1 ? "cohort" : "cohorts") \(parts.joined(separator: ", ")) with 0 devices; "
            + "the smallest scale that keeps every cohort is \(needed)"
    }

    /// The smallest `--scale`, written with two significant digits, that leaves one of
    /// `count` devices: `count × F` rounds half away from zero, so `F ≥ 0.5 / count`;
    /// the written value is parsed back and checked with the same rounding.
    static func smallestScale(keeping count: Int) -> String {
        let exact = 0.5 / Double(max(count, 1))
        let exponent = Int(log10(exact).rounded(.down)) - 1
        let step = pow(10, Double(exponent))
        var k = (exact / step * (1 - 1e-12)).rounded(.up)
        while true {
            var text = exponent < 0 ? String(format: "%.\(-exponent)f", k * step) : String(Int64(k * step))
            if text.contains(".") {
                while text.hasSuffix("0") { text.removeLast() }
                if text.hasSuffix(".") { text.removeLast() }
            }
            if let f = Double(text), (Double(count) * f).rounded() >= 1 { return text }
            k += 1
        }
    }
}
