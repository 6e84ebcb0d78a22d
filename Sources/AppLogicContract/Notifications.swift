/// Whether the user lets the app post notifications (`UNAuthorizationStatus`).
public enum NotificationAuthorization: Hashable, Sendable {
    case notDetermined, denied, authorized, provisional

    /// Authorized and provisional may be posted (provisional ones are delivered quietly).
    public var allowsPosting: Bool { self == .authorized || self == .provisional }
}

/// A local notification request (`UNNotificationRequest` with an immediate trigger).
public struct LocalNotification: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        /// Seed `000`: a cognitive test is due.
        case testAvailable
        /// Seed `004`: "Homework Analysis Complete".
        case analysisComplete
        /// Seed `001`: a push notification from the server, shown by the OS.
        case push
        /// Seed `003`: steps have not synced for 24 h.
        case stepSyncStale
    }
    public var kind: Kind
    /// `content.badge`: nil leaves the app badge alone (seed `002`, issue 3: the badge
    /// is owned centrally, never set by one notification); the host then tells
    /// ``BadgeManager``, the badge's one owner, that the delivered notifications changed.
    public var badge: Int?
    public init(kind: Kind, badge: Int?) { self.kind = kind; self.badge = badge }
}
