import SimKernel

/// `fleet[].push`, the top-level `broadcasts` and `backend.push` (seed `001`; docs/scenario.md).
///
/// Rules: `sources` has a key per ``PushSourceName`` (each optional), each with `perDay`
/// (a number from 0 to 1440) and `priority` (weights of priority names); `quietHours`
/// weights of `"none"` or `"HH:MM-HH:MM"` (equal ends are not quiet hours: write
/// `"none"`); `optOut` a fraction per category name; `emailEnabled` and
/// `openProbability` fractions; `openDelay` a distribution of durations;
/// `tokenRotationsPerMonth` and `reinstallsPerMonth` numbers from 0 to 1000. A broadcast
/// needs `at` (≥ 0), takes `priority` (default `"normal"`), `category` (default
/// `"announcements"`), `cohort` and `fraction` (default 1).
enum PushDecoder {
    static let usageKeys = ["sources", "quietHours", "optOut", "emailEnabled", "openProbability", "openDelay",
                            "tokenRotationsPerMonth", "reinstallsPerMonth"]
    static let sourceKeys = ["perDay", "priority"]

    static func usage(_ node: ScenarioNode) throws(ScenarioError) -> PushUsage {
        var usage = PushUsage.defaults
        for member in try node.members("a push object, e.g. {\"quietHours\": {\"none\": 1}}") {
            let child = member.node
            switch member.key {
            case "sources":
                for source in try child.members("an object of notification sources, e.g. {\"assignmentDue\": {\"perDay\": 0.5}}") {
                    let names = PushSourceName.allCases.map(\.rawValue)
                    guard let name = PushSourceName(rawValue: source.key) else { throw source.unknownKey(among: names) }
                    let index = PushSourceName.allCases.firstIndex(of: name)!
                    usage.sources[index] = try self.source(source.node, usage.sources[index])
                }
            case "quietHours": usage.quietHours = try quietHours(child)
            case "optOut":
                for category in try child.members("an object of category names with the share of users who opted out, e.g. {\"challenges\": 0.1}") {
                    let names = PushCategoryName.allCases.map(\.rawValue)
                    guard let name = PushCategoryName(rawValue: category.key) else { throw category.unknownKey(among: names) }
                    usage.optOut[PushCategoryName.allCases.firstIndex(of: name)!] = try category.node.fraction()
                }
            case "emailEnabled": usage.emailEnabled = try child.fraction()
            case "openProbability": usage.openProbability = try child.fraction()
            case "openDelay": usage.openDelay = try child.distribution(.duration)
            case "tokenRotationsPerMonth":
                usage.tokenRotationsPerMonth = try child.number(in: 0...1_000, "token changes per device-month: a number from 0 to 1000")
            case "reinstallsPerMonth":
                usage.reinstallsPerMonth = try child.number(in: 0...1_000, "uninstalls (each reinstalled at the next open) per device-month: a number from 0 to 1000")
            default: throw member.unknownKey(among: usageKeys)
            }
        }
        return usage
    }

    private static func source(_ node: ScenarioNode, _ base: PushSourceConfig) throws(ScenarioError) -> PushSourceConfig {
        var source = base
        for member in try node.members("a source object, e.g. {\"perDay\": 0.5, \"priority\": {\"high\": 1}}") {
            switch member.key {
            case "perDay": source.perDay = try member.node.number(in: 0...1_440, "notifications per user-day: a number from 0 to 1440")
            case "priority": source.priority = try priorities(member.node)
            default: throw member.unknownKey(among: sourceKeys)
            }
        }
        return source
    }

    static func priorities(_ node: ScenarioNode) throws(ScenarioError) -> Categorical<PushPriorityName> {
        try node.categorical(of: "priority names", example: "{\"high\": 0.3, \"normal\": 0.7}") { (member) throws(ScenarioError) in
            try named(member.key, at: member.node, PushPriorityName.self)
        }
    }

    static let quietExpected = "quiet hours: \"none\" or \"HH:MM-HH:MM\" on the user's local clock, e.g. \"20:00-07:00\""

    static func quietHours(_ node: ScenarioNode) throws(ScenarioError) -> Categorical<QuietHoursSpec?> {
        try node.categorical(of: "quiet hours", example: "{\"none\": 0.6, \"20:00-07:00\": 0.4}") { (member) throws(ScenarioError) in
            if member.key == "none" { return nil }
            guard let spec = parseQuietHours(member.key) else {
                throw member.node.error(expected: quietExpected, found: "the name \(JSONValue.quoteForMessage(member.key))")
            }
            return spec
        }
    }

    /// `"HH:MM-HH:MM"` with hours 00-23 and minutes 00-59, the two ends different.
    static func parseQuietHours(_ text: String) -> QuietHoursSpec? {
        let bytes = Array(text.utf8)
        guard bytes.count == 11, bytes[2] == UInt8(ascii: ":"), bytes[5] == UInt8(ascii: "-"), bytes[8] == UInt8(ascii: ":") else { return nil }
        func number(_ a: Int) -> Int? {
            let d0 = Int(bytes[a]) - 48, d1 = Int(bytes[a + 1]) - 48
            guard (0...9).contains(d0), (0...9).contains(d1) else { return nil }
            return d0 * 10 + d1
        }
        guard let h0 = number(0), let m0 = number(3), let h1 = number(6), let m1 = number(9),
              h0 < 24, h1 < 24, m0 < 60, m1 < 60 else { return nil }
        let start = h0 * 60 + m0, end = h1 * 60 + m1
        guard start != end else { return nil }
        return QuietHoursSpec(startMinute: start, endMinute: end)
    }

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

    private static func named<E: RawRepresentable & CaseIterable>(_ key: String, at node: ScenarioNode, _ type: E.Type) throws(ScenarioError) -> E where E.RawValue == String {
        let all = E.allCases.map(\.rawValue)
        guard let value = E(rawValue: key) else {
            throw node.unknownName(key, among: all, ScenarioNode.oneOf(all))
        }
        return value
    }
}
