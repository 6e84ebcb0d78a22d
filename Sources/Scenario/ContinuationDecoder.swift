import SimKernel

/// `fleet[].continuation` (seed `004`).
enum ContinuationDecoder {
    static let usageKeys = ["startProbability", "modes", "choice", "hierarchicalTime", "baselineTime", "backgroundTime"]

    /// `fleet[].continuation`: `startProbability` a fraction, `modes` and `choice`
    /// categorical choices, the two analysis times distributions of durations,
    /// `backgroundTime` ≥ 0.
    static func usage(_ node: ScenarioNode) throws(ScenarioError) -> ContinuationUsage {
        var usage = ContinuationUsage.defaults
        for member in try node.members("a continuation object, e.g. {\"startProbability\": 0.1}") {
            let child = member.node
            switch member.key {
            case "startProbability": usage.startProbability = try child.fraction()
            case "modes": usage.modes = try names(child, AnalysisModeName.self, example: "{\"hierarchical\": 0.5, \"baseline\": 0.5}")
            case "choice": usage.choice = try names(child, ContinuationChoiceName.self, example: "{\"continueHere\": 0.4, \"moveOn\": 0.5, \"cancel\": 0.1}")
            case "hierarchicalTime": usage.hierarchicalTime = try child.distribution(.duration)
            case "baselineTime": usage.baselineTime = try child.distribution(.duration)
            case "backgroundTime": usage.backgroundTime = try child.duration(.nonNegative)
            default: throw member.unknownKey(among: usageKeys)
            }
        }
        return usage
    }

    private static func names<E: RawRepresentable & CaseIterable & Sendable & Equatable>(
        _ node: ScenarioNode, _ type: E.Type, example: String
    ) throws(ScenarioError) -> Categorical<E> where E.RawValue == String {
        let all = E.allCases.map(\.rawValue)
        return try node.categorical(of: "names", example: example) { (member) throws(ScenarioError) in
            guard let value = E(rawValue: member.key) else {
                var found = "the name \(JSONValue.quoteForMessage(member.key))"
                if let guess = KeySuggestion.closest(to: member.key, among: all) { found += "; did you mean `\(guess)`?" }
                throw member.node.error(expected: "one of \(ScenarioNode.oneOf(all))", found: found)
            }
            return value
        }
    }
}
