import Foundation
import Reports
import Scenario
import SimKernel
import Simulation

/// `fleetsim replay`: one device's story, event by event, deterministically.
struct Replay: Command {
    static let help = CommandHelp(
        name: "replay",
        abstract: "re-run deterministically and print one device's event-by-event story",
        arguments: [.init(name: "SCENARIO", text: "the scenario file (JSON)")],
        options: [.valued("device", "ID", "the device: ids are dense, in file order, after --scale", required: true)]
            + ScenarioOptions.options(seed: true) + [
                .valued("from", "T", "print from T, a duration since the start (\"26h\", \"3600s\")", default: "0s"),
                .valued("to", "T", "stop simulating at T", default: "the scenario's duration"),
            ],
        discussion: """
        Prints OS events, logic inputs and effects, network and backend steps and the
        oracle's verdicts, each with true UTC time and the device's local clock. Give
        the same --seed, --scale, --variants and --swarm as the run that failed (the
        replay commands that run and explore print do). --from must lie within the run
        and not after --to; a --to past the end replays to the end, with a note.
        Exit 1 when the story ends in a VIOLATION of this device (as run would), 0
        when it shows none, 2 on bad input.
        """,
        examples: ["fleetsim replay scenarios/races/unguarded-completion.json --seed 1 --device 60 --from 1010s --to 1020s"]
    )

    var options: ScenarioOptions
    var device: Int
    var from: SimDuration
    var to: SimDuration?
    var scenario: Scenario?

    init(_ parsed: ParsedArguments) throws(CLIError) {
        try parsed.noExtraPositionals(after: 1)
        options = try ScenarioOptions(parsed)
        device = try parsed.int("device") ?? 0
        from = try Self.duration(parsed, "from") ?? .zero
        to = try Self.duration(parsed, "to")
    }

    mutating func validate() throws(CLIError) {
        let s = options.withSwarm(try options.load())
        let devices = s.fleet.reduce(0) { $0 + $1.count }
        guard device >= 0, device < devices else { throw .usage("--device must be in 0..<\(devices), found \(device)", command: "replay") }
        // A window outside the run, or one that ends before it starts, would print an
        // empty story that looks like "nothing happened".
        if from > s.duration {
            throw .usage("--from \(from) is after the end of the run (\(s.duration))", command: "replay")
        }
        if let to, from > to {
            throw .usage("--from \(from) is after --to \(to); the window must start before it ends", command: "replay")
        }
        // A --to past the end is what a replay command of a violation in the run's last
        // minute says (its window ends 1 min after): replayed to the end, and said so.
        if let to, to > s.duration {
            eprint("note: --to \(to) is after the end of the run; replaying to the end (\(s.duration))")
            self.to = s.duration
        }
        scenario = s
    }

    func run(_ context: Context) throws(CLIError) -> Int32 {
        guard let scenario else { preconditionFailure("run() before validate()") }
        let end = to ?? scenario.duration
        let world = options.engine.world(scenario, traceDevice: device)
        world.run(until: SimTime.zero + end + .microseconds(1))
        // The window in the scenario file's spelling ("950s", "26h", "2d"): exact, and
        // as the user wrote it.
        print("Replay of device \(device), scenario '\(scenario.name)', seed \(scenario.seed), "
              + "from \(from) to \(end) into the run "
              + "(true UTC time, then the device's local clock):")
        let start = SimTime.zero + from
        // The run's end judges what is still open (as run's report does), into the trace.
        _ = try? world.report()
        var violations: [(time: SimTime, text: Substring)] = []
        for entry in world.trace where entry.time >= start {
            print(entry.line)
            if let mark = entry.line.range(of: Self.violationMark) { violations.append((entry.time, entry.line[mark.upperBound...])) }
        }
        // Every violation the story shows, read from it: the report keeps only a few
        // samples of each kind, which need not include this device's.
        for v in violations {
            let seconds = v.time.seconds
            print("VIOLATION \(v.text.prefix { $0 != ":" }) at \(Self.utc(scenario.startUnixSeconds, plus: seconds)) "
                  + "(\(HumanUnits.duration(seconds: seconds)) into the run):\(v.text.drop { $0 != ":" }.dropFirst())")
        }
        let violated = !violations.isEmpty
        // As run: 1 when the story shows this device violating an invariant.
        return violated ? 1 : 0
    }

    /// What the oracle writes into the traced device's story at a violation (WorldCore.verify).
    static let violationMark = "ORACLE: violation "

    /// `2026-03-02T00:15:58.013Z`: the scenario's start plus `seconds`, in UTC, to the millisecond.
    static func utc(_ startUnixSeconds: Int64, plus seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: Double(startUnixSeconds) + seconds))
    }

    static func duration(_ parsed: ParsedArguments, _ name: String) throws(CLIError) -> SimDuration? {
        guard let text = parsed.options[name] else { return nil }
        guard let d = SimDuration.parse(text), d >= .zero else {
            throw .usage("--\(name) expects a duration such as \"26h\" or \"3600s\", found '\(text)'", command: "replay")
        }
        return d
    }
}
