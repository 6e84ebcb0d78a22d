import Reports
import Scenario

/// `fleetsim validate`: the scenario checks of `run`, without running.
struct Validate: Command {
    static let help = CommandHelp(
        name: "validate",
        abstract: "check a scenario file without running it",
        arguments: [.init(name: "SCENARIO", text: "the scenario file (JSON)")],
        discussion: """
        Every error names the file, the JSON path of the offending value, what was
        expected and what was found (exit 2); unknown keys are errors, with a suggestion.
        A valid file that is probably not meant (a cohort of 0 devices, a fault that
        starts at or after the end of the run) gets a warning on stderr (exit 0).
        """,
        examples: ["fleetsim validate scenarios/default.json"]
    )

    var path: String

    init(_ parsed: ParsedArguments) throws(CLIError) {
        path = try parsed.positional(0, "SCENARIO file")
        try parsed.noExtraPositionals(after: 1)
    }

    func run(_ context: Context) throws(CLIError) -> Int32 {
        let scenario = try ScenarioOptions.load(path)
        let devices = scenario.fleet.reduce(0) { $0 + $1.count }
        print("\(path): valid. Scenario '\(scenario.name)': \(scenario.fleet.count) cohort(s), \(HumanUnits.count(devices)) devices, "
              + "\(HumanUnits.duration(microseconds: scenario.duration.microseconds)), seed \(scenario.seed).")
        for warning in ScenarioWarnings.of(scenario, file: path) { eprint("warning: " + warning) }
        return 0
    }
}
