import SimKernel
import Scenario

/// `logic.stepSync`: seed `003`'s step-sync rules; each default is the seed's value
/// (docs/scenario.md, "logic").
public struct StepSyncConfig: ScenarioSection {
    /// Periodic work interval and spacing of background syncs. 2 h.
    public var syncInterval: SimDuration
    /// Backfill at most this far back. 30 d.
    public var backfillLimit: SimDuration
    /// Delays before attempts 2, 3, 4. 5 m, 10 m, 15 m.
    public var retryDelays: [SimDuration]
    /// Sync on app open when the last sync is at least this old. 24 h.
    public var openSyncAge: SimDuration
    /// Notify when no sync has run for this long. 24 h.
    public var staleNotificationAge: SimDuration
    /// Battery low at or below this percent, unplugged (docs/platform-facts.md E). 15.
    public var lowBatteryPercent: Int

    /// Seed `003`: 2 h interval, 30 d backfill, retries after 5/10/15 min, sync on open after
    /// 24 h, notify after 24 h without a sync; low battery at 15 % (docs/platform-facts.md E).
    public static let defaults = StepSyncConfig(
        syncInterval: .hours(2),
        backfillLimit: .days(30),
        retryDelays: [.minutes(5), .minutes(10), .minutes(15)],
        openSyncAge: .hours(24),
        staleNotificationAge: .hours(24),
        lowBatteryPercent: 15)

    static let keys = ["syncInterval", "backfillLimit", "retryDelays", "openSyncAge", "staleNotificationAge", "lowBatteryPercent"]

    /// Intervals > 0, `backfillLimit` at most 366 d; `retryDelays` an array of at most 10
    /// positive durations (empty: no retries); `lowBatteryPercent` an integer in 0...100.
    public static func decode(_ node: ScenarioNode) throws(ScenarioError) -> StepSyncConfig {
        var sync = StepSyncConfig.defaults
        for member in try node.members("a stepSync object, e.g. {\"syncInterval\": \"2h\"}") {
            let child = member.node
            switch member.key {
            case "syncInterval": sync.syncInterval = try child.duration(.positive)
            case "backfillLimit":
                sync.backfillLimit = try child.duration(.positive)
                // A read answers a row a day, and the step store keeps each (docs/scenario.md):
                // at most a year, as the other durations of `logic`.
                guard sync.backfillLimit <= .days(366) else {
                    throw child.error(expected: "a backfill of at most 366 days", found: "\(sync.backfillLimit)")
                }
            case "retryDelays":
                let elements = try child.elements("an array of retry delays, e.g. [\"5m\", \"10m\", \"15m\"]")
                guard elements.count <= 10 else {
                    throw child.error(expected: "at most 10 retry delays", found: "\(elements.count)")
                }
                var delays: [SimDuration] = []
                for element in elements { delays.append(try element.duration(.positive)) }
                sync.retryDelays = delays
            case "openSyncAge": sync.openSyncAge = try child.duration(.positive)
            case "staleNotificationAge": sync.staleNotificationAge = try child.duration(.positive)
            case "lowBatteryPercent": sync.lowBatteryPercent = Int(try child.integer(in: 0...100, "a whole percent"))
            default: throw member.unknownKey(among: keys)
            }
        }
        return sync
    }
}

extension StepSyncFeature {
    /// Its section of a scenario's `logic` (``FeatureList/logicSections``).
    static let logicSection = ScenarioSectionKey("stepSync", StepSyncConfig.self)
}

extension LogicConfig {
    /// `logic.stepSync`, read and written by type; per-event code reads the copy its host
    /// or the oracle keeps.
    public var stepSync: StepSyncConfig {
        get { self[StepSyncConfig.self] }
        set { self[StepSyncConfig.self] = newValue }
    }
}
