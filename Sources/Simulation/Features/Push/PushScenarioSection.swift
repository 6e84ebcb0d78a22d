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

extension PushFeature {
    /// Its section of a scenario's `logic` (``FeatureList/logicSections``).
    static let logicSection = ScenarioSectionKey("push", PushLogicConfig.self)
}

extension LogicConfig {
    /// `logic.push`, read and written by type; per-event code reads the copy its host or
    /// the oracle keeps.
    public var push: PushLogicConfig {
        get { self[PushLogicConfig.self] }
        set { self[PushLogicConfig.self] = newValue }
    }
}
