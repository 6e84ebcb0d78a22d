import SimKernel
import Scenario

/// `logic.push`: every interval and threshold of seed `001`'s pipeline, each default the
/// seed's value (or docs/platform-facts.md's, as noted), as ``AppLogic``'s `PushConfiguration` documents them.
public struct PushLogicConfig: ScenarioSection {
    /// Normal priority is skipped when the user was active in-app this recently. 5 min
    /// ("Channel Selection Logic").
    public var activityWindow: SimDuration
    /// High priority goes to every device when not delivered within this. 5 min ("Priority-Based Delivery").
    public var highEscalationDelay: SimDuration
    /// High priority falls back to email when delayed more than this. 15 min ("Fallback Mechanism").
    public var highEmailDelay: SimDuration
    /// Normal pushes per local day. 5 ("Push Frequency Limits").
    public var normalPerDay: Int
    /// High pushes per local week. 10 ("Push Frequency Limits").
    public var highPerWeek: Int
    /// Waits before each retry of a 5xx or timeout. 1 s, 5 s, 25 s ("Retry Strategy").
    public var retryDelays: [SimDuration]
    /// No answer for this long is a timeout. 30 s ("Retry Logic").
    public var providerTimeout: SimDuration
    /// A 429's first wait, doubled at each retry. 1 min (docs/platform-facts.md H).
    public var rateLimitBackoff: SimDuration
    /// TTL by priority: 24 h high and blocking, 7 d normal, 3 d low and silent ("Notification Expiration").
    public var ttlHigh: SimDuration
    public var ttlNormal: SimDuration
    public var ttlLow: SimDuration
    /// Silent test push to tokens not validated for this long. 7 d ("Validation Process").
    public var validationInterval: SimDuration
    /// Devices unused this long become inactive. 90 d ("Device Cleanup").
    public var inactiveAfter: SimDuration
    /// Expired tokens are purged after this. 180 d ("Device Cleanup").
    public var purgeAfter: SimDuration
    /// Cleanup, validation and the unread count's sync run this often. 1 d (seed `001`, its count sync).
    public var maintenanceInterval: SimDuration
    /// Title and body limits, characters. 65 and 240 ("Content Truncation").
    public var titleLimit: Int
    public var bodyLimit: Int
    /// Payload limits, bytes. 4096 each (docs/platform-facts.md G, H).
    public var apnsPayloadLimit: Int
    public var fcmPayloadLimit: Int

    /// Seed `001`'s values (docs/platform-facts.md G and H for the 429 backoff and the payload limits).
    public static let defaults = PushLogicConfig(
        activityWindow: .minutes(5), highEscalationDelay: .minutes(5), highEmailDelay: .minutes(15),
        normalPerDay: 5, highPerWeek: 10, retryDelays: [.seconds(1), .seconds(5), .seconds(25)],
        providerTimeout: .seconds(30), rateLimitBackoff: .minutes(1),
        ttlHigh: .hours(24), ttlNormal: .days(7), ttlLow: .days(3),
        validationInterval: .days(7), inactiveAfter: .days(90), purgeAfter: .days(180), maintenanceInterval: .days(1),
        titleLimit: 65, bodyLimit: 240, apnsPayloadLimit: 4096, fcmPayloadLimit: 4096)

    static let keys = ["activityWindow", "highEscalationDelay", "highEmailDelay", "normalPerDay", "highPerWeek",
                            "retryDelays", "providerTimeout", "rateLimitBackoff", "ttlHigh", "ttlNormal", "ttlLow",
                            "validationInterval", "inactiveAfter", "purgeAfter", "maintenanceInterval",
                            "titleLimit", "bodyLimit", "apnsPayloadLimit", "fcmPayloadLimit"]
    /// FCM's longest `ttl` (docs/platform-facts.md H: 2 419 200 s): a longer TTL would have every FCM send refused.
    static let maximumTTL = SimDuration.days(28)

    /// `activityWindow` ≥ 0; every other duration > 0; every duration at most
    /// 366 days (the longest run; it also keeps time arithmetic far from overflow), the
    /// three TTLs at most 28 days (FCM's limit); `retryDelays` an array of at most 10 positive durations
    /// (empty: no retries); `normalPerDay` and `highPerWeek` integers from 0 to 255 (the
    /// counters are bytes); `titleLimit` and `bodyLimit` from 1 to 10,000 characters; the
    /// payload limits from 1 to 65,536 bytes (above the providers' 4096, they answer 413).
    public static func decode(_ node: ScenarioNode) throws(ScenarioError) -> PushLogicConfig {
        var config = PushLogicConfig.defaults
        for member in try node.members("a push logic object, e.g. {\"activityWindow\": \"5m\", \"normalPerDay\": 5}") {
            let child = member.node
            switch member.key {
            case "activityWindow": config.activityWindow = try span(child, .nonNegative)
            case "highEscalationDelay": config.highEscalationDelay = try span(child, .positive)
            case "highEmailDelay": config.highEmailDelay = try span(child, .positive)
            case "normalPerDay": config.normalPerDay = Int(try child.integer(in: 0...255, "normal pushes per day: an integer from 0 to 255"))
            case "highPerWeek": config.highPerWeek = Int(try child.integer(in: 0...255, "high pushes per week: an integer from 0 to 255"))
            case "retryDelays":
                let elements = try child.elements("an array of retry delays, e.g. [\"1s\", \"5s\", \"25s\"]")
                guard elements.count <= 10 else { throw child.error(expected: "at most 10 retry delays", found: "\(elements.count)") }
                var delays: [SimDuration] = []
                for element in elements { delays.append(try span(element, .positive)) }
                config.retryDelays = delays
            case "providerTimeout": config.providerTimeout = try span(child, .positive)
            case "rateLimitBackoff": config.rateLimitBackoff = try span(child, .positive)
            case "ttlHigh": config.ttlHigh = try ttl(child)
            case "ttlNormal": config.ttlNormal = try ttl(child)
            case "ttlLow": config.ttlLow = try ttl(child)
            case "validationInterval": config.validationInterval = try span(child, .positive)
            case "inactiveAfter": config.inactiveAfter = try span(child, .positive)
            case "purgeAfter": config.purgeAfter = try span(child, .positive)
            case "maintenanceInterval": config.maintenanceInterval = try span(child, .positive)
            case "titleLimit": config.titleLimit = Int(try child.integer(in: 1...10_000, "a title limit in characters: an integer from 1 to 10000"))
            case "bodyLimit": config.bodyLimit = Int(try child.integer(in: 1...10_000, "a body limit in characters: an integer from 1 to 10000"))
            case "apnsPayloadLimit": config.apnsPayloadLimit = Int(try child.integer(in: 1...65_536, "a payload limit in bytes: an integer from 1 to 65536"))
            case "fcmPayloadLimit": config.fcmPayloadLimit = Int(try child.integer(in: 1...65_536, "a payload limit in bytes: an integer from 1 to 65536"))
            default: throw member.unknownKey(among: keys)
            }
        }
        return config
    }

    /// A duration of `logic.push`: obeying `rule`, at most ``ScenarioDecoder/maximumDuration``.
    private static func span(_ node: ScenarioNode, _ rule: DurationRule) throws(ScenarioError) -> SimDuration {
        let d = try node.duration(rule)
        guard d <= ScenarioDecoder.maximumDuration else {
            throw node.error(expected: "a duration of at most 366 days", found: "\(d)")
        }
        return d
    }

    private static func ttl(_ node: ScenarioNode) throws(ScenarioError) -> SimDuration {
        let ttl = try node.duration(.positive)
        guard ttl <= maximumTTL else {
            throw node.error(expected: "a TTL of at most 28 days (FCM's longest, docs/platform-facts.md H)", found: "\(ttl)")
        }
        return ttl
    }
}

/// The notification sources of the push workload, each with its seed `001` category
/// ("Trigger Sources": assignment due soon, teacher feedback, challenges, announcements).
public enum PushSourceName: String, Sendable, Equatable, CaseIterable {
    case assignmentDue, teacherFeedback, challenge, announcement

    public var category: PushCategoryName {
        switch self {
        case .assignmentDue: return .assignments
        case .teacherFeedback: return .messages
        case .challenge: return .challenges
        case .announcement: return .announcements
        }
    }
}

/// One source's rate (a Poisson process per user) and its priorities.
public struct PushSourceConfig: Sendable, Equatable {
    /// Notifications per user-day.
    public var perDay: Double
    public var priority: Categorical<PushPriorityName>
}

/// A user's quiet hours on their local clock, `start ..< end` in minutes after midnight
/// (across midnight when `start > end`), written `"20:00-07:00"`; `"none"` for none.
public struct QuietHoursSpec: Sendable, Equatable {
    public var startMinute: Int
    public var endMinute: Int
}

/// `fleet[].push`: how a cohort's users create and treat push notifications (seed `001`).
/// The seed gives no rates or user behaviour: each default is a named **Assumption** (README).
public struct PushUsage: ScenarioSection {
    /// In ``PushSourceName`` order.
    public var sources: [PushSourceConfig]
    /// Quiet hours by weight; nil is `"none"`.
    public var quietHours: Categorical<QuietHoursSpec?>
    /// Share of users who turned each category off, in ``PushCategoryName`` order.
    public var optOut: [Double]
    /// Share of users with email enabled (the fallback needs it).
    public var emailEnabled: Double
    /// Probability that the user opens a displayed push (else it is dismissed).
    public var openProbability: Double
    /// Delay from display to the open.
    public var openDelay: Distribution
    /// Token changes per device-month (30 days), a Poisson process: FCM's `onTokenRefresh`
    /// reaches the server at once; a new APNs token at the app's next launch (seed `001`,
    /// "Token Rotation").
    public var tokenRotationsPerMonth: Double = 0.05
    /// Uninstalls per device-month, a Poisson process: the provider answers 410 / 404 from
    /// then on; the app is reinstalled at the user's next open and registers a new token
    /// (seed `001`: "Unregistered | 410 | Device uninstalled app").
    public var reinstallsPerMonth: Double = 0.02

    /// **Assumptions**: assignment due 0.3 a day (high 0.3, normal 0.7), teacher feedback
    /// 0.2 (normal), challenge 0.5 (normal 0.5, low 0.5), announcement 0.05 (normal);
    /// quiet hours none 0.6, 20:00-07:00 0.4 (seed `001`'s example); opt-outs: challenges
    /// 0.1, announcements 0.05; email enabled 0.8; a displayed push opened with
    /// probability 0.3 after lognormal median 10 min, p99 8 h; a token change every 20
    /// months (0.05 per device-month: seed `001` says APNs tokens "don't expire" and FCM
    /// tokens may change periodically, with no rate), an uninstall and reinstall every
    /// 50 months (0.02), so the token expiration rate stays under seed `001`'s target of
    /// 1 % a week (the default scenario measures about 0.5 %).
    private static func micros(_ d: SimDuration) -> Double { Double(d.microseconds) }

    public static let defaults = PushUsage(
        sources: [
            PushSourceConfig(perDay: 0.3, priority: Categorical([(value: .high, weight: 0.3), (value: .normal, weight: 0.7)])),
            PushSourceConfig(perDay: 0.2, priority: Categorical([(value: .normal, weight: 1)])),
            PushSourceConfig(perDay: 0.5, priority: Categorical([(value: .normal, weight: 0.5), (value: .low, weight: 0.5)])),
            PushSourceConfig(perDay: 0.05, priority: Categorical([(value: .normal, weight: 1)])),
        ],
        quietHours: Categorical([(value: nil, weight: 0.6), (value: QuietHoursSpec(startMinute: 20 * 60, endMinute: 7 * 60), weight: 0.4)]),
        optOut: [0, 0.1, 0, 0.05],
        emailEnabled: 0.8,
        openProbability: 0.3,
        openDelay: .lognormal(median: Self.micros(.minutes(10)), p99: Self.micros(.hours(8))))

    static let keys = ["sources", "quietHours", "optOut", "emailEnabled", "openProbability", "openDelay",
                            "tokenRotationsPerMonth", "reinstallsPerMonth"]
    static let sourceKeys = ["perDay", "priority"]

    /// `sources` has a key per ``PushSourceName`` (each optional), each with `perDay`
    /// (a number from 0 to 1440) and `priority` (weights of priority names); `quietHours`
    /// weights of `"none"` or `"HH:MM-HH:MM"` (equal ends are not quiet hours: write
    /// `"none"`); `optOut` a fraction per category name; `emailEnabled` and
    /// `openProbability` fractions; `openDelay` a distribution of durations;
    /// `tokenRotationsPerMonth` and `reinstallsPerMonth` numbers from 0 to 1000.
    public static func decode(_ node: ScenarioNode) throws(ScenarioError) -> PushUsage {
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
            default: throw member.unknownKey(among: keys)
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

    private static func named<E: RawRepresentable & CaseIterable>(_ key: String, at node: ScenarioNode, _ type: E.Type) throws(ScenarioError) -> E where E.RawValue == String {
        let all = E.allCases.map(\.rawValue)
        guard let value = E(rawValue: key) else {
            throw node.unknownName(key, among: all, ScenarioNode.oneOf(all))
        }
        return value
    }
}

extension PushFeature {
    /// Its section of a scenario's `logic` (``FeatureList/logicSections``).
    static let logicSection = ScenarioSectionKey("push", PushLogicConfig.self)
    /// Its section of a cohort (``FeatureList/cohortSections``).
    static let cohortSection = ScenarioSectionKey("push", PushUsage.self)
}

extension LogicConfig {
    /// `logic.push`, read and written by type; per-event code reads the copy its host or
    /// the oracle keeps.
    public var push: PushLogicConfig {
        get { self[PushLogicConfig.self] }
        set { self[PushLogicConfig.self] = newValue }
    }
}

extension Cohort {
    /// `fleet[].push`, read and written by type; per-event code reads the copy
    /// ``PushHost`` keeps.
    public var push: PushUsage {
        get { self[PushUsage.self] }
        set { self[PushUsage.self] = newValue }
    }
}
