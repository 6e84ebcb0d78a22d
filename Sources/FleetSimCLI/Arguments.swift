import Scenario

/// A command's arguments, parsed from a plain `[String]` against the options its
/// ``CommandHelp`` declares (so every option the parser accepts is in the help).
///
/// Rules: `--name value` and `--name=value` for options that take a value, `--name`
/// for flags; `--` ends the options; an option given twice, an unknown option and a
/// missing value are errors, with a "did you mean" suggestion for a misspelled name.
/// `-h` and `--help` are handled before parsing (see ``FleetSimCommand/parse(_:)``).
struct ParsedArguments {
    var command: String
    var positionals: [String] = []
    var options: [String: String] = [:]
    var flags: Set<String> = []
    /// The runner the arguments were given to (``Context/runner``).
    var runner = "fleetsim"
    /// The logic set the runner simulates (``Context/engine``).
    var engine = Engine.reference

    init(_ args: [String], for help: CommandHelp, runner: String = "fleetsim") throws(CLIError) {
        command = help.name
        self.runner = runner
        var i = 0
        var optionsEnded = false
        while i < args.count {
            let arg = args[i]
            i += 1
            guard !optionsEnded, Self.looksLikeOption(arg) else {
                positionals.append(arg)
                continue
            }
            if arg == "--" { optionsEnded = true; continue }
            var name = String(arg.drop(while: { $0 == "-" }))
            var value: String?
            if let eq = name.firstIndex(of: "=") {
                value = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard arg.hasPrefix("--"), let option = help.options.first(where: { $0.name == name }) else {
                throw .usage(Self.unknownOption(arg, name: name, help: help, runner: runner), command: help.name)
            }
            guard options[name] == nil, !flags.contains(name) else {
                throw .usage("--\(name) is given twice", command: help.name)
            }
            if option.value == nil {
                guard value == nil else { throw .usage("--\(name) takes no value", command: help.name) }
                flags.insert(name)
            } else {
                if value == nil {
                    guard i < args.count, !args[i].hasPrefix("--") else {
                        throw .usage("--\(name) needs a value (\(option.value ?? ""))", command: help.name)
                    }
                    value = args[i]
                    i += 1
                }
                options[name] = value
            }
        }
        for option in help.options where option.required && options[option.name] == nil {
            throw .usage("\(help.name) needs --\(option.name) \(option.value ?? "")", command: help.name)
        }
    }

    /// `-x` and `--x` are options; `-` alone and negative numbers (`-1`) are not.
    static func looksLikeOption(_ arg: String) -> Bool {
        guard arg.hasPrefix("-"), arg.count > 1 else { return false }
        return Double(arg) == nil
    }

    private static func unknownOption(_ arg: String, name: String, help: CommandHelp, runner: String) -> String {
        var message = "unknown option '\(arg)' for '\(runner) \(help.name)'"
        if let near = KeySuggestion.closest(to: name, among: help.options.map(\.name)) {
            message += "; did you mean '--\(near)'?"
        }
        return message
    }

    // MARK: - Positionals

    /// The positional at `index`, named as the help names it when missing.
    func positional(_ index: Int, _ what: String) throws(CLIError) -> String {
        guard index < positionals.count else { throw .usage("missing \(what)", command: command) }
        return positionals[index]
    }

    func noExtraPositionals(after count: Int) throws(CLIError) {
        if positionals.count > count { throw .usage("unexpected argument '\(positionals[count])'", command: command) }
    }

    // MARK: - Typed values

    func int(_ name: String) throws(CLIError) -> Int? {
        guard let text = options[name] else { return nil }
        guard let v = Int(text) else { throw .usage("--\(name) expects an integer, found '\(text)'", command: command) }
        return v
    }

    func uint64(_ name: String) throws(CLIError) -> UInt64? {
        guard let text = options[name] else { return nil }
        guard let v = UInt64(text) else { throw .usage("--\(name) expects a non-negative integer, found '\(text)'", command: command) }
        return v
    }

    func double(_ name: String) throws(CLIError) -> Double? {
        guard let text = options[name] else { return nil }
        guard let v = Double(text), v.isFinite else { throw .usage("--\(name) expects a number, found '\(text)'", command: command) }
        return v
    }
}

/// Why a command stopped before it ran. Both cases exit with 2.
enum CLIError: Error, Equatable {
    /// Bad usage: printed with the hint to that command's help.
    case usage(String, command: String?)
    /// Bad input (a scenario, a report, an output directory): printed as `error: ...`.
    case input(String)
}
