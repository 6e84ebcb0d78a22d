/// `expect`: an array of `{"metric": "...", "min": X, "max": X}`. `metric` is a
/// non-empty string; each bound is a number, or a duration string converted to
/// seconds (the report's unit); at least one bound; `min` ≤ `max`.
enum ExpectationDecoder {
    static let keys = ["metric", "min", "max"]
    static let boundExpected = "a bound: a number, or a duration such as \"36h\" (compared in seconds)"

    static func decodeList(_ node: ScenarioNode) throws(ScenarioError) -> [Expectation] {
        var result: [Expectation] = []
        for element in try node.elements("an array of expectations, e.g. [{\"metric\": \"invariants.violations\", \"max\": 0}]") {
            result.append(try decode(element))
        }
        return result
    }

    static func decode(_ node: ScenarioNode) throws(ScenarioError) -> Expectation {
        let metricExpected = "a metric: a dotted path into report.json such as \"latency.testAvailableToNotified.p95\""
        var metric: String?
        var min: Double?
        var max: Double?
        var minText: String?
        var maxText: String?
        for member in try node.members("an expectation object, e.g. {\"metric\": \"invariants.violations\", \"max\": 0}") {
            switch member.key {
            case "metric": metric = try member.node.nonEmptyString(metricExpected)
            case "min": min = try bound(member.node); minText = written(member.node)
            case "max": max = try bound(member.node); maxText = written(member.node)
            default: throw member.unknownKey(among: keys)
            }
        }
        guard let metric else { throw node.missing("metric", expected: metricExpected) }
        guard min != nil || max != nil else {
            throw node.error(expected: "at least one of `min` and `max`", found: "neither")
        }
        if let min, let max, min > max {
            let maxNode = node.member("max") ?? node
            throw maxNode.error(expected: "a `max` at least the `min` (\(node.member("min")?.value.foundDescription ?? "?"))")
        }
        return Expectation(metric: metric, min: min, max: max, minText: minText, maxText: maxText)
    }

    /// A bound's text as the file writes it: the string, or the number's literal.
    static func written(_ node: ScenarioNode) -> String? {
        switch node.value {
        case .number(_, let literal): return literal
        case .string(let s): return s
        default: return nil
        }
    }

    /// A number as written, or a duration string (≥ 0) in seconds.
    static func bound(_ node: ScenarioNode) throws(ScenarioError) -> Double {
        switch node.value {
        case .number(let x, _): return x
        case .string: return try node.duration(.nonNegative, expected: boundExpected).seconds
        default: throw node.error(expected: boundExpected)
        }
    }
}
