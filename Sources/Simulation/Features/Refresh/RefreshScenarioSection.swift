import SimKernel
import Scenario

/// `logic.refresh`: seed `000`'s refresh rules; each default is the seed's value
/// (docs/scenario.md, "logic").
public struct RefreshConfig: ScenarioSection {
    /// Preferred interval for the next refresh (`earliestBeginDate`). 4 h.
    public var preferredInterval: SimDuration
    /// Skip when the last refresh is more recent than this. 12 h.
    public var minimumInterval: SimDuration
    /// Test cadence. 90 d.
    public var testCadence: SimDuration
    /// No notification when the app was opened more recently than this. 24 h.
    public var recentOpenSuppression: SimDuration
    /// Hard stop of the work inside the 30 s budget. 20 s.
    public var hardStop: SimDuration

    /// Seed `000`: 4 h preferred, 12 h minimum, 90 d cadence, 24 h recent-open suppression, 20 s hard stop.
    public static let defaults = RefreshConfig(
        preferredInterval: .hours(4),
        minimumInterval: .hours(12),
        testCadence: .days(90),
        recentOpenSuppression: .hours(24),
        hardStop: .seconds(20))

    static let keys = ["preferredInterval", "minimumInterval", "testCadence", "recentOpenSuppression", "hardStop"]

    /// Every interval and limit > 0, except `recentOpenSuppression` ≥ 0 (zero turns the
    /// suppression off).
    public static func decode(_ node: ScenarioNode) throws(ScenarioError) -> RefreshConfig {
        var refresh = RefreshConfig.defaults
        for member in try node.members("a refresh object, e.g. {\"preferredInterval\": \"4h\"}") {
            let child = member.node
            switch member.key {
            case "preferredInterval": refresh.preferredInterval = try child.duration(.positive)
            case "minimumInterval": refresh.minimumInterval = try child.duration(.positive)
            case "testCadence": refresh.testCadence = try child.duration(.positive)
            case "recentOpenSuppression": refresh.recentOpenSuppression = try child.duration(.nonNegative)
            case "hardStop": refresh.hardStop = try child.duration(.positive)
            default: throw member.unknownKey(among: keys)
            }
        }
        return refresh
    }
}

extension RefreshFeature {
    /// Its section of a scenario's `logic` (``FeatureList/logicSections``).
    static let logicSection = ScenarioSectionKey("refresh", RefreshConfig.self)
}

extension LogicConfig {
    /// `logic.refresh`, read and written by type; per-event code reads the copy its host
    /// or the oracle keeps.
    public var refresh: RefreshConfig {
        get { self[RefreshConfig.self] }
        set { self[RefreshConfig.self] = newValue }
    }
}
