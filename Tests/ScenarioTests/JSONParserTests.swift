import Testing
@testable import Scenario

/// The strict JSON parser: the grammar, its extra limits, and its error positions.
@Suite struct JSONParserTests {
    func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    func syntaxError(_ bytes: [UInt8]) -> JSONSyntaxError? {
        do {
            _ = try JSONParser.parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    func syntaxError(_ text: String) -> JSONSyntaxError? { syntaxError(Array(text.utf8)) }

    @Test func parsesEveryKindOfValueKeepingMemberOrder() throws {
        let v = try parse(#" {"z": [1, -0.5, 2.5e-1, 1E2], "a": {"t": true, "f": false, "n": null}, "s": "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"} "#)
        guard case .object(let members) = v else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["z", "a", "s"])
        #expect(v["z"] == .array([.number(1, literal: "1"), .number(-0.5, literal: "-0.5"),
                                  .number(0.25, literal: "2.5e-1"), .number(100, literal: "1E2")]))
        #expect(v["a"] == .object([(key: "t", value: .bool(true)), (key: "f", value: .bool(false)), (key: "n", value: .null)]))
        #expect(v["s"] == .string("x\"\\/\u{8}\u{C}\n\r\té😀"))
        #expect(try parse("\u{FEFF}[]") == .array([]))  // a byte order mark is skipped
        #expect(try parse("\"\\u0000\"") == .string("\u{0}"))
        #expect(try parse("1e-999") == .number(0, literal: "1e-999"))
    }

    @Test func rejectsWhatTheGrammarForbids() {
        let cases: [(String, String)] = [
            ("", "a JSON value"),
            ("{} x", "the end of the file after the top-level value"),
            ("[1,]", "no comma before `]`"),
            (#"{"a": 1,}"#, "no comma before `}`"),
            ("01", "leading zero"),
            ("-", "a digit after `-`"),
            (".5", "a JSON value"),
            ("+1", "a JSON value"),
            ("1.", "a digit after the decimal point"),
            ("1e", "a digit in the exponent"),
            ("tru", "`true`"),
            ("NaN", "a JSON value"),
            ("'a'", "a JSON value"),
            (#"{a: 1}"#, "a key in double quotes"),
            (#"{"a" 1}"#, "`:`"),
            (#""abc"#, "`\"` to close the string"),
            (#""\x""#, "one of the escapes"),
            (#""\u12g4""#, "four hexadecimal digits"),
            ("\"a\nb\"", "control characters"),
            ("1e999", "a number a 64-bit float can hold"),
            ("-1e999", "a number a 64-bit float can hold"),
        ]
        for (text, expected) in cases {
            let e = syntaxError(text)
            #expect(e?.expected.contains(expected) == true, "\(text): \(String(describing: e))")
        }
    }

    @Test func surrogatesMustPair() {
        #expect(syntaxError(#""\ud83d""#)?.found == "a lone high surrogate \\uD83D")
        #expect(syntaxError(#""\ud83dx""#)?.found == "a lone high surrogate \\uD83D")
        #expect(syntaxError(#""\ude00""#)?.found == "a lone low surrogate \\uDE00")
        #expect(syntaxError(#""\ud83d\u0041""#)?.found == "\\uD83D\\u0041")
    }

    @Test func invalidUTF8IsAnErrorAtItsPosition() {
        let bad: [[UInt8]] = [[0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xE2, 0x82], [0x80], [0xF4, 0x90, 0x80, 0x80]]
        for sequence in bad {
            let bytes = [0x5B, 0x22, 0x61] + sequence + [0x22, 0x5D]  // ["a…"]
            let e = syntaxError(bytes)
            #expect(e?.expected == "valid UTF-8 text", "\(sequence)")
            #expect(e?.line == 1 && e?.column == 4 && e?.path == "$[0]", "\(sequence)")
        }
        #expect(syntaxError([0xFF])?.found == "the byte 0xFF (not valid UTF-8)")
        #expect(syntaxError([0x22, 0x00, 0x22])?.found == "the control character 0x00")
    }

    @Test func errorsCarryLineColumnAndPath() {
        let e = syntaxError("{\n  \"fleet\": [\n    {\"count\": tru}\n  ]\n}")
        #expect(e?.line == 3 && e?.column == 15)
        #expect(e?.path == "$.fleet[0].count")
        #expect(e?.found == "\"tru\"")
        let wide = syntaxError("[\"éé\", @]")  // columns count characters, not bytes
        #expect(wide?.column == 8 && wide?.path == "$[1]")
    }

    @Test func duplicateKeysAreRejected() {
        let e = syntaxError(#"{"a": {"b": 1, "b": 2}}"#)
        #expect(e?.path == "$.a.b")
        #expect(e?.found == "the key \"b\" a second time")
        #expect(e?.column == 16)
    }

    @Test func nestingIsLimited() throws {
        let depth = JSONParser.maximumDepth
        let ok = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        _ = try parse(ok)
        let tooDeep = String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)
        #expect(syntaxError(tooDeep)?.expected.contains("at most \(depth) levels") == true)
        let huge = String(repeating: "{\"a\":", count: 100_000)  // must not overflow the stack
        #expect(syntaxError(huge) != nil)
    }

    @Test func pathsQuoteKeysThatAreNotIdentifiers() {
        #expect(JSONPath.root.description == "$")
        #expect(JSONPath([.key("fleet"), .index(0), .key("timeZones"), .key("America/New_York")]).description
            == #"$.fleet[0].timeZones["America/New_York"]"#)
        #expect(JSONPath([.key("a\"b"), .key("1x"), .key("")]).description == #"$["a\"b"]["1x"][""]"#)
    }

    @Test func suggestionsPickTheClosestKnownWord() {
        #expect(KeySuggestion.closest(to: "durration", among: ["name", "duration"]) == "duration")
        #expect(KeySuggestion.closest(to: "nmae", among: ["name", "duration"]) == "name")  // a swap costs 1
        #expect(KeySuggestion.closest(to: "Seed", among: ["seed"]) == "seed")
        #expect(KeySuggestion.closest(to: "zzzz", among: ["name", "seed"]) == nil)
        #expect(KeySuggestion.closest(to: String(repeating: "a", count: 100), among: ["a"]) == nil)
    }
}
