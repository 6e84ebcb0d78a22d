import Foundation
import Scenario
import Simulation

/// One `fleetsim` command: its help (which also declares the options the parser
/// accepts), a typed parse, a ``validate()`` that checks everything it can before any
/// work starts, and ``run(_:)``.
protocol Command: SendableMetatype {
    static var help: CommandHelp { get }
    /// Parses the arguments after the command word against ``help``'s options, for the
    /// runner named `runner` (the name its replay commands start with).
    static func make(_ arguments: [String], runner: String, engine: Engine) throws(CLIError) -> Self
    /// Types the arguments; no file is read here.
    init(_ arguments: ParsedArguments) throws(CLIError)
    /// Reads and checks inputs (scenario, `--scale`, `--out`) before anything is simulated.
    mutating func validate() throws(CLIError)
    /// Exit code: 0 success, 1 an invariant, an expectation or a gate failed.
    func run(_ context: Context) throws(CLIError) -> Int32
}

extension Command {
    static func make(_ arguments: [String], runner: String, engine: Engine) throws(CLIError) -> Self {
        var parsed = try ParsedArguments(arguments, for: help, runner: runner)
        parsed.engine = engine
        return try Self(parsed)
    }

    mutating func validate() throws(CLIError) {}
}

/// What a command may need to know about how it was started.
struct Context: Sendable {
    /// The binary as invoked (`CommandLine.arguments[0]`), for the commands it prints
    /// on the console, which paste as they are.
    var executable: String
    /// The runner's name (`fleetsim`, or an app's own runner): what the replay commands
    /// of the files it writes start with, the same bytes on every machine.
    var runner: String
    /// The logic set the runner simulates.
    var engine: Engine
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
        Whatif.self,
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

    static func main(_ argv: [String], runner: String, engine: Engine) -> Int32 {
        let context = Context(executable: argv.first ?? runner, runner: runner, engine: engine, stderrIsTerminal: isatty(2) == 1)
        do throws(CLIError) {
            switch try parse(Array(argv.dropFirst()), runner: runner, engine: engine) {
            case .help(let fleetsimText):
                let text = named(fleetsimText, runner: runner)
                print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
                return 0
            case .version:
                print(fleetsimVersion)
                return 0
            case .missingCommand:
                eprint(named(overview, runner: runner))
                return 2
            case .command(var command):
                try command.validate()
                return try command.run(context)
            }
        } catch {
            switch error {
            case .usage(let message, let command):
                eprint("\(runner): \(message)")
                eprint("Run '\(runner) help\(command.map { " \($0)" } ?? "")' for usage.")
            case .input(let message):
                eprint("error: \(message)")
            }
            return 2
        }
    }

    /// A help text as `runner` prints it: its commands and examples name the runner
    /// (`appteam-sim run ...`), as do its replay commands (docs/harness.md, "The runner").
    static func named(_ text: String, runner: String) -> String {
        guard runner != "fleetsim" else { return text }
        return text.replacingOccurrences(of: #"(?<![\w-])fleetsim(?![\w-])"#, with: NSRegularExpression.escapedTemplate(for: runner), options: .regularExpression)
    }

    /// Parses the arguments after the binary's name. Pure: reads no file.
    static func parse(_ args: [String], runner: String = "fleetsim", engine: Engine = .reference) throws(CLIError) -> Invocation {
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
            return .command(try type.make(rest, runner: runner, engine: engine))
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

/// The entry point of a runner: `fleetsim` itself, or an app's executable that runs
/// the same commands with its own logic set (docs/harness.md, "The runner"). `runner`
/// is the runner's name, which the replay commands in its reports (report.json,
/// summary.json) start with.
public enum FleetSimCommandLine {
    /// Runs the command that the process's arguments name with the worlds of `logics`,
    /// and exits with its code (0 success, 1 a violation, a failed expectation or a
    /// regression, 2 bad input).
    public static func main<Logics: LogicSet>(logics: Logics.Type, runner: String) -> Never {
        // Arguments are read as UTF-8; one that is not (a non-UTF-8 file name) is refused, as
        // Swift's String would replace its bytes and the runner would read or write another name.
        for i in 1..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[i], String(validatingCString: raw) == nil else { continue }
            eprint("\(runner): argument \(i) ('\(String(cString: raw))') is not valid UTF-8; FleetSim takes file names and values as UTF-8 text")
            exit(2)
        }
        exit(run(CommandLine.arguments, logics: logics, runner: runner))
    }

    /// Runs the command that `argv` names (`argv[0]` the binary as invoked) in this
    /// process with the worlds of `logics`, and returns its exit code.
    public static func run<Logics: LogicSet>(_ argv: [String], logics: Logics.Type, runner: String) -> Int32 {
        FleetSimCommand.main(argv, runner: runner, engine: Engine(logics: logics))
    }
}

func eprint(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
