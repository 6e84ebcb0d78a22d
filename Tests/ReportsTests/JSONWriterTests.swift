import Testing
import Reports

@Suite struct JSONWriterTests {
    @Test func goldenDocument() {
        let document: ReportValue = [
            "scenario": "default",
            "seed": 42,
            "b": [1, 2, 3],
            "B": true,
            "a.b": .null,
            "aa": [:],
            "a": [],
            "Z": ["nested": ["deeper": .fixed(2.5, 0)], "list": [["k": 1], "x", [false]]],
            "": "empty key",
            "numbers": [
                .fixed(-0.0, 2), .fixed(.nan, 3), .fixed(.infinity, 1), .fixed(-.infinity, 1),
                .fixed(0.125, 2), .fixed(1, 3), .int(-42), .int(.min), .seconds(1_500_001),
            ],
            "escapes": "quote\" back\\ nl\n tab\t nul\u{0} us\u{1F} del\u{7F} é 😀 /",
        ]
        let expected = #"""
            {
              "": "empty key",
              "B": true,
              "Z": {
                "list": [
                  {
                    "k": 1
                  },
                  "x",
                  [false]
                ],
                "nested": {
                  "deeper": 3
                }
              },
              "a": [],
              "a.b": null,
              "aa": {},
              "b": [1, 2, 3],
              "escapes": "quote\" back\\ nl\u000a tab\u0009 nul\u0000 us\u001f del\#u{7F} é 😀 /",
              "numbers": [0.00, null, null, null, 0.13, 1.000, -42, -9223372036854775808, 1.500001],
              "scenario": "default",
              "seed": 42
            }

            """#
        #expect(JSONWriter.encode(document) == expected)
        #expect(JSONWriter.utf8(document) == Array(expected.utf8), "the bytes run and merge write")
    }

    /// Keys sort by Unicode scalar values, not by `String`'s `<` (which compares
    /// canonically normalised text): decomposed "e\u{301}z" starts with U+0065 and comes
    /// before precomposed "\u{E9}a" (U+00E9).
    @Test func keysSortByScalarValues() {
        let value: ReportValue = .object(["\u{E9}a": 1, "e\u{301}z": 2, "z": 3, "Z": 4, "\u{1F600}": 5, "\u{FFFD}": 6])
        let text = JSONWriter.encode(value)
        let keysInOrder = text.split(separator: "\n").dropFirst().dropLast().map { line in
            String(line.drop { $0 == " " }.dropFirst().prefix { $0 != "\"" })
        }
        #expect(keysInOrder == ["Z", "e\u{301}z", "z", "\u{E9}a", "\u{FFFD}", "\u{1F600}"])
        #expect(("\u{E9}a" as String) < ("e\u{301}z" as String), "String < differs, which is the point")
    }

    @Test func scalarDocumentsEndWithNewline() {
        #expect(JSONWriter.encode(.null) == "null\n")
        #expect(JSONWriter.encode(.int(7)) == "7\n")
        #expect(JSONWriter.encode(.string("a\"b")) == "\"a\\\"b\"\n")
        #expect(JSONWriter.quoted("tab\there") == "\"tab\\u0009here\"")
    }

    @Test func outputDoesNotDependOnInsertionOrder() {
        var first: [String: ReportValue] = [:]
        var second: [String: ReportValue] = [:]
        let keys = (0..<200).map { "key\($0)" }
        for key in keys { first[key] = .string(key) }
        for key in keys.reversed() { second[key] = .string(key) }
        #expect(JSONWriter.encode(.object(first)) == JSONWriter.encode(.object(second)))
    }

    /// A packed list writes the bytes of the `.array` of the same elements: empty,
    /// every integer length and sign (`Int64.min` and `.max` included), a non-finite
    /// number as `null`, and a document far past the writer's first 64 KiB.
    @Test func packedListsWriteAsTheirArrays() {
        let extremes: [Int64] = [0, -1, 9, 10, -10, 99, 100, .max, .min, 1_000_000_007]
        let decimals: [Double] = [0, -0.0, 0.00005, 1.23456, -2.5, .nan, .infinity, 1e15]
        let cases: [(packed: ReportValue, array: ReportValue)] = [
            (.integers([]), .array([])),
            (.integers(extremes), .array(extremes.map { .int($0) })),
            (.numbers(decimals, digits: 4), .array(decimals.map { .fixed($0, 4) })),
            (.numbers([], digits: 3), .array([])),
        ]
        for (packed, array) in cases {
            #expect(JSONWriter.encode(["series": packed, "x": [packed]]) == JSONWriter.encode(["series": array, "x": [array]]))
        }
        let long = (0..<100_000).map { Int64($0) * 7 - 350_000 }
        let text = JSONWriter.encode(.integers(long))
        #expect(text == "[" + long.map(String.init).joined(separator: ", ") + "]\n")
    }
}
