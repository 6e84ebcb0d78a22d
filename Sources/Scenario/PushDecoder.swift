import SimKernel

/// The top-level `broadcasts` and `backend.push` (seed `001`; docs/scenario.md). A broadcast
/// needs `at` (≥ 0), takes `priority` (default `"normal"`), `category` (default
/// `"announcements"`), `cohort` and `fraction` (default 1).
enum PushDecoder {
    static let broadcastKeys = ["at", "priority", "category", "cohort", "fraction"]
    static let broadcastsExpected = "an array of broadcasts, e.g. [{\"at\": \"2h\", \"priority\": \"high\", \"category\": \"announcements\", \"fraction\": 1}]"
    /// Put a limit on everything: at most this many broadcasts.
    static let maximumBroadcasts = 1_000

    /// A decoded broadcast and where its `cohort` reference is, for the check against the fleet.
    struct DecodedBroadcast {
        var broadcast: Broadcast
        var cohortNode: ScenarioNode?
    }

    static func broadcasts(_ node: ScenarioNode) throws(ScenarioError) -> [DecodedBroadcast] {
        let elements = try node.elements(broadcastsExpected)
        guard elements.count <= maximumBroadcasts else {
            throw node.error(expected: "at most \(maximumBroadcasts) broadcasts", found: "\(elements.count)")
        }
        var list: [DecodedBroadcast] = []
        for element in elements {
            var at: SimDuration?
            var b = Broadcast(at: .zero, priority: .normal, category: .announcements, cohort: nil, fraction: 1)
            var cohortNode: ScenarioNode?
            for member in try element.members("a broadcast object, e.g. {\"at\": \"2h\", \"priority\": \"high\"}") {
                let child = member.node
                switch member.key {
                case "at": at = try child.duration(.nonNegative)
                case "priority": b.priority = try child.choice(PushPriorityName.self)
                case "category": b.category = try child.choice(PushCategoryName.self)
                case "cohort":
                    b.cohort = try child.nonEmptyString("the name of a cohort of the fleet (the organisation)")
                    cohortNode = child
                case "fraction": b.fraction = try child.fraction()
                default: throw member.unknownKey(among: broadcastKeys)
                }
            }
            guard let at else { throw element.missing("at", expected: "when the broadcast is sent: a duration from the start, e.g. \"2h\"") }
            b.at = at
            list.append(DecodedBroadcast(broadcast: b, cohortNode: cohortNode))
        }
        return list
    }

    /// Every broadcast's `cohort` names a cohort of the fleet.
    static func checkCohortReferences(_ list: [DecodedBroadcast], fleet: [Cohort]) throws(ScenarioError) {
        let names = fleet.map(\.name)
        for decoded in list {
            guard let node = decoded.cohortNode, let name = decoded.broadcast.cohort, !names.contains(name) else { continue }
            throw node.unknownName(name, among: names, "the name of a cohort of the fleet: \(ScenarioNode.oneOf(names))")
        }
    }

    static let backendKeys = ["concurrency", "queueLimit"]

    /// `backend.push`: `concurrency` an integer from 1 to 1,000,000, `queueLimit` from 0 to 10^9.
    static func backend(_ node: ScenarioNode) throws(ScenarioError) -> PushBackendConfig {
        var config = PushBackendConfig.defaults
        for member in try node.members("a push backend object, e.g. {\"concurrency\": 1000}") {
            switch member.key {
            case "concurrency":
                config.concurrency = Int(try member.node.integer(in: 1...1_000_000, "concurrent sends per provider: an integer from 1 to 1000000"))
            case "queueLimit":
                config.queueLimit = Int(try member.node.integer(in: 0...1_000_000_000, "a push queue limit: an integer from 0 to 1000000000"))
            default: throw member.unknownKey(among: backendKeys)
            }
        }
        return config
    }
}
