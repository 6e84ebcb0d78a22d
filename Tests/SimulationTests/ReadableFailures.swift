import Foundation
import Testing
import Reports
import Scenario
@testable import Simulation

/// Failure messages an app team can act on (docs/harness.md, "Reading a failure"): an
/// invariant failure names each rule with its count, the first devices, the seed and the
/// replay command; a changed report names the keys that changed, with both values.
enum ReadableFailures {
    /// Expects `world` (run) to have violated no invariant; on failure the message lists
    /// the rules, the devices, the seed and the replay commands from report.json's samples.
    static func expectNoViolation(_ world: World, _ note: @autoclosure () -> String = "", sourceLocation: SourceLocation = #_sourceLocation) {
        guard world.core.oracle.violations != 0 else { return }
        let text: String
        do { text = violationText(JSONWriter.encode(try world.report().report)) } catch {
            text = "\(world.core.oracle.violations) invariant violation(s), seed \(world.scenario.seed) (no report: \(error))"
        }
        record(text, note(), sourceLocation)
    }

    /// The same for a finished run's report.json text.
    static func expectNoViolation(reportJSON: String, _ note: @autoclosure () -> String = "", sourceLocation: SourceLocation = #_sourceLocation) {
        let report = try? JSONParser.parse(Array(reportJSON.utf8))
        guard case .number(let n, _)? = report?["invariants"]?["violations"], n == 0 else {
            return record(violationText(reportJSON), note(), sourceLocation)
        }
    }

    /// The same for a finished run's report.
    static func expectNoViolation(report: ReportValue, _ note: @autoclosure () -> String = "", sourceLocation: SourceLocation = #_sourceLocation) {
        guard report.lookup("invariants.violations")?.intValue != 0 else { return }
        record(violationText(JSONWriter.encode(report)), note(), sourceLocation)
    }

    private static func record(_ text: String, _ note: String, _ sourceLocation: SourceLocation) {
        Issue.record(Comment(rawValue: text + (note.isEmpty ? "" : "\n" + note)), sourceLocation: sourceLocation)
    }

    /// `3 invariant violation(s), seed 7: refreshRequestDateWrong x3`, then report.json's
    /// samples (up to three of each rule): the device, the simulated time, the detail and
    /// the replay command.
    static func violationText(_ reportJSON: String) -> String {
        guard let report = try? JSONParser.parse(Array(reportJSON.utf8)) else { return "(no report.json to show the violations)" }
        func text(_ v: JSONValue?) -> String {
            switch v {
            case .number(_, let literal)?: return literal
            case .string(let s)?: return s
            default: return "?"
            }
        }
        var kinds: [String] = []
        if case .object(let members)? = report["invariants"]?["byKind"] {
            kinds = members.compactMap { m in
                guard case .number(let n, let literal) = m.value, n > 0 else { return nil }
                return "\(m.key) x\(literal)"
            }
        }
        var out = "\(text(report["invariants"]?["violations"])) invariant violation(s), seed \(text(report["seed"])): " + kinds.joined(separator: ", ")
        if case .array(let samples)? = report["invariants"]?["samples"] {
            for sample in samples {
                let seconds: Double
                if case .number(let x, _)? = sample["time"] { seconds = x } else { seconds = 0 }
                out += "\n  \(text(sample["kind"])) on device \(text(sample["device"])) at \(HumanUnits.duration(seconds: seconds)): \(text(sample["detail"]))"
                    + "\n    replay: \(text(sample["replay"]))"
            }
        }
        return out
    }

    /// The leaves of two JSON documents that differ, as `path: expected -> produced`
    /// (`missing` for an absent leaf), in document order, at most `limit` of them and a
    /// count of the rest.
    static func changedKeys(expected: String, produced: String, limit: Int = 40) -> String {
        guard let a = try? JSONParser.parse(Array(expected.utf8)), let b = try? JSONParser.parse(Array(produced.utf8)) else {
            return "(one side is not JSON)"
        }
        let left = leaves(a), right = leaves(b)
        let before = Dictionary(left, uniquingKeysWith: { x, _ in x }), after = Dictionary(right, uniquingKeysWith: { x, _ in x })
        var paths = left.map(\.0)
        paths += right.map(\.0).filter { before[$0] == nil }
        let changed = paths.filter { before[$0] != after[$0] }
        var lines = changed.prefix(limit).map { "  \($0): \(before[$0] ?? "missing") -> \(after[$0] ?? "missing")" }
        if changed.count > limit { lines.append("  ... and \(changed.count - limit) more changed key(s)") }
        return "\(changed.count) key(s) changed (expected -> produced):\n" + lines.joined(separator: "\n")
    }

    /// Every scalar leaf as (`a.b[2].c`, its JSON text), in document order.
    static func leaves(_ value: JSONValue, _ path: String = "") -> [(String, String)] {
        switch value {
        case .object(let members):
            guard !members.isEmpty else { return [(path, "{}")] }
            return members.flatMap { leaves($0.value, path.isEmpty ? $0.key : "\(path).\($0.key)") }
        case .array(let items):
            guard !items.isEmpty else { return [(path, "[]")] }
            return items.enumerated().flatMap { leaves($0.element, "\(path)[\($0.offset)]") }
        case .number(_, let literal): return [(path, literal)]
        case .string(let s): return [(path, "\"\(s)\"")]
        case .bool(let b): return [(path, b ? "true" : "false")]
        case .null: return [(path, "null")]
        }
    }
}
