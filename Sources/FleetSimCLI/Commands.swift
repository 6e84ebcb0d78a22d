import Foundation
import Scenario
import Simulation

/// One `fleetsim` command: its help (which also declares the options the parser
/// accepts), a typed parse, a ``validate()`` that checks everything it can before any
/// work starts, and ``run(_:)``.
protocol Command: SendableMetatype {
    static var help: CommandHelp { get }
    /// Parses the arguments after the command word against ``help``'s options.
    static func make(_ arguments: [String]) throws(CLIError) -> Self
    /// Types the arguments; no file is read here.
    init(_ arguments: ParsedArguments) throws(CLIError)
    /// Reads and checks inputs (scenario, `--scale`, `--out`) before anything is simulated.
    mutating func validate() throws(CLIError)
    /// Exit code: 0 success, 1 an invariant, an expectation or a gate failed.
    func run(_ context: Context) throws(CLIError) -> Int32
}

extension Command {
    static func make(_ arguments: [String]) throws(CLIError) -> Self {
        try Self(ParsedArguments(arguments, for: help))
    }

    mutating func validate() throws(CLIError) {}
}

/// What a command may need to know about how it was started.
struct Context: Sendable {
    /// The binary as invoked (`CommandLine.arguments[0]`), for the commands it prints.
    var executable: String
    /// Progress lines go to stderr only when it is a terminal.
    var stderrIsTerminal: Bool
}

/// `fleetsim`: the root command. Exit codes: 0 success; 1 an invariant was violated,
/// an expectation failed or `compare` found a regression; 2 bad usage or bad input.
enum FleetSimCommand {
    /// Every command, in the order the overview lists them. Adding a command is one
    /// file with a type conforming to ``Command`` plus one line here.
    static let commands: [any Command.Type] = [
        Run.self,
        Validate.self,
        Replay.self,
        Explore.self,
        Compare.self,
        Bench.self,
        Shrink.self,
        Merge.self,
        Diverge.self,
        Plan.self,
    ]

    /// What the arguments ask for.
    enum Invocation {
        /// Print this on stdout, exit 0.
        case help(String)
        case version
        /// `fleetsim` alone: the overview on stderr, exit 2.
        case missingCommand
        case command(any Command)
    }

    static func main(_ argv: [String]) -> Int32 {
        let context = Context(executable: argv.first ?? "fleetsim", stderrIsTerminal: isatty(2) == 1)
        do throws(CLIError) {
            switch try parse(Array(argv.dropFirst())) {
            case .help(let text):
                print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
                return 0
            case .version:
                print(fleetsimVersion)
                return 0
            case .missingCommand:
                eprint(overview)
                return 2
            case .command(var command):
                try command.validate()
                return try command.run(context)
            }
        } catch {
            switch error {
            case .usage(let message, let command):
                eprint("fleetsim: \(message)")
                eprint("Run 'fleetsim help\(command.map { " \($0)" } ?? "")' for usage.")
            case .input(let message):
                eprint("error: \(message)")
            }
            return 2
        }
    }

    /// Parses the arguments after the binary's name. Pure: reads no file.
    static func parse(_ args: [String]) throws(CLIError) -> Invocation {
        guard let word = args.first else { return .missingCommand }
        let rest = Array(args.dropFirst())
        switch word {
        case "help", "--help", "-h":
            guard let topic = rest.first else { return .help(overview) }
            guard rest.count == 1 else { throw .usage("help takes one command, found '\(rest.joined(separator: " "))'", command: nil) }
            // `help` is a command too: its help is the overview, which describes it.
            if topic == "help" { return .help(overview) }
            return .help(try command(named: topic).help.text)
        case "version", "--version":
            return .version
        default:
            let type = try command(named: word)
            if rest.contains("--help") || rest.contains("-h") { return .help(type.help.text) }
            return .command(try type.make(rest))
        }
    }

    static func command(named word: String) throws(CLIError) -> any Command.Type {
        for type in commands where type.help.name == word { return type }
        var message = "unknown command '\(word)'"
        let names = commands.map { type in type.help.name }
        if let near = KeySuggestion.closest(to: word, among: names + ["help", "version"]) {
            message += "; did you mean '\(near)'?"
        }
        throw .usage(message, command: nil)
    }

    /// `fleetsim help`: every command's usage and what it does.
    static var overview: String {
        var out = """
        fleetsim \(fleetsimVersion): deterministic discrete-event simulation of a fleet of phones running real background logic.

        USAGE
          fleetsim COMMAND [ARGUMENTS] [OPTIONS]

        COMMANDS

        """
        for type in commands {
            out += "  \(type.help.usage)\n      \(type.help.abstract)\n"
        }
        out += """
          fleetsim help [COMMAND]
              This overview, or one command's options with their defaults and an example
              (also 'fleetsim COMMAND --help' or '-h').

        Exit codes: 0 success; 1 an invariant was violated (replay: in the story shown),
        an expectation failed (with --strict: or was inconclusive), compare found a
        regression or diverge a difference; 2 bad usage or bad input (nothing is written).
        """
        return out
    }
}

func eprint(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
