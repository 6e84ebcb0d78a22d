/// What `fleetsim help CMD` prints and what the parser accepts: one declaration per
/// command, so the help cannot forget an option the parser knows.
struct CommandHelp: Sendable {
    struct Argument: Sendable {
        var name: String
        var text: String
    }

    struct Option: Sendable {
        var name: String
        /// The value's placeholder (`N`, `DIR`); nil for a flag.
        var value: String?
        var text: String
        /// The default as the user would write it; nil when there is none to state.
        var defaultValue: String?
        var required = false

        static func valued(_ name: String, _ value: String, _ text: String, default defaultValue: String? = nil, required: Bool = false) -> Option {
            Option(name: name, value: value, text: text, defaultValue: defaultValue, required: required)
        }

        static func flag(_ name: String, _ text: String) -> Option {
            Option(name: name, value: nil, text: text, defaultValue: "off")
        }

        var synopsis: String {
            let body = value.map { "--\(name) \($0)" } ?? "--\(name)"
            return required ? body : "[\(body)]"
        }
    }

    var name: String
    /// One line for the overview.
    var abstract: String
    var arguments: [Argument] = []
    var options: [Option] = []
    /// Extra usage lines when the command has more than one form (`compare --seeds`).
    var otherForms: [String] = []
    /// Paragraphs after the options: rules, methods, exit codes.
    var discussion: String = ""
    var examples: [String] = []

    /// `fleetsim run SCENARIO [--seed N] ...`
    var usage: String {
        (["fleetsim", name] + arguments.map(\.name) + options.map(\.synopsis)).joined(separator: " ")
    }

    /// The whole help of this command.
    var text: String {
        var out = "fleetsim \(name): \(abstract)\n\nUSAGE\n  \(usage)\n"
        for form in otherForms { out += "  \(form)\n" }
        let rows = arguments.map { ($0.name, $0.text) }
        if !rows.isEmpty { out += "\nARGUMENTS\n" + Self.table(rows) }
        var optionRows = options.map { o -> (String, String) in
            let left = "--\(o.name)" + (o.value.map { " \($0)" } ?? "")
            let right = o.text + (o.required ? " (required)" : o.defaultValue.map { " (default: \($0))" } ?? "")
            return (left, right)
        }
        optionRows.append(("-h, --help", "show this help"))
        out += "\nOPTIONS\n" + Self.table(optionRows)
        if !discussion.isEmpty { out += "\n" + discussion + "\n" }
        if !examples.isEmpty {
            out += "\n" + (examples.count == 1 ? "EXAMPLE" : "EXAMPLES") + "\n" + examples.map { "  \($0)\n" }.joined()
        }
        return out
    }

    /// Two columns; long left cells put the text on the next line.
    static func table(_ rows: [(String, String)]) -> String {
        let width = min(24, (rows.map(\.0.count).max() ?? 0) + 2)
        var out = ""
        for (left, right) in rows {
            let lines = right.split(separator: "\n", omittingEmptySubsequences: false)
            if left.count + 2 > width {
                out += "  \(left)\n"
                for line in lines { out += String(repeating: " ", count: width + 2) + line + "\n" }
            } else {
                for (i, line) in lines.enumerated() {
                    let head = i == 0 ? left + String(repeating: " ", count: width - left.count) : String(repeating: " ", count: width)
                    out += "  " + head + line + "\n"
                }
            }
        }
        return out
    }
}
