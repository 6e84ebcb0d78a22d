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


extension ContinuationFeature {
    /// Its section of a scenario's `logic` (``FeatureList/logicSections``).
    static let logicSection = ScenarioSectionKey("continuation", ContinuationConfig.self)
}

extension LogicConfig {
    /// `logic.continuation`, read and written by type; per-event code reads the copy its
    /// host or the oracle keeps.
    public var continuation: ContinuationConfig {
        get { self[ContinuationConfig.self] }
        set { self[ContinuationConfig.self] = newValue }
    }
}
