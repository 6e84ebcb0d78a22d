import SimKernel
import Scenario

/// `logic.continuation`: seed `004`'s thresholds; each default is the seed's value
/// (docs/scenario.md, "logic").
public struct ContinuationConfig: ScenarioSection {
    /// Offer the background option when the request still runs this long. 10 s.
    public var offerAfter: SimDuration
    /// Timeout of a hierarchical request. 300 s.
    public var hierarchicalTimeout: SimDuration
    /// Timeout of a baseline request. 180 s.
    public var baselineTimeout: SimDuration

    /// Seed `004`: 10 s, 300 s, 180 s.
    public static let defaults = ContinuationConfig(offerAfter: .seconds(10), hierarchicalTimeout: .seconds(300),
                                                    baselineTimeout: .seconds(180))

    static let keys = ["offerAfter", "hierarchicalTimeout", "baselineTimeout"]

    /// Every duration > 0.
    public static func decode(_ node: ScenarioNode) throws(ScenarioError) -> ContinuationConfig {
        var config = ContinuationConfig.defaults
        for member in try node.members("a continuation object, e.g. {\"offerAfter\": \"10s\"}") {
            let child = member.node
            switch member.key {
            case "offerAfter": config.offerAfter = try child.duration(.positive)
            case "hierarchicalTimeout": config.hierarchicalTimeout = try child.duration(.positive)
            case "baselineTimeout": config.baselineTimeout = try child.duration(.positive)
            default: throw member.unknownKey(among: keys)
            }
        }
        return config
    }
}


/// Seed `004`'s analysis modes, by name.
public enum AnalysisModeName: String, Sendable, Equatable, CaseIterable { case hierarchical, baseline }

/// The buttons of seed `004`'s alert, by name.
public enum ContinuationChoiceName: String, Sendable, Equatable, CaseIterable { case continueHere, moveOn, cancel }

/// `fleet[].continuation`: how a cohort's users use the long request of seed `004`,
/// how long the server takes, and the OS's background time. The seed gives no user
/// probabilities: each default here is a named **Assumption** (README).
public struct ContinuationUsage: ScenarioSection {
    /// Probability that an app open starts an analysis. **Assumption**: 0.1.
    public var startProbability: Double
    /// Which mode an analysis uses. **Assumption**: half each.
    public var modes: Categorical<AnalysisModeName>
    /// What the user answers when the alert appears. **Assumption**: continue here 0.4,
    /// move on 0.5, cancel 0.1.
    public var choice: Categorical<ContinuationChoiceName>
    /// The server's time for a hierarchical analysis. Seed `004`: "Average time: 15-30
    /// seconds"; **Assumption**: lognormal, median 22.5 s, p99 2 min.
    public var hierarchicalTime: Distribution
    /// The server's time for a baseline analysis. Seed `004`: "Average time: 5-15 seconds";
    /// **Assumption**: lognormal, median 10 s, p99 1 min.
    public var baselineTime: Distribution
    /// iOS: the time `beginBackgroundTask` grants after the app leaves the foreground.
    /// Apple documents no figure (`docs/platform-facts.md`, "Unverified": "A time limit for
    /// `beginBackgroundTask`"); **Assumption**: 30 s, the figure of the other iOS
    /// background allowances of `docs/platform-facts.md` F.
    public var backgroundTime: SimDuration

    private static func micros(_ d: SimDuration) -> Double { Double(d.microseconds) }

    public static let defaults = ContinuationUsage(
        startProbability: 0.1,
        modes: Categorical([(value: .hierarchical, weight: 0.5), (value: .baseline, weight: 0.5)]),
        choice: Categorical([(value: .continueHere, weight: 0.4), (value: .moveOn, weight: 0.5), (value: .cancel, weight: 0.1)]),
        hierarchicalTime: .lognormal(median: Self.micros(.milliseconds(22_500)), p99: Self.micros(.minutes(2))),
        baselineTime: .lognormal(median: Self.micros(.seconds(10)), p99: Self.micros(.minutes(1))),
        backgroundTime: .seconds(30))

    static let keys = ["startProbability", "modes", "choice", "hierarchicalTime", "baselineTime", "backgroundTime"]

    /// `startProbability` a fraction, `modes` and `choice`
    /// categorical choices, the two analysis times distributions of durations,
    /// `backgroundTime` ≥ 0.
    public static func decode(_ node: ScenarioNode) throws(ScenarioError) -> ContinuationUsage {
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
            default: throw member.unknownKey(among: keys)
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

extension ContinuationFeature {
    /// Its section of a scenario's `logic` (``FeatureList/logicSections``).
    static let logicSection = ScenarioSectionKey("continuation", ContinuationConfig.self)
    /// Its section of a cohort (``FeatureList/cohortSections``).
    static let cohortSection = ScenarioSectionKey("continuation", ContinuationUsage.self)
}

extension LogicConfig {
    /// `logic.continuation`, read and written by type; per-event code reads the copy its
    /// host or the oracle keeps.
    public var continuation: ContinuationConfig {
        get { self[ContinuationConfig.self] }
        set { self[ContinuationConfig.self] = newValue }
    }
}

extension Cohort {
    /// `fleet[].continuation`, read and written by type; per-event code reads the copy
    /// ``ContinuationHost`` keeps.
    public var continuation: ContinuationUsage {
        get { self[ContinuationUsage.self] }
        set { self[ContinuationUsage.self] = newValue }
    }
}
