import SimKernel

/// Seed `001`'s priorities, by name (`PushPriority` of the logic, which Scenario does not import).
public enum PushPriorityName: String, Sendable, Equatable, CaseIterable { case low, normal, high, blocking }

/// Seed `001`'s preference categories, by name ("Push Notification Preferences").
public enum PushCategoryName: String, Sendable, Equatable, CaseIterable { case assignments, challenges, messages, announcements }

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
