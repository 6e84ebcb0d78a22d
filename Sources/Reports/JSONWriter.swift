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
/// - A packed list (`.integers`, `.numbers`) is written as the `.array` of its elements.
/// - Strings escape `"` and `\` with a backslash and every control character
///   U+0000–U+001F as `\u00xx` (lowercase hex); everything else is written as UTF-8.
public enum JSONWriter {
    /// The JSON text of `value`, ending with a newline.
    /// - Complexity: O(n + k log k) for n characters of output and k keys per object.
    public static func encode(_ value: ReportValue) -> String {
        String(decoding: utf8(value), as: UTF8.self)
    }

    /// The UTF-8 bytes of ``encode(_:)``, written straight into a byte buffer (a merged
    /// million-phone report is about 10 MB: appending bytes costs a fraction of
    /// appending to a `String`).
    /// - Complexity: O(n + k log k) for n bytes of output and k keys per object.
    public static func utf8(_ value: ReportValue) -> [UInt8] {
        var out = ByteSink(capacity: 1 << 16)
        write(value, level: 0, into: &out)
        out.append(UInt8(ascii: "\n"))
        return out.bytes()
    }

    /// The JSON text of a single string (with quotes), escaped as described above.
    /// - Complexity: O(length).
    public static func quoted(_ text: String) -> String {
        var out = ""
        writeString(text, into: &out)
        return out
    }

    private static func write(_ value: ReportValue, level: Int, into out: inout ByteSink) {
        switch value {
        case .array(let items):
            if items.isEmpty {
                out.append("[]")
            } else if items.allSatisfy(isScalar) {
                // Series of numbers are most of a report: one line, no recursion.
                out.append(UInt8(ascii: "["))
                items.withUnsafeBufferPointer { items in
                    for i in items.indices {
                        if i > 0 { out.append(", ") }
                        writeScalar(items[i], into: &out)
                    }
                }
                out.append(UInt8(ascii: "]"))
            } else {
                out.append("[\n")
                for (i, item) in items.enumerated() {
                    indent(level + 1, into: &out)
                    write(item, level: level + 1, into: &out)
                    if i + 1 < items.count { out.append(UInt8(ascii: ",")) }
                    out.append(UInt8(ascii: "\n"))
                }
                indent(level, into: &out)
                out.append(UInt8(ascii: "]"))
            }
        case .integers(let xs):
            out.append(UInt8(ascii: "["))
            for i in xs.indices {
                if i > 0 { out.append(", ") }
                writeInteger(xs[i], into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .numbers(let xs, let digits):
            out.append(UInt8(ascii: "["))
            for i in xs.indices {
                if i > 0 { out.append(", ") }
                FixedDecimal.write(xs[i], digits: digits, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else { out.append("{}"); return }
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            out.append("{\n")
            for (i, member) in sorted.enumerated() {
                indent(level + 1, into: &out)
                writeString(member.key, into: &out)
                out.append(": ")
                write(member.value, level: level + 1, into: &out)
                if i + 1 < sorted.count { out.append(UInt8(ascii: ",")) }
                out.append(UInt8(ascii: "\n"))
            }
            indent(level, into: &out)
            out.append(UInt8(ascii: "}"))
        default:
            writeScalar(value, into: &out)
        }
    }

    /// A value that is neither an array nor an object.
    @inline(__always) private static func writeScalar(_ value: ReportValue, into out: inout ByteSink) {
        switch value {
        case .null: out.append("null")
        case .array, .object, .integers, .numbers: preconditionFailure("writeScalar is given scalars only")
        case .bool(let flag): out.append(flag ? "true" : "false")
        case .int(let integer): writeInteger(integer, into: &out)
        case .number(let x, let digits): FixedDecimal.write(x, digits: digits, into: &out)
        case .string(let text): writeString(text, into: &out)
        }
    }

    /// The decimal digits of `n`, `-` first when negative (`Int64.min` included),
    /// written backwards straight into the sink's next bytes, two at a time from
    /// ``FixedDecimal/digitPairs``. A load series is mostly zeros and small counts, so a
    /// single digit is written at once.
    @inline(__always) private static func writeInteger(_ n: Int64, into out: inout ByteSink) {
        if n >= 0 && n < 10 {
            out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: n))
            return
        }
        let sign = n < 0 ? 1 : 0
        let length = sign + FixedDecimal.decimalLength(n.magnitude)
        let room = out.reserve(length)
        if sign == 1 { room[0] = UInt8(ascii: "-") }
        FixedDecimal.writeDigits(n.magnitude, endingAt: room + length)
        out.commit(length)
    }

    private static func isScalar(_ value: ReportValue) -> Bool {
        switch value {
        case .array, .object, .integers, .numbers: return false
        default: return true
        }
    }

    private static func indent(_ level: Int, into out: inout ByteSink) {
        out.append(repeating: UInt8(ascii: " "), count: 2 * level)
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// ``writeString(_:into:)`` into bytes. UTF-8 bytes from 0x80 up are never `"`, `\\`
    /// or a control character, so escaping byte by byte escapes what the scalars would.
    private static func writeString(_ text: String, into out: inout ByteSink) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case 0x22: out.append(UInt8(ascii: "\\")); out.append(byte)
            case 0x5C: out.append(UInt8(ascii: "\\")); out.append(byte)
            case 0x00..<0x20:
                out.append("\\u00")
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

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
                out.unicodeScalars.append(Unicode.Scalar(hexDigits[Int(scalar.value >> 4)]))
                out.unicodeScalars.append(Unicode.Scalar(hexDigits[Int(scalar.value & 0xF)]))
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
