import SimKernel

/// Seed `001`'s priorities, by name (`PushPriority` of the logic, which Scenario does not import).
public enum PushPriorityName: String, Sendable, Equatable, CaseIterable { case low, normal, high, blocking }

/// Seed `001`'s preference categories, by name ("Push Notification Preferences").
public enum PushCategoryName: String, Sendable, Equatable, CaseIterable { case assignments, challenges, messages, announcements }

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
public struct PushUsage: Sendable, Equatable {
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
    /// tokens "may refresh periodically", with no rate), an uninstall and reinstall every
    /// 50 months (0.02), so the token expiration rate stays under seed `001`'s target of
    /// 1 % a week (the default scenario measures about 0.5 %).
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
        openDelay: .lognormal(median: micros(.minutes(10)), p99: micros(.hours(8))))
}

/// A top-level `broadcasts` entry: one notification to every push user of the fleet, or
/// of one cohort (an organisation), or a `fraction` of them, at one instant.
public struct Broadcast: Sendable, Equatable {
    public var at: SimDuration
    public var priority: PushPriorityName
    public var category: PushCategoryName
    /// Narrow to one cohort (by name): the organisation.
    public var cohort: String?
    public var fraction: Double
}

/// `backend.push`: the push service's sending capacity, per provider.
public struct PushBackendConfig: Sendable, Equatable {
    /// Concurrent sends awaiting a provider's answer. **Assumption**: 1000 (10 HTTP/2
    /// connections of 100 streams).
    public var concurrency: Int
    /// Sends waiting beyond this are refused by the push service itself (treated as a 503).
    /// **Assumption**: 100,000.
    public var queueLimit: Int

    public static let defaults = PushBackendConfig(concurrency: 1_000, queueLimit: 100_000)
}
