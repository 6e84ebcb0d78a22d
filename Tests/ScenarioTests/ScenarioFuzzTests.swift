import Testing
import SimKernel
@testable import Scenario

/// Mutants of valid files (seeded, via `RandomStream`) either decode or are rejected
/// with a message naming the file; none crashes, hangs or answers differently twice.
@Suite struct ScenarioFuzzTests {
    static let tokens: [[UInt8]] = ["{", "}", "[", "]", "\"", ",", ":", "-", "1e999", "null", "\"7x\"", "\\u", "\\ud800",
                                    "0", "-0.0", "true", "\"\"", "9007199254740993", "{\"a\":1}", "\u{0}", "é"].map { Array($0.utf8) }

    /// One random edit of `bytes`: a byte flip, a truncation, a deleted span, a duplicated
    /// span, an inserted token, or a raw byte.
    static func mutate(_ bytes: inout [UInt8], _ rng: inout RandomStream) {
        func position(_ upTo: Int) -> Int { Int(rng.int(in: 0...Int64(max(0, upTo)))) }
        switch rng.int(in: 0...5) {
        case 0:
            guard !bytes.isEmpty else { return }
            bytes[position(bytes.count - 1)] ^= UInt8(1 << rng.int(in: 0...7))
        case 1:
            bytes.removeLast(bytes.count - position(bytes.count))
        case 2:
            let start = position(bytes.count)
            bytes.removeSubrange(start..<min(bytes.count, start + 1 + position(15)))
        case 3:
            let start = position(bytes.count)
            let span = Array(bytes[start..<min(bytes.count, start + 1 + position(31))])
            bytes.insert(contentsOf: span, at: position(bytes.count))
        case 4:
            bytes.insert(contentsOf: tokens[position(tokens.count - 1)], at: position(bytes.count))
        default:
            bytes.insert(UInt8(truncatingIfNeeded: rng.next()), at: position(bytes.count))
        }
    }

    @Test func mutantsDecodeOrFailWithAMessageNamingTheFile() {
        let seeds = [Fixtures.full, Fixtures.minimal, Fixtures.interfaceExample].map { Array($0.utf8) }
        var rng = RandomStream(seed: 20_260_302, entity: 0, purpose: "scenario-fuzz")
        var decoded = 0
        var rejected = 0
        for i in 0..<900 {
            var bytes = seeds[i % seeds.count]
            for _ in 0...rng.int(in: 0...2) { Self.mutate(&bytes, &rng) }
            let file = "mutant-\(i).json"
            let first = Fixtures.rejection(bytes: bytes, file: file)
            if let error = first {
                rejected += 1
                #expect(!error.description.isEmpty && error.description.contains(file), "\(error)")
                #expect(!error.path.isEmpty && error.path.hasPrefix("$"), "\(error)")
                #expect(!error.expected.isEmpty && !error.found.isEmpty, "\(error)")
            } else {
                decoded += 1
            }
            #expect(Fixtures.rejection(bytes: bytes, file: file) == first, "not deterministic: mutant \(i)")
        }
        #expect(rejected > 600 && decoded > 0, "decoded \(decoded), rejected \(rejected)")
    }

    @Test func randomBytesNeverCrash() {
        var rng = RandomStream(seed: 7, entity: 1, purpose: "scenario-fuzz-bytes")
        for i in 0..<300 {
            let count = Int(rng.int(in: 0...200))
            let alphabet = Array("{}[]\":,-0123456789.eE+tfnrulas \\\n".utf8)
            let bytes = (0..<count).map { _ -> UInt8 in
                rng.chance(0.9) ? alphabet[Int(rng.int(in: 0...Int64(alphabet.count - 1)))] : UInt8(truncatingIfNeeded: rng.next())
            }
            if let error = Fixtures.rejection(bytes: bytes, file: "random-\(i).json") {
                #expect(error.description.contains("random-\(i).json"))
            }
        }
    }

    /// Values that break some rule somewhere (or happen to be valid there).
    static let replacements: [JSONValue] = [
        .string("7x"), .number(-1, literal: "-1"), .null, .number(1e308, literal: "1e308"), .string(""), .object([]),
        .array([]), .string("0s"), .string("-1h"), .bool(true), .string("refresh.noSync"), .number(0.5, literal: "0.5"),
        .string("stepSync"), .string("Mars/Olympus"), .number(0, literal: "0"), .string("1h"), .number(2.5, literal: "2.5"),
        .object([(key: "uniform", value: .array([.string("2h"), .string("1h")]))]),
    ]

    /// `value` with its `target`-th node (pre-order) replaced, renamed or removed; `counter` counts nodes visited.
    static func mutateTree(_ value: JSONValue, target: Int, counter: inout Int, _ rng: inout RandomStream) -> JSONValue {
        let me = counter
        counter += 1
        if me == target {
            if case .object(var members) = value, !members.isEmpty, rng.chance(0.5) {
                let i = Int(rng.int(in: 0...Int64(members.count - 1)))
                if rng.chance(0.5) {
                    members.remove(at: i)
                } else {
                    members[i].key += "x"
                }
                return .object(members)
            }
            return replacements[Int(rng.int(in: 0...Int64(replacements.count - 1)))]
        }
        switch value {
        case .array(let elements):
            return .array(elements.map { mutateTree($0, target: target, counter: &counter, &rng) })
        case .object(let members):
            return .object(members.map { (key: $0.key, value: mutateTree($0.value, target: target, counter: &counter, &rng)) })
        default:
            return value
        }
    }

    static func nodeCount(_ value: JSONValue) -> Int {
        switch value {
        case .array(let elements): return 1 + elements.reduce(0) { $0 + nodeCount($1) }
        case .object(let members): return 1 + members.reduce(0) { $0 + nodeCount($1.value) }
        default: return 1
        }
    }

    /// Compact JSON text of a value (test-only writer).
    static func write(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(_, let literal): return literal
        case .string(let s): return quote(s)
        case .array(let elements): return "[" + elements.map(write).joined(separator: ",") + "]"
        case .object(let members): return "{" + members.map { quote($0.key) + ":" + write($0.value) }.joined(separator: ",") + "}"
        }
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if scalar.value < 0x20 {
                    out += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// Structure-aware mutants reach the validation rules behind the parser: every
    /// rejection names the file and a path below `$` that exists in the mutant.
    @Test func valueMutantsAreValidatedWithPaths() throws {
        let seeds = try [Fixtures.full, Fixtures.interfaceExample].map { text throws in try JSONParser.parse(Array(text.utf8)) }
        #expect(try JSONParser.parse(Array(Self.write(seeds[0]).utf8)) == seeds[0])
        var rng = RandomStream(seed: 20_260_302, entity: 1, purpose: "scenario-fuzz-values")
        var decoded = 0
        var rejected = 0
        for i in 0..<400 {
            var value = seeds[i % seeds.count]
            for _ in 0...rng.int(in: 0...1) {
                var counter = 0
                let target = Int(rng.int(in: 0...Int64(Self.nodeCount(value) - 1)))
                value = Self.mutateTree(value, target: target, counter: &counter, &rng)
            }
            let file = "value-mutant-\(i).json"
            if let error = Fixtures.rejection(Self.write(value), file: file) {
                rejected += 1
                #expect(error.description.contains(file) && !error.expected.isEmpty && !error.found.isEmpty, "\(error)")
                #expect(error.path.hasPrefix("$") && !error.expected.hasPrefix("valid JSON"), "\(error)")
            } else {
                decoded += 1
            }
        }
        #expect(rejected > 200 && decoded > 20, "decoded \(decoded), rejected \(rejected)")
    }
}
