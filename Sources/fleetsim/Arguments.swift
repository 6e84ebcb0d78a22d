/// A tiny argument parser in the shape of swift-argument-parser: a command word,
/// positionals, and `--name value` options, parsed from a plain `[String]`.
struct Arguments {
    var positionals: [String] = []
    var options: [String: String] = [:]
    var flags: Set<String> = []

    /// - Parameters:
    ///   - valued: options that take a value (`--seed 3` or `--seed=3`).
    ///   - flags: options that take none (`--quiet`).
    init(_ args: ArraySlice<String>, valued: Set<String>, flags known: Set<String>) throws(UsageError) {
        var i = args.startIndex
        while i < args.endIndex {
            let arg = args[i]
            i += 1
            guard arg.hasPrefix("--") else { positionals.append(arg); continue }
            var name = String(arg.dropFirst(2))
            var value: String?
            if let eq = name.firstIndex(of: "=") {
                value = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            if known.contains(name) {
                guard value == nil else { throw UsageError("--\(name) takes no value") }
                flags.insert(name)
            } else if valued.contains(name) {
                if value == nil {
                    guard i < args.endIndex else { throw UsageError("--\(name) needs a value") }
                    value = args[i]
                    i += 1
                }
                options[name] = value
            } else {
                throw UsageError("unknown option --\(name)")
            }
        }
    }

    func positional(_ index: Int, _ what: String) throws(UsageError) -> String {
        guard index < positionals.count else { throw UsageError("missing \(what)") }
        return positionals[index]
    }

    func noExtraPositionals(after count: Int) throws(UsageError) {
        if positionals.count > count { throw UsageError("unexpected argument '\(positionals[count])'") }
    }

    func int(_ name: String) throws(UsageError) -> Int? {
        guard let text = options[name] else { return nil }
        guard let v = Int(text) else { throw UsageError("--\(name) expects an integer, found '\(text)'") }
        return v
    }

    func uint64(_ name: String) throws(UsageError) -> UInt64? {
        guard let text = options[name] else { return nil }
        guard let v = UInt64(text) else { throw UsageError("--\(name) expects a non-negative integer, found '\(text)'") }
        return v
    }

    func double(_ name: String) throws(UsageError) -> Double? {
        guard let text = options[name] else { return nil }
        guard let v = Double(text), v.isFinite else { throw UsageError("--\(name) expects a number, found '\(text)'") }
        return v
    }
}

/// Bad usage: printed with the help hint, exit code 2.
struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
