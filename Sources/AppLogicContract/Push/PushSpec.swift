/// The push pipeline's spec, shared by every user: the numbers the logic runs by and
/// the oracle judges it by (seed `001`'s by default; the reference takes each from a
/// scenario's `logic.push`).
public struct PushSpec: Hashable, Sendable {
    /// Normal priority is skipped when the user was active in-app this recently: 5 min
    /// (seed `001`, "Channel Selection Logic": push only if `lastActivityAge > 5 * 60`).
    public var activityWindow: Interval = .minutes(5)
    /// High priority goes to every device when not delivered within 5 min ("Priority-Based Delivery").
    public var highEscalationDelay: Interval = .minutes(5)
    /// High priority falls back to email when delayed over 15 min ("Fallback Mechanism":
    /// "delayed >15 minutes"): the check runs 1 µs after this delay.
    public var highEmailDelay: Interval = .minutes(15)
    /// At most 5 normal pushes per day ("Push Frequency Limits").
    public var normalPerDay = 5
    /// At most 10 high pushes per week ("Push Frequency Limits"). Blocking is unlimited.
    public var highPerWeek = 10
    /// Waits before the 1st, 2nd and 3rd retry of a 5xx or timeout: 1 s, 5 s, 25 s ("Retry Strategy").
    public var retryDelays: [Interval] = [.seconds(1), .seconds(5), .seconds(25)]
    /// 30 s without an answer is a timeout, retried like a 5xx ("Retry Logic": "If no
    /// response after 30s: Timeout and retry"). The logic never reads it: the host arms
    /// it on each send and feeds ``PushProviderResult/timedOut`` (FleetSim's world does).
    public var providerTimeout: Interval = .seconds(30)
    /// A 429 waits this long, doubled at each further retry; a longer `Retry-After` wins.
    /// docs/platform-facts.md H: QUOTA_EXCEEDED, "first delay at least 1 min".
    public var rateLimitBackoff: Interval = .minutes(1)
    /// TTL (`apns-expiration`, FCM `ttl`) by priority: 24 h high and blocking, 7 d normal,
    /// 3 d low and silent ("Notification Expiration").
    public var ttlHigh: Interval = .hours(24)
    public var ttlNormal: Interval = .days(7)
    public var ttlLow: Interval = .days(3)
    /// Tokens are validated weekly by a silent test push ("Validation Process").
    public var validationInterval: Interval = .days(7)
    /// Devices unused for 90 days are deactivated ("Device Cleanup").
    public var inactiveAfter: Interval = .days(90)
    /// Expired tokens are purged after 180 days ("Device Cleanup").
    public var purgeAfter: Interval = .days(180)
    /// Cleanup, validation and badge sync run once a day ("Badge Count Sync": daily).
    public var maintenanceInterval: Interval = .days(1)
    /// Title and body limits in characters, truncated with "..." ("Content Truncation").
    public var titleLimit = 65
    public var bodyLimit = 240
    /// Payload limits in bytes: APNs 4096 (docs/platform-facts.md G), FCM 4096 (docs/platform-facts.md H).
    public var apnsPayloadLimit = 4096
    public var fcmPayloadLimit = 4096

    public init() {}

    public func payloadLimit(_ provider: PushProvider) -> Int {
        provider == .apns ? apnsPayloadLimit : fcmPayloadLimit
    }

    /// TTL by priority; silent pushes use the low TTL.
    public func ttl(_ priority: PushPriority) -> Interval {
        switch priority {
        case .blocking, .high: return ttlHigh
        case .normal: return ttlNormal
        case .low: return ttlLow
        }
    }
}
