/// Writes a ``ReportValue`` as byte-deterministic JSON text.
///
/// Rules (the output is a pure function of the value, on every machine and release):
/// - Object keys are sorted by Unicode scalar values (compared as UTF-8 bytes, which
///   orders the same way), never by locale or by `String`'s `<`.
/// - Two-space indentation; `"key": value` with one space; one member or element per
///   line, except that an array holding only scalars (no arrays or objects) is written
///   on one line, `[1, 2, 3]`; empty containers are `{}` and `[]`. The document ends
///   with a newline.
/// - `.int` prints its decimal digits; `.number(x, digits:)` prints exactly `digits`
///   fraction digits via ``FixedDecimal`` (exact value, ties away from zero, `-0` as
///   `0`); a non-finite number prints `null`.
/// - Strings escape `"` and `\` with a backslash and every control character
///   U+0000–U+001F as `\u00xx` (lowercase hex); everything else is written as UTF-8.
public enum JSONWriter {
    /// The JSON text of `value`, ending with a newline.
    /// - Complexity: O(n + k log k) for n characters of output and k keys per object.
    public static func encode(_ value: ReportValue) -> String {
        var out = ""
        write(value, level: 0, into: &out)
        out += "\n"
        return out
    }

    /// The JSON text of a single string (with quotes), escaped as described above.
    /// - Complexity: O(length).
    public static func quoted(_ text: String) -> String {
        var out = ""
        writeString(text, into: &out)
        return out
    }

    private static func write(_ value: ReportValue, level: Int, into out: inout String) {
        switch value {
        case .null:
            out += "null"
        case .bool(let flag):
            out += flag ? "true" : "false"
        case .int(let integer):
            out += String(integer)
        case .number(let x, let digits):
            out += FixedDecimal.format(x, digits: digits) ?? "null"
        case .string(let text):
            writeString(text, into: &out)
        case .array(let items):
            if items.isEmpty {
                out += "[]"
            } else if items.allSatisfy(isScalar) {
                out += "["
                for (i, item) in items.enumerated() {
                    if i > 0 { out += ", " }
                    write(item, level: level + 1, into: &out)
                }
                out += "]"
            } else {
                out += "[\n"
                for (i, item) in items.enumerated() {
                    indent(level + 1, into: &out)
                    write(item, level: level + 1, into: &out)
                    out += i + 1 < items.count ? ",\n" : "\n"
                }
                indent(level, into: &out)
                out += "]"
            }
        case .object(let members):
            guard !members.isEmpty else { out += "{}"; return }
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            out += "{\n"
            for (i, key) in keys.enumerated() {
                indent(level + 1, into: &out)
                writeString(key, into: &out)
                out += ": "
                write(members[key] ?? .null, level: level + 1, into: &out)
                out += i + 1 < keys.count ? ",\n" : "\n"
            }
            indent(level, into: &out)
            out += "}"
        }
    }

    private static func isScalar(_ value: ReportValue) -> Bool {
        switch value {
        case .array, .object: return false
        default: return true
        }
    }

    private static func indent(_ level: Int, into out: inout String) {
        out += String(repeating: "  ", count: level)
    }

    private static let hexDigits: [Character] = Array("0123456789abcdef")

    /// `text` as a JSON string literal: `"` and `\` escaped, control characters as `\u00XX`.
    /// Shared with the scenario writer (Scenario's `JSONValue.text`), so both escape alike.
    package static func writeString(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x00..<0x20:
                out += "\\u00"
                out.append(hexDigits[Int(scalar.value >> 4)])
                out.append(hexDigits[Int(scalar.value & 0xF)])
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
