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

/// `fleetsim merge`: shard or seed reports combined.
struct Merge: NotYetAvailable {
    static let help = CommandHelp(
        name: "merge",
        abstract: "combine shard or seed reports into one; histograms merge exactly (not available yet)",
        arguments: [.init(name: "REPORT.json...", text: "the reports to combine")],
        options: [.valued("out", "DIR", "where the combined reports go", required: true)],
        examples: ["fleetsim merge shards/1/report.json shards/2/report.json --out reports/merged"]
    )
}
