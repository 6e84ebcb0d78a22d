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
        String(decoding: utf8(value), as: UTF8.self)
    }

    /// The UTF-8 bytes of ``encode(_:)``, written straight into a byte buffer (a merged
    /// million-phone report is about 10 MB: appending bytes costs a fraction of
    /// appending to a `String`).
    /// - Complexity: O(n + k log k) for n bytes of output and k keys per object.
    public static func utf8(_ value: ReportValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1 << 16)
        write(value, level: 0, into: &out)
        out.append(UInt8(ascii: "\n"))
        return out
    }

    /// The JSON text of a single string (with quotes), escaped as described above.
    /// - Complexity: O(length).
    public static func quoted(_ text: String) -> String {
        var out = ""
        writeString(text, into: &out)
        return out
    }

    private static func write(_ value: ReportValue, level: Int, into out: inout [UInt8]) {
        switch value {
        case .null:
            out.append(contentsOf: "null".utf8)
        case .bool(let flag):
            out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .int(let integer):
            writeInteger(integer, into: &out)
        case .number(let x, let digits):
            FixedDecimal.write(x, digits: digits, into: &out)
        case .string(let text):
            writeString(text, into: &out)
        case .array(let items):
            if items.isEmpty {
                out.append(contentsOf: "[]".utf8)
            } else if items.allSatisfy(isScalar) {
                out.append(UInt8(ascii: "["))
                for (i, item) in items.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")); out.append(UInt8(ascii: " ")) }
                    write(item, level: level + 1, into: &out)
                }
                out.append(UInt8(ascii: "]"))
            } else {
                out.append(UInt8(ascii: "[")); out.append(UInt8(ascii: "\n"))
                for (i, item) in items.enumerated() {
                    indent(level + 1, into: &out)
                    write(item, level: level + 1, into: &out)
                    if i + 1 < items.count { out.append(UInt8(ascii: ",")) }
                    out.append(UInt8(ascii: "\n"))
                }
                indent(level, into: &out)
                out.append(UInt8(ascii: "]"))
            }
        case .object(let members):
            guard !members.isEmpty else { out.append(contentsOf: "{}".utf8); return }
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            out.append(UInt8(ascii: "{")); out.append(UInt8(ascii: "\n"))
            for (i, key) in keys.enumerated() {
                indent(level + 1, into: &out)
                writeString(key, into: &out)
                out.append(UInt8(ascii: ":")); out.append(UInt8(ascii: " "))
                write(members[key] ?? .null, level: level + 1, into: &out)
                if i + 1 < keys.count { out.append(UInt8(ascii: ",")) }
                out.append(UInt8(ascii: "\n"))
            }
            indent(level, into: &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// The decimal digits of `n`, `-` first when negative (`Int64.min` included): written
    /// backwards into 20 bytes on the stack, then appended at once.
    private static func writeInteger(_ n: Int64, into out: inout [UInt8]) {
        if n < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = n.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: UInt64.max has 20 digits
        withUnsafeMutableBytes(of: &digits) { buffer in
            var i = buffer.count
            repeat {
                i -= 1
                buffer[i] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude != 0
            out.append(contentsOf: UnsafeMutableRawBufferPointer(rebasing: buffer[i...]))
        }
    }

    private static func isScalar(_ value: ReportValue) -> Bool {
        switch value {
        case .array, .object: return false
        default: return true
        }
    }

    private static func indent(_ level: Int, into out: inout [UInt8]) {
        for _ in 0..<(2 * level) { out.append(UInt8(ascii: " ")) }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// ``writeString(_:into:)`` into bytes. UTF-8 bytes from 0x80 up are never `"`, `\\`
    /// or a control character, so escaping byte by byte escapes what the scalars would.
    private static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case 0x22: out.append(UInt8(ascii: "\\")); out.append(byte)
            case 0x5C: out.append(UInt8(ascii: "\\")); out.append(byte)
            case 0x00..<0x20:
                out.append(contentsOf: "\\u00".utf8)
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
