import Foundation
import Testing
import Reports
import Scenario
@testable import FleetSimCLI

/// `merge` reads reports in one pass (``ReportJSONReader``): on what it accepts it gives
/// the general route's value (parse, then ``Merge/reportValue(_:)``), and it leaves the
/// rest (non-ASCII text, `\u` escapes, anything malformed) to that route.
@Suite struct ReportJSONReaderTests {
    static func general(_ text: String) throws -> ReportValue {
        Merge.reportValue(try JSONParser.parse(Array(text.utf8)))
    }

    /// A shard's report.json, read both ways: the same value.
    @Test func aShardReportReadsAsTheGeneralRouteReadsIt() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.run(["run", "scenarios/default.json", "--scale", "0.01", "--shard", "1/2", "--out", dir.path, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let bytes = Array(try Data(contentsOf: dir.appendingPathComponent("report.json")))
        let fast = try #require(ReportJSONReader.read(bytes))
        #expect(fast == Merge.reportValue(try JSONParser.parse(bytes)))
    }

    /// Numbers at the edges of `Int64`, negative zero, fraction digits as written (an
    /// exponent counts with them, as the general route counts), escapes, empty containers.
    @Test func edgesReadAsTheGeneralRoute() throws {
        let text = #"""
            {"a": -0, "b": 9223372036854775807, "c": 9223372036854775808, "d": -9223372036854775808,
             "e": -9223372036854775809, "f": 1.50, "g": 1e5, "h": 1.5E-3, "i": 0.000, "j": 12345678901234567890123,
             "k": "x\"\\\/\b\f\n\r\t", "l": [true, false, null, [], {}, [[-1]]], "": "", "m": {"n": {"o": 0.25}}}
            """#
        let fast = try #require(ReportJSONReader.read(Array(text.utf8)))
        #expect(fast == (try Self.general(text)))
        #expect(fast.at(["b"]) == .int(.max) && fast.at(["d"]) == .int(.min) && fast.at(["c"]) == .number(9223372036854775808, digits: 0))
        #expect(fast.at(["f"]) == .number(1.5, digits: 2) && fast.at(["h"]) == .number(0.0015, digits: 4))
    }

    /// Left to the general route: text it decodes (non-ASCII, `\u`, a byte-order mark),
    /// which it then reads as it always did, and everything it refuses (with its message).
    @Test func theRestIsLeftToTheGeneralRoute() throws {
        let decodable = [#"{"a": "é"}"#, #"{"a": "\u00e9"}"#, "\u{FEFF}{\"a\": 1}"]
        for text in decodable {
            #expect(ReportJSONReader.read(Array(text.utf8)) == nil, "\(text)")
            let dir = try CLI.temporaryDirectory()
            let path = try CLI.write(text, to: "report.json", in: dir)
            #expect(try Merge.readReport(path) == (try Self.general(text)))
        }
        let deep = String(repeating: "[", count: 257) + String(repeating: "]", count: 257)
        let malformed = ["[1]", #"{"a": 01}"#, #"{"a": 1,}"#, #"{"a": 1} x"#, #"{"a": 1, "a": 2}"#, #"{"a": 1e999}"#,
                         "{\"a\": \"\u{01}\"}", #"{"a": 1.}"#, #"{"a": -}"#, #"{"a": 1e}"#, #"{"a": tru}"#, #"{"a" 1}"#,
                         #"{"a": "x}"#, #"{"a": "\x"}"#, "{\"a\": \(deep)}", ""]
        for text in malformed {
            #expect(ReportJSONReader.read(Array(text.utf8)) == nil, "\(text)")
            #expect((try? JSONParser.parse(Array(text.utf8))).map { if case .object = $0 { return false } else { return true } } ?? true, "\(text)")
        }
    }
}
