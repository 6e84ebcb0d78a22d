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

    /// Unsorted, the members keep their order (a categorical choice draws its options
    /// in file order, so sorting can change what a scenario means).
    @Test func keepsMemberOrderWhenAsked() throws {
        let value = try JSONParser.parse(Array(#"{"timeZones": {"Europe/Berlin": 0.4, "America/New_York": 0.6}}"#.utf8))
        #expect(value.text(sortingKeys: false) == "{\n  \"timeZones\": {\n    \"Europe/Berlin\": 0.4,\n    \"America/New_York\": 0.6\n  }\n}\n")
        #expect(value.sortedText == "{\n  \"timeZones\": {\n    \"America/New_York\": 0.6,\n    \"Europe/Berlin\": 0.4\n  }\n}\n")
        #expect(try JSONParser.parse(Array(value.sortedText.utf8)) == value.withSortedKeys)
        #expect(value.withSortedKeys != value)
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
