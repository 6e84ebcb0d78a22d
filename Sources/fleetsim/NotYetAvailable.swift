/// A command the interface promises but this build does not have yet: its help is
/// real, running it says "not available yet" (exit 2). Building one means replacing
/// its type here by a file with a full ``Command``; the command table stays as it is.
protocol NotYetAvailable: Command {}

extension NotYetAvailable {
    /// Whatever the arguments: "not available yet", exit 2.
    static func make(_ arguments: [String]) throws(CLIError) -> Self {
        throw .usage("'\(help.name)' is not available yet in this build", command: help.name)
    }

    init(_ parsed: ParsedArguments) throws(CLIError) { self = try Self.make([]) }

    func run(_ context: Context) -> Int32 { 2 }
}

/// `fleetsim diverge`: the first event where two runs part ways.
struct Diverge: NotYetAvailable {
    static let help = CommandHelp(
        name: "diverge",
        abstract: "report the first event where two builds, traces or configurations part ways (not available yet)",
        arguments: [.init(name: "SCENARIO", text: "the scenario file (JSON)")],
        options: [
            .valued("seed", "N", "the seed both sides run", required: true),
            .valued("against", "BINARY_OR_TRACE", "the other build, or a recorded trace", required: true),
        ],
        discussion: "Uses the event-stream hashes in report.json; prints time, device, event and both sides.",
        examples: ["fleetsim diverge scenarios/default.json --seed 1 --against ../old/.build/release/fleetsim"]
    )
}
