/// A parsed JSON value (RFC 8259), as ``JSONParser`` produces it.
///
/// Object members stay in file order (an array, not a dictionary), so that every
/// walk over a document, and so every error message, is deterministic. Keys are
/// unique: the parser rejects duplicates. Numbers keep their literal text next to
/// their `Double` value, so that integers beyond 2^53 can be read exactly and
/// messages can quote what the file says.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A finite number and its literal text as written, e.g. `(3, "3")` or `(0.25, "2.5e-1")`.
    case number(Double, literal: String)
    case string(String)
    case array([JSONValue])
    /// Members in file order; keys are unique.
    case object([(key: String, value: JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.number(x, lx), .number(y, ly)): return x == y && lx == ly
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The value of member `key` of an object; nil for a missing key or a non-object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first(where: { $0.key == key })?.value
    }
}

extension JSONValue {
    /// How an error message names this value after "found": `"7x"`, `a number 3`,
    /// `true`, `null`, `an array of 2 elements`, `an object with keys "a", "b"`.
    /// Long strings are shortened and control characters escaped, so the text is
    /// always one printable line.
    public var foundDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(_, let literal): return "a number \(JSONValue.quoteForMessage(literal, quoted: false))"
        case .string(let s): return JSONValue.quoteForMessage(s)
        case .array(let elements):
            switch elements.count {
            case 0: return "an empty array"
            case 1: return "an array of 1 element"
            default: return "an array of \(elements.count) elements"
            }
        case .object(let members):
            if members.isEmpty { return "an empty object" }
            let shown = members.prefix(4).map { JSONValue.quoteForMessage($0.key) }.joined(separator: ", ")
            let more = members.count > 4 ? ", ..." : ""
            return members.count == 1 ? "an object with the key \(shown)" : "an object with keys \(shown)\(more)"
        }
    }

    /// `text` made safe for a one-line message: at most `limit` characters, control
    /// and non-printing characters written as `\u{XX}`, and (when `quoted`) in double quotes.
    public static func quoteForMessage(_ text: String, quoted: Bool = true, limit: Int = 60) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit { out += "..."; break }
            count += 1
            switch scalar {
            case "\"" where quoted: out += "\\\""
            case "\\" where quoted: out += "\\\\"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || !scalar.properties.isPrintableForMessages {
                    out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted ? "\"\(out)\"" : out
    }
}

extension Unicode.Scalar.Properties {
    /// False for controls, format characters, separators other than the space,
    /// private-use and unassigned scalars: what would garble or hide text in a terminal.
    var isPrintableForMessages: Bool {
        switch generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned:
            return false
        default:
            return true
        }
    }
}
