import Testing
@testable import Scenario

/// `JSONValue.sortedText`: the deterministic text a tool writes a scenario back with.
@Suite struct JSONTextTests {
    @Test func sortsKeysIndentsByTwoAndKeepsNumberLiterals() throws {
        let value = try JSONParser.parse(Array(#"{"z": [1, 2.5e-1], "a": {"b": [], "c": {}}, "Z": [{"k": null}], "e": "x"}"#.utf8))
        #expect(value.sortedText == """
        {
          "Z": [
            {
              "k": null
            }
          ],
          "a": {
            "b": [],
            "c": {}
          },
          "e": "x",
          "z": [1, 2.5e-1]
        }

        """)
    }

    /// Keys sort by UTF-8 bytes (uppercase before lowercase, "é" after "z"), and the
    /// text parses back to the same members.
    @Test func roundTripsEscapesAndSortsByBytes() throws {
        let value = JSONValue.object([(key: "é", value: .bool(true)), (key: "z", value: .string("q\"\\\u{1}\n")), (key: "A", value: .number(-3, literal: "-3"))])
        let text = value.sortedText
        #expect(text.contains(#""z": "q\"\\\u0001\u000a""#))
        let back = try JSONParser.parse(Array(text.utf8))
        guard case .object(let members) = back else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["A", "z", "é"])
        #expect(back["z"] == value["z"] && back["A"] == value["A"] && back["é"] == value["é"])
    }
}
