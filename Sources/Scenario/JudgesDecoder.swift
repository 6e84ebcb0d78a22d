/// A judge switched off by its rule name, with the reason the report prints
/// (docs/scenario.md, "judges"): a rule the app's spec does not have.
public struct JudgeOff: Sendable, Equatable {
    /// The rule, as `invariants.byKind` names it (a violation kind).
    public var rule: String
    /// Why the app's spec has no such rule (non-empty).
    public var reason: String

    public init(rule: String, reason: String) {
        self.rule = rule
        self.reason = reason
    }
}

/// `judges`: `{"off": [{"rule": "<violation kind>", "reason": "..."}]}`. Each rule is one
/// the logic in use is judged by (``ScenarioVocabulary/judgeRules``), at most once, with
/// a non-empty reason.
enum JudgesDecoder {
    static let keys = ["off"]
    static let entryKeys = ["rule", "reason"]

    /// A rule the messages' examples name: the world's first, or a placeholder.
    static func example(_ known: [String]?) -> String {
        known?.first.map { JSONValue.quoteForMessage($0) } ?? "\"<violation kind>\""
    }

    static func decode(_ node: ScenarioNode, rules known: [String]?) throws(ScenarioError) -> [JudgeOff] {
        var off: [JudgeOff] = []
        for member in try node.members("a judges object, e.g. {\"off\": [{\"rule\": \(example(known)), \"reason\": \"...\"}]}") {
            switch member.key {
            case "off":
                for element in try member.node.elements("an array of judges switched off, each {\"rule\": ..., \"reason\": ...}") {
                    let judge = try entry(element, known: known)
                    guard !off.contains(where: { $0.rule == judge.rule }) else {
                        throw element.error(expected: "each rule switched off at most once", found: "\(JSONValue.quoteForMessage(judge.rule)) a second time")
                    }
                    off.append(judge)
                }
            default: throw member.unknownKey(among: keys)
            }
        }
        return off
    }

    static func entry(_ node: ScenarioNode, known: [String]?) throws(ScenarioError) -> JudgeOff {
        let ruleExpected = "a judge's rule: a violation kind as report.json's `invariants.byKind` names it, such as \(example(known))"
        var rule: String?, reason: String?
        for member in try node.members("a judge switched off: {\"rule\": \(example(known)), \"reason\": \"why the app's spec has no such rule\"}") {
            switch member.key {
            case "rule":
                if let known { rule = try member.node.name(among: known, ruleExpected) } else { rule = try member.node.nonEmptyString(ruleExpected) }
            case "reason": reason = try member.node.nonEmptyString("the reason the judge is off: a non-empty string the report prints")
            default: throw member.unknownKey(among: entryKeys)
            }
        }
        guard let rule else { throw node.missing("rule", expected: ruleExpected) }
        guard let reason else { throw node.missing("reason", expected: "the reason the judge is off: a non-empty string the report prints") }
        return JudgeOff(rule: rule, reason: reason)
    }
}
