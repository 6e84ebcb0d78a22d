/// Reads a `report.json` straight into a ``ReportValue``, as `fleetsim merge` needs it:
/// integers as `.int`, other numbers as `.number` with the fraction digits they were
/// written with (so an unchanged value is written back byte for byte).
///
/// Why: merge read each report through the general JSON parser (a tree that keeps every
/// number's literal text) and then converted that tree; the two took about 60 % of a
/// 16-shard merge (docs/scale.md, "How fast merge is"). This reader makes one pass over
/// the bytes and builds only the report's own model.
///
/// Rules: it accepts a subset of what the general parser accepts (an object at the top;
/// strings of ASCII text with the simple escapes; at most 256 levels) and gives the
/// value the general route gives (ReportJSONReaderTests checks both on shard reports
/// and on edge cases). For anything else, `read` returns nil and the caller takes the
/// general route, which also words every syntax error (file, line, column).
public enum ReportJSONReader {
    /// The report, or nil when the bytes are not plain JSON of the subset above.
    public static func read(_ bytes: [UInt8]) -> ReportValue? {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = Reader(bytes: buffer)
            reader.skipWhitespace()
            guard reader.peek == UInt8(ascii: "{"), let value = reader.value(depth: 0) else { return nil }
            reader.skipWhitespace()
            return reader.index == buffer.count ? value : nil
        }
    }

    /// The most nested arrays and objects (the general parser's limit).
    static let maximumDepth = 256

    struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) -> ReportValue? {
            guard let byte = peek else { return nil }
            switch byte {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string().map(ReportValue.string)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
            case UInt8(ascii: "t"): return word("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return word("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return word("null") ? .null : nil
            default: return nil
            }
        }

        mutating func word(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            for k in 0 ..< count where bytes[index + k] != text.utf8Start[k] { return false }
            index += count
            return true
        }

        mutating func object(depth: Int) -> ReportValue? {
            guard depth < ReportJSONReader.maximumDepth else { return nil }
            index += 1
            var members: [String: ReportValue] = [:]
            skipWhitespace()
            if peek == UInt8(ascii: "}") { index += 1; return .object(members) }
            while true {
                skipWhitespace()
                guard peek == UInt8(ascii: "\""), let key = string() else { return nil }
                skipWhitespace()
                guard peek == UInt8(ascii: ":") else { return nil }
                index += 1
                skipWhitespace()
                // A key twice is an error of the general parser: let it word it.
                guard let member = value(depth: depth + 1), members.updateValue(member, forKey: key) == nil else { return nil }
                skipWhitespace()
                switch peek {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "}"): index += 1; return .object(members)
                default: return nil
                }
            }
        }

        mutating func array(depth: Int) -> ReportValue? {
            guard depth < ReportJSONReader.maximumDepth else { return nil }
            index += 1
            var items: [ReportValue] = []
            skipWhitespace()
            if peek == UInt8(ascii: "]") { index += 1; return .array(items) }
            while true {
                skipWhitespace()
                guard let item = value(depth: depth + 1) else { return nil }
                items.append(item)
                skipWhitespace()
                switch peek {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "]"): index += 1; return .array(items)
                default: return nil
                }
            }
        }

        /// ASCII text with the simple escapes; nil for a `\u` escape or any other byte
        /// above 0x7F (the general parser validates and decodes those).
        mutating func string() -> String? {
            index += 1
            let start = index
            var escaped = false
            while index < bytes.count {
                let b = bytes[index]
                if b == UInt8(ascii: "\"") {
                    let text = UnsafeBufferPointer(rebasing: bytes[start ..< index])
                    index += 1
                    return escaped ? Self.unescaped(text) : String(decoding: text, as: UTF8.self)
                }
                guard b >= 0x20, b < 0x80 else { return nil }
                if b == UInt8(ascii: "\\") {
                    guard index + 1 < bytes.count, Self.escape(bytes[index + 1]) != nil else { return nil }
                    escaped = true
                    index += 2
                } else {
                    index += 1
                }
            }
            return nil
        }

        /// The byte a simple escape (`\"` `\\` `\/` `\b` `\f` `\n` `\r` `\t`) stands for.
        static func escape(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "\""): return 0x22
            case UInt8(ascii: "\\"): return 0x5C
            case UInt8(ascii: "/"): return 0x2F
            case UInt8(ascii: "b"): return 0x08
            case UInt8(ascii: "f"): return 0x0C
            case UInt8(ascii: "n"): return 0x0A
            case UInt8(ascii: "r"): return 0x0D
            case UInt8(ascii: "t"): return 0x09
            default: return nil
            }
        }

        static func unescaped(_ text: UnsafeBufferPointer<UInt8>) -> String {
            var out: [UInt8] = []
            out.reserveCapacity(text.count)
            var k = 0
            while k < text.count {
                if text[k] == UInt8(ascii: "\\") { out.append(escape(text[k + 1])!); k += 2 } else { out.append(text[k]); k += 1 }
            }
            return String(decoding: out, as: UTF8.self)
        }

        /// JSON's number grammar. An integer that fits `Int64` is `.int`; anything else a
        /// `.number` of the `Double` the general parser reads, with the digits after the
        /// point as written (to the end of the literal).
        mutating func number() -> ReportValue? {
            let start = index
            let negative = bytes[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            guard let first = peek, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else { return nil }
            var magnitude: UInt64 = 0
            var fits = true
            if first == UInt8(ascii: "0") {
                index += 1
                if let next = peek, next >= UInt8(ascii: "0"), next <= UInt8(ascii: "9") { return nil }
            } else {
                while let d = peek, d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") {
                    let (times, o1) = magnitude.multipliedReportingOverflow(by: 10)
                    let (plus, o2) = times.addingReportingOverflow(UInt64(d - UInt8(ascii: "0")))
                    fits = fits && !o1 && !o2
                    magnitude = plus
                    index += 1
                }
            }
            var point: Int?
            if peek == UInt8(ascii: ".") {
                point = index
                index += 1
                guard skipDigits() else { return nil }
            }
            var exponent = false
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                exponent = true
                index += 1
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
                guard skipDigits() else { return nil }
            }
            if point == nil, !exponent, fits {
                if !negative, magnitude <= UInt64(Int64.max) { return .int(Int64(magnitude)) }
                if negative, magnitude <= UInt64(Int64.max) + 1 { return .int(magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude)) }
            }
            let literal = String(decoding: UnsafeBufferPointer(rebasing: bytes[start ..< index]), as: UTF8.self)
            guard let x = Double(literal), x.isFinite else { return nil }
            return .number(x, digits: point.map { index - $0 - 1 } ?? 0)
        }

        /// One or more digits; false when there is none.
        mutating func skipDigits() -> Bool {
            let start = index
            while let d = peek, d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") { index += 1 }
            return index > start
        }
    }
}
