import Reports

extension JSONValue {
    /// The document as deterministic JSON text, for files a tool writes back (e.g. a
    /// shrunk scenario):
    /// - object keys sorted by their UTF-8 bytes (never by locale), two-space indentation,
    ///   `"key": value` with one space, one member or element per line, except that an
    ///   array of scalars is written on one line, `[1, 2]`; empty containers are `{}` and `[]`;
    /// - numbers as the literal text they were read or built with, so `0.25` stays `0.25`;
    /// - strings escape `"`, `\` and the control characters U+0000-U+001F (`\u00xx`).
    ///
    /// The text ends with a newline and parses back (``JSONParser``) to ``withSortedKeys``.
    /// Sorting can change what a scenario means: a categorical choice draws its options
    /// in file order. ``text(sortingKeys:)`` with `false` keeps the members' order.
    /// - Complexity: O(n + k log k) for n characters of output and k keys per object.
    public var sortedText: String { text(sortingKeys: true) }

    /// The text described at ``sortedText``, with object members sorted or in their order.
    public func text(sortingKeys: Bool) -> String {
        var out = ""
        JSONValue.write(sortingKeys ? withSortedKeys : self, level: 0, into: &out)
        out += "\n"
        return out
    }

    /// The same value with every object's members sorted by their keys' UTF-8 bytes.
    public var withSortedKeys: JSONValue {
        switch self {
        case .array(let items): return .array(items.map(\.withSortedKeys))
        case .object(let members):
            return .object(members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                .map { (key: $0.key, value: $0.value.withSortedKeys) })
        default: return self
        }
    }

    private static func write(_ value: JSONValue, level: Int, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .number(_, let literal): out += literal
        case .string(let text): JSONWriter.writeString(text, into: &out)
        case .array(let items):
            if items.isEmpty {
                out += "[]"
            } else if items.allSatisfy(\.isScalar) {
                out += "["
                for (i, item) in items.enumerated() {
                    if i > 0 { out += ", " }
                    write(item, level: level + 1, into: &out)
                }
                out += "]"
            } else {
                out += "[\n"
                for (i, item) in items.enumerated() {
                    out += String(repeating: "  ", count: level + 1)
                    write(item, level: level + 1, into: &out)
                    out += i + 1 < items.count ? ",\n" : "\n"
                }
                out += String(repeating: "  ", count: level) + "]"
            }
        case .object(let members):
            guard !members.isEmpty else { out += "{}"; return }
            out += "{\n"
            for (i, member) in members.enumerated() {
                out += String(repeating: "  ", count: level + 1)
                JSONWriter.writeString(member.key, into: &out)
                out += ": "
                write(member.value, level: level + 1, into: &out)
                out += i + 1 < members.count ? ",\n" : "\n"
            }
            out += String(repeating: "  ", count: level) + "}"
        }
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }
}
