/// A strict JSON parser (RFC 8259) over UTF-8 bytes.
///
/// Rules beyond the grammar, so that any input ends in a value or a
/// ``JSONSyntaxError``, never in a crash or a hang:
/// - text must be valid UTF-8 (overlong forms, surrogates and bytes past U+10FFFF are errors);
/// - `\u` escapes must pair surrogates; a lone surrogate is an error;
/// - numbers must be finite as a `Double` (`1e999` is an error);
/// - arrays and objects nest at most ``maximumDepth`` levels;
/// - a key appears at most once per object;
/// - one value per document, surrounded only by whitespace. A leading UTF-8 byte
///   order mark is skipped (RFC 8259 §8.1 allows ignoring it).
///
/// - Complexity: O(n) in the number of bytes; recursion depth ≤ ``maximumDepth``.
public struct JSONParser {
    /// Deepest nesting of arrays and objects accepted.
    public static let maximumDepth = 256

    /// Parses one JSON document.
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        return try parser.parseDocument()
    }

    /// A position with its line bookkeeping, so errors can point back at a token's start.
    private struct Mark {
        var index: Int
        var line: Int
        var lineStart: Int
    }

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    /// Keys and indices entered so far, for the path of an error.
    private var path: [JSONPath.Component] = []

    private init(bytes: [UInt8]) { self.bytes = bytes }

    // MARK: Document and values

    private mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            index = 3
            lineStart = 3
        }
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        guard index == bytes.count else {
            throw error("the end of the file after the top-level value")
        }
        return value
    }

    private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard let byte = peek() else { throw error("a JSON value") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case UInt8(ascii: "t"): try parseLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try parseLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try parseLiteral("null"); return .null
        default: throw error("a JSON value (an object, array, string, number, true, false or null)")
        }
    }

    private mutating func parseLiteral(_ word: StaticString) throws(JSONSyntaxError) {
        let start = mark()
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for b in expected {
            guard peek() == b else { throw error("`\(word)`", at: start) }
            index += 1
        }
    }

    // MARK: Containers

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth < JSONParser.maximumDepth else {
            throw error("at most \(JSONParser.maximumDepth) levels of nested arrays and objects")
        }
        index += 1  // {
        skipWhitespace()
        var members: [(key: String, value: JSONValue)] = []
        var seen = Set<String>()  // membership only; never iterated
        if peek() == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            guard peek() == UInt8(ascii: "\"") else {
                throw error(members.isEmpty ? "a key in double quotes" : "a key in double quotes (JSON allows no comma before `}`)")
            }
            let keyStart = mark()
            let key = try parseString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw error("`:` after the key \(JSONValue.quoteForMessage(key))") }
            index += 1
            skipWhitespace()
            path.append(.key(key))
            guard seen.insert(key).inserted else {
                throw error("each key at most once in an object",
                            found: "the key \(JSONValue.quoteForMessage(key)) a second time", at: keyStart)
            }
            let value = try parseValue(depth: depth + 1)
            path.removeLast()
            members.append((key: key, value: value))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                index += 1
                return .object(members)
            default:
                throw error("`,` or `}` after the value of \(JSONValue.quoteForMessage(key))")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth < JSONParser.maximumDepth else {
            throw error("at most \(JSONParser.maximumDepth) levels of nested arrays and objects")
        }
        index += 1  // [
        skipWhitespace()
        var elements: [JSONValue] = []
        if peek() == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            if !elements.isEmpty, peek() == UInt8(ascii: "]") {
                throw error("a JSON value (JSON allows no comma before `]`)")
            }
            path.append(.index(elements.count))
            let value = try parseValue(depth: depth + 1)
            path.removeLast()
            elements.append(value)
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "]"):
                index += 1
                return .array(elements)
            default:
                throw error("`,` or `]` after an array element")
            }
        }
    }

    // MARK: Strings

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1  // opening quote
        var buffer: [UInt8] = []
        while true {
            guard let b = peek() else { throw error("`\"` to close the string") }
            switch b {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try parseEscape(into: &buffer)
            case 0..<0x20:
                throw error("a character of the string (control characters such as a line break must be escaped, e.g. `\\n`)")
            case 0x20..<0x80:
                buffer.append(b)
                index += 1
            default:
                guard let n = utf8SequenceLength(at: index) else { throw error("valid UTF-8 text") }
                buffer.append(contentsOf: bytes[index..<(index + n)])
                index += n
            }
        }
    }

    private mutating func parseEscape(into buffer: inout [UInt8]) throws(JSONSyntaxError) {
        let escapeStart = mark()
        index += 1  // backslash
        guard let c = peek() else { throw error("an escape such as `\\n` after `\\`") }
        let simple: UInt8?
        switch c {
        case UInt8(ascii: "\""): simple = 0x22
        case UInt8(ascii: "\\"): simple = 0x5C
        case UInt8(ascii: "/"): simple = 0x2F
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): simple = nil
        default: throw error("one of the escapes `\\\"` `\\\\` `\\/` `\\b` `\\f` `\\n` `\\r` `\\t` `\\uXXXX`")
        }
        index += 1
        if let simple {
            buffer.append(simple)
            return
        }
        let unit = try parseHex4()
        var scalar = unit
        switch unit {
        case 0xD800...0xDBFF:
            guard peek() == UInt8(ascii: "\\"), peek(1) == UInt8(ascii: "u") else {
                throw error("a low surrogate `\\uDC00`-`\\uDFFF` right after the high surrogate",
                            found: "a lone high surrogate \\u\(hex(unit))", at: escapeStart)
            }
            index += 2
            let low = try parseHex4()
            guard (0xDC00...0xDFFF).contains(low) else {
                throw error("a low surrogate `\\uDC00`-`\\uDFFF` right after the high surrogate",
                            found: "\\u\(hex(unit))\\u\(hex(low))", at: escapeStart)
            }
            scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
        case 0xDC00...0xDFFF:
            throw error("a character escape (a low surrogate must follow a high surrogate)",
                        found: "a lone low surrogate \\u\(hex(unit))", at: escapeStart)
        default:
            break
        }
        JSONParser.appendUTF8(scalar, to: &buffer)
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let b = peek(), let digit = JSONParser.hexDigit(b) else {
                throw error("four hexadecimal digits after `\\u`")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private static func hexDigit(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(b - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private func hex(_ v: UInt32) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }

    /// Appends the UTF-8 encoding of a scalar value (≤ U+10FFFF, not a surrogate).
    private static func appendUTF8(_ v: UInt32, to buffer: inout [UInt8]) {
        switch v {
        case 0..<0x80:
            buffer.append(UInt8(v))
        case 0x80..<0x800:
            buffer.append(UInt8(0xC0 | (v >> 6)))
            buffer.append(UInt8(0x80 | (v & 0x3F)))
        case 0x800..<0x10000:
            buffer.append(UInt8(0xE0 | (v >> 12)))
            buffer.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            buffer.append(UInt8(0x80 | (v & 0x3F)))
        default:
            buffer.append(UInt8(0xF0 | ((v >> 18) & 0x07)))
            buffer.append(UInt8(0x80 | ((v >> 12) & 0x3F)))
            buffer.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            buffer.append(UInt8(0x80 | (v & 0x3F)))
        }
    }

    /// The length of the well-formed UTF-8 sequence starting at `p` (Unicode Table 3-7), or nil.
    private func utf8SequenceLength(at p: Int) -> Int? {
        guard p < bytes.count else { return nil }
        let b0 = bytes[p]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch b0 {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: return nil
        }
        guard p + length <= bytes.count, secondRange.contains(bytes[p + 1]) else { return nil }
        for k in 2..<length where !(0x80...0xBF).contains(bytes[p + k]) { return nil }
        return length
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = mark()
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), JSONParser.isDigit(first) else { throw error("a digit after `-`") }
        index += 1
        if first == UInt8(ascii: "0") {
            if let next = peek(), JSONParser.isDigit(next) { throw error("no digit after a leading zero (JSON numbers have no leading zeros)") }
        } else {
            skipDigits()
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard let d = peek(), JSONParser.isDigit(d) else { throw error("a digit after the decimal point") }
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard let d = peek(), JSONParser.isDigit(d) else { throw error("a digit in the exponent") }
            skipDigits()
        }
        let literal = String(decoding: bytes[start.index..<index], as: UTF8.self)
        guard let value = Double(literal), value.isFinite else {
            throw error("a number a 64-bit float can hold (magnitude below 1.8e308)",
                        found: "a number \(JSONValue.quoteForMessage(literal, quoted: false, limit: 40))", at: start)
        }
        return .number(value, literal: literal)
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while let b = peek(), JSONParser.isDigit(b) { index += 1 }
    }

    // MARK: Position and errors

    private func peek(_ offset: Int = 0) -> UInt8? {
        let p = index + offset
        return p < bytes.count ? bytes[p] : nil
    }

    private func mark() -> Mark { Mark(index: index, line: line, lineStart: lineStart) }

    /// Skips JSON whitespace (space, tab, CR, LF), counting lines at each LF.
    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D:
                index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default:
                return
            }
        }
    }

    /// An error at `mark` (default: the current position); `found` defaults to what the text has there.
    private func error(_ expected: String, found: String? = nil, at mark: Mark? = nil) -> JSONSyntaxError {
        let at = mark ?? self.mark()
        var column = 1
        var p = at.lineStart
        while p < at.index && p < bytes.count {
            if bytes[p] & 0xC0 != 0x80 { column += 1 }
            p += 1
        }
        return JSONSyntaxError(line: at.line, column: column, path: JSONPath(path).description,
                               expected: expected, found: found ?? describeText(at: at.index))
    }

    /// What the text has at `p`, for "found": a word (`"True"`), a character (`"]"`),
    /// a control or invalid byte (`the byte 0xFF (not valid UTF-8)`), or the end of the file.
    private func describeText(at p: Int) -> String {
        guard p < bytes.count else { return "the end of the file" }
        let b = bytes[p]
        if b < 0x20 || b == 0x7F {
            return "the control character 0x\(hexByte(b))"
        }
        if JSONParser.isWordByte(b) {
            var end = p
            while end < bytes.count, end - p < 30, JSONParser.isWordByte(bytes[end]) { end += 1 }
            return JSONValue.quoteForMessage(String(decoding: bytes[p..<end], as: UTF8.self))
        }
        guard let n = utf8SequenceLength(at: p) else {
            return "the byte 0x\(hexByte(b)) (not valid UTF-8)"
        }
        return JSONValue.quoteForMessage(String(decoding: bytes[p..<(p + n)], as: UTF8.self))
    }

    private static func isWordByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."),
             UInt8(ascii: "+"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    private func hexByte(_ b: UInt8) -> String {
        let s = String(b, radix: 16, uppercase: true)
        return s.count == 1 ? "0" + s : s
    }
}
