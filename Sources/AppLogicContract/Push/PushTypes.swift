/// Seed `001`'s priorities ("Priority-Based Delivery"). Ordered: `low < normal < high < blocking`.
public enum PushPriority: UInt8, Hashable, Comparable, Sendable, CaseIterable {
    /// No visible push; a badge-only silent push.
    case low
    /// The most recently used device; held through quiet hours and batched.
    case normal
    /// The most recently used device, then every device after 5 min; queued through quiet hours.
    case high
    /// Every active device at once; bypasses quiet hours.
    case blocking

    public static func < (a: PushPriority, b: PushPriority) -> Bool { a.rawValue < b.rawValue }
}

/// The preference categories of seed `001` ("Push Notification Preferences").
public enum PushCategory: UInt8, Hashable, Sendable, CaseIterable {
    case assignments, challenges, messages, announcements

    /// The case's name, as `"\(category)"` prints it, without the runtime's reflection
    /// (the default thread id of every notification composed).
    public var name: String {
        switch self {
        case .assignments: "assignments"
        case .challenges: "challenges"
        case .messages: "messages"
        case .announcements: "announcements"
        }
    }
}

/// A set of ``PushCategory`` values (a user's opt-outs).
public struct PushCategories: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ category: PushCategory) { rawValue = 1 << category.rawValue }
    public func contains(_ category: PushCategory) -> Bool { contains(PushCategories(category)) }
}

public enum PushProvider: UInt8, Hashable, Sendable {
    case apns, fcm
}

/// `DeviceRegistration.status` (seed `001`, "Device Registration Entity").
public enum PushTokenStatus: UInt8, Hashable, Sendable {
    case active, inactive, expired, revoked
}

/// The host's dense id of one phone.
public struct PushDeviceID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    public static func < (a: PushDeviceID, b: PushDeviceID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "dev\(rawValue)" }
}

/// A push token: the device that obtained it, and which of that device's tokens it is
/// (each rotation is a new generation), at its provider. Two tokens are the same token
/// only if all three agree.
public struct PushToken: Hashable, Sendable, CustomStringConvertible {
    public var device: PushDeviceID
    public var generation: UInt32
    public var provider: PushProvider
    public init(device: PushDeviceID, generation: UInt32, provider: PushProvider) {
        self.device = device
        self.generation = generation
        self.provider = provider
    }
    public var description: String { "\(provider)-\(device)-g\(generation)" }
}

/// The id of a created (in-app) notification, given by its source.
public struct NotificationID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: UInt64
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (a: NotificationID, b: NotificationID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "n\(rawValue)" }
}

/// One request to a provider. Responses come back with it; a retry is a new send.
public struct PushSendID: Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    public var description: String { "s\(rawValue)" }
}

/// A notification the platform created for one user (seed `001`, "Trigger Sources").
public struct PushNotificationRequest: Hashable, Sendable {
    public var id: NotificationID
    public var category: PushCategory
    public var priority: PushPriority
    public var title: String
    public var body: String
    /// `apns-collapse-id` / FCM `collapse_key`: a newer one replaces the older on the device.
    public var collapseId: String?
    /// `thread-id` (iOS stacks) / Android group; seed `001` groups by category when nil.
    public var threadId: String?
    /// UTF-8 bytes of the custom `data` dictionary's JSON (deep link, ids).
    public var dataBytes: Int
    public init(id: NotificationID, category: PushCategory, priority: PushPriority, title: String, body: String,
                collapseId: String? = nil, threadId: String? = nil, dataBytes: Int = 0) {
        self.id = id
        self.category = category
        self.priority = priority
        self.title = title
        self.body = body
        self.collapseId = collapseId
        self.threadId = threadId
        self.dataBytes = dataBytes
    }
}

/// How a provider answered one send.
public enum PushProviderResult: Hashable, Sendable {
    /// 200: APNs accepted it; FCM accepted it (delivery is confirmed by a receipt).
    case accepted
    /// A non-2xx status (400, 403, 404, 405, 410, 413, 429, 500, 503), with `Retry-After` if given.
    case status(Int, retryAfter: Interval?)
    /// No answer within ``PushConfiguration/providerTimeout``.
    case timedOut
    /// A rejection whose reason names the token itself (APNs 400 BadDeviceToken, docs/platform-facts.md G),
    /// with its status: seed `001`'s "Invalid token | 400/404 | Mark device expired".
    /// Other 400s (BadCollapseId, BadPriority, FCM INVALID_ARGUMENT, which does not say
    /// which argument) come as ``status(_:retryAfter:)`` and leave the token alone.
    case invalidToken(Int)
}

public enum PushInput: Hashable, Sendable {
    /// The app obtained `token` after permission was granted and registered it. A known
    /// device with another token is a rotation; with the same token, a re-registration
    /// (which reactivates an inactive or expired device).
    case deviceRegistered(PushToken)
    /// FCM `onTokenRefresh` (or an APNs token change): the old token is revoked.
    case tokenRotated(PushToken)
    /// The user used the app on `device` (opened it, or is active in it).
    case userActivity(PushDeviceID)
    case notificationCreated(PushNotificationRequest)
    /// The user read `count` notifications (the central unread count drops).
    case notificationsRead(count: Int)
    case providerResponse(PushSendID, PushProviderResult)
    /// The notification reached `device` (an FCM delivery receipt, or an open).
    case deliveryReceipt(NotificationID, PushDeviceID)
    case timerFired(PushTimer)
}

/// The timers the logic asks for. A timer that is no longer relevant when it fires is
/// ignored, so the host never needs to cancel one.
public enum PushTimer: Hashable, Sendable {
    /// The next attempt of a failed send.
    case retry(PushSendID)
    /// High priority: 5 min without delivery, send to every device.
    case escalate(NotificationID)
    /// High priority: more than 15 min without delivery (armed at 15 min + 1 µs), fall back to email.
    case highDelayCheck(NotificationID)
    /// The user's quiet hours end: release what was held.
    case quietHoursEnd
    /// The user's daily maintenance: cleanup, weekly validation, badge sync.
    case daily
}

/// Why a created notification got no push (it stays in-app, and email follows its own rules).
public enum PushSuppression: Hashable, Sendable {
    case optedOut, activeInApp, dailyLimit, weeklyLimit, noActiveDevice, payloadTooLarge
    /// Low priority: in-app only, with a badge-only silent push.
    case lowPriority
}

public enum EmailFallbackReason: Hashable, Sendable {
    /// Every device targeted failed.
    case allDevicesFailed
    /// High priority not delivered more than 15 min after it was sent.
    case highPriorityDelayed
}

/// Why a send failed (seed `001`, "push_notification_failed").
public enum PushFailureReason: Hashable, Sendable {
    /// 410 or 404, or a 400 naming the token (``PushProviderResult/invalidToken(_:)``): the token is no longer valid.
    case unregistered
    /// Any other 4xx.
    case clientError(Int)
    case rateLimited
    case serverError(Int)
    case timedOut
    /// The notification's TTL passed before the next attempt.
    case expired
}

/// What a send carries.
public enum PushContent: Hashable, Sendable {
    /// A visible notification, composed (truncated) from a request.
    case alert(NotificationID, title: String, body: String, threadId: String)
    /// Notifications held through quiet hours, as one: "You have N updates".
    case summary(NotificationID, count: Int)
    /// `content-available` with the badge only: a changed unread count no alert carries, or the daily badge sync.
    case badgeOnly
    /// The weekly validation test push (silent).
    case validation
}

public struct PushPayload: Hashable, Sendable {
    public var content: PushContent
    /// The central unread count.
    public var badge: Int
    /// The encoded payload's size in bytes (``PushComposer``).
    public var bytes: Int
    public init(content: PushContent, badge: Int, bytes: Int) {
        self.content = content
        self.badge = badge
        self.bytes = bytes
    }

    /// A silent (background) push: no alert.
    public var isSilent: Bool {
        switch content {
        case .alert, .summary: return false
        case .badgeOnly, .validation: return true
        }
    }
}

/// The provider's delivery priority a send asks for (seed `001`, "Priority-Based
/// Delivery": "high-priority platform flags (APNs priority 10, FCM high priority)").
public enum PushPlatformPriority: UInt8, Hashable, Sendable {
    /// `apns-priority` 5, FCM `normal`: normal alerts and every silent push (docs/platform-facts.md G: silent pushes need 5).
    case normal
    /// `apns-priority` 10, FCM `high`: high and blocking alerts.
    case high
}

public enum PushEffect: Hashable, Sendable {
    /// Send to a provider: `priority` is the notification's, `platformPriority` the
    /// provider's flag the router chose for it (``PushRouter/platformPriority(_:payload:)``).
    case send(PushSendID, to: PushToken, payload: PushPayload, priority: PushPriority, platformPriority: PushPlatformPriority,
              collapseId: String?, expiration: Instant)
    case startTimer(PushTimer, at: Instant)
    case sendEmail(NotificationID, reason: EmailFallbackReason)
    /// A registry write: the token's status changed.
    case markToken(PushToken, PushTokenStatus)
    /// Email the user that `device` is about to be purged (seed `001`, "Device Cleanup":
    /// "User notified via email before purging"); always just before its ``purgeDevice(_:)``.
    case emailPurgeNotice(PushDeviceID)
    /// The device's registration was deleted (expired for 180 days).
    case purgeDevice(PushDeviceID)
    /// The notification gets no push.
    case suppressed(NotificationID, PushSuppression)
    /// The notification waits for the end of quiet hours.
    case held(NotificationID, until: Instant)
    /// The held notifications are sent as one summary, under the id of the last.
    case summarized([NotificationID], into: NotificationID)
    /// A send failed (`push_notification_failed`, with `will_retry`).
    case sendFailed(PushSendID, PushFailureReason, willRetry: Bool)
}
