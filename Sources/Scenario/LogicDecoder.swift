import SimKernel

/// `logic`: `refresh` (the refresh component's intervals and limits, defaults from seed
/// `000`), `stepSync` (seed `003`'s), `continuation` (seed `004`'s thresholds), `push`
/// (seed `001`'s intervals and thresholds, ``PushDecoder/logic(_:)``) and `variants`
/// (known-bug variant names from ``Catalog/variants``, each at most once, each built in
/// this version).
enum LogicDecoder {
    static let keys = ["refresh", "stepSync", "continuation", "push", "variants"]

    static func decode(_ node: ScenarioNode, variants known: [String]) throws(ScenarioError) -> LogicConfig {
        var logic = LogicConfig.defaults
        for member in try node.members("a logic object, e.g. {\"refresh\": {}, \"variants\": []}") {
            switch member.key {
            case "refresh": logic.refresh = try refresh(member.node)
            case "continuation": logic.continuation = try ContinuationDecoder.logic(member.node)
            case "stepSync": logic.stepSync = try stepSync(member.node)
            case "push": logic.push = try PushDecoder.logic(member.node)
            case "variants": logic.variants = try variants(member.node, known: known)
            default: throw member.unknownKey(among: keys)
            }
        }
        return logic
    }

    static let refreshKeys = ["preferredInterval", "minimumInterval", "testCadence", "recentOpenSuppression", "hardStop"]

    /// `logic.refresh`: every interval and limit > 0, except `recentOpenSuppression` ≥ 0
    /// (zero turns the suppression off).
    static func refresh(_ node: ScenarioNode) throws(ScenarioError) -> RefreshConfig {
        var refresh = RefreshConfig.defaults
        for member in try node.members("a refresh object, e.g. {\"preferredInterval\": \"4h\"}") {
            let child = member.node
            switch member.key {
            case "preferredInterval": refresh.preferredInterval = try child.duration(.positive)
            case "minimumInterval": refresh.minimumInterval = try child.duration(.positive)
            case "testCadence": refresh.testCadence = try child.duration(.positive)
            case "recentOpenSuppression": refresh.recentOpenSuppression = try child.duration(.nonNegative)
            case "hardStop": refresh.hardStop = try child.duration(.positive)
            default: throw member.unknownKey(among: refreshKeys)
            }
        }
        return refresh
    }

    static let stepSyncKeys = ["syncInterval", "backfillLimit", "retryDelays", "openSyncAge", "staleNotificationAge", "lowBatteryPercent"]

    /// `logic.stepSync`: intervals > 0, `backfillLimit` at most 366 d; `retryDelays` an array of at most 10 positive
    /// durations (empty: no retries); `lowBatteryPercent` an integer in 0...100.
    static func stepSync(_ node: ScenarioNode) throws(ScenarioError) -> StepSyncConfig {
        var sync = StepSyncConfig.defaults
        for member in try node.members("a stepSync object, e.g. {\"syncInterval\": \"2h\"}") {
            let child = member.node
            switch member.key {
            case "syncInterval": sync.syncInterval = try child.duration(.positive)
            case "backfillLimit":
                sync.backfillLimit = try child.duration(.positive)
                // A read answers a row a day, and the step store keeps each (docs/scenario.md):
                // at most a year, as the push durations.
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
            default: throw member.unknownKey(among: stepSyncKeys)
            }
        }
        return sync
    }

    /// The names of `known` (the logic in use's), each at most once; one the reference
    /// catalogue lists as not built yet is refused as such.
    static func variants(_ node: ScenarioNode, known: [String]) throws(ScenarioError) -> [String] {
        let expectedOne = known.first.map { "a known-bug variant name such as \(JSONValue.quoteForMessage($0)) (see docs/scenario.md, \"Variants\")" }
            ?? "no variant: the logic in use plants none"
        var names: [String] = []
        for element in try node.elements("an array of variant names, e.g. [\"refresh.noSynchronize\"]") {
            let name = try element.name(among: known, expectedOne)
            guard !Catalog.variants.contains(where: { $0.name == name && !$0.available }) else {
                let built = Catalog.variants.filter(\.available).map { "`\($0.name)`" }.joined(separator: ", ")
                throw element.notAvailableYet(name, expected: "a variant available in this build: \(built)")
            }
            guard !names.contains(name) else {
                throw element.error(expected: "each variant at most once", found: "\(JSONValue.quoteForMessage(name)) a second time")
            }
            names.append(name)
        }
        return names
    }
}
