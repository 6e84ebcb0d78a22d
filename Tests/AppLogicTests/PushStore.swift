import Foundation
import AppLogic

/// An exhaustive test store for ``PushRouter``: `send(_:at:)` returns every effect of
/// one input, in order, so each test compares the whole list.
struct PushStore {
    let router: PushRouter
    private(set) var state: PushUserState

    init(variants: PushVariants = [], timeZone: String = "UTC", quietHours: QuietHours? = nil, optedOut: PushCategories = []) {
        router = PushRouter(variants: variants)
        state = PushUserState(settings: PushUserSettings(timeZone: TimeZone(identifier: timeZone)!, quietHours: quietHours, optedOut: optedOut))
    }

    mutating func send(_ input: PushInput, at now: Instant) -> [PushEffect] {
        var effects: [PushEffect] = []
        router.handle(input, state: &state, now: now, into: &effects)
        return effects
    }
}

/// 2026-03-02T00:00:00Z, a Monday.
let monday = Instant(unixSeconds: 1_772_409_600)

func apns(_ device: UInt32, generation: UInt32 = 1) -> PushToken {
    PushToken(device: PushDeviceID(device), generation: generation, provider: .apns)
}

func fcm(_ device: UInt32, generation: UInt32 = 1) -> PushToken {
    PushToken(device: PushDeviceID(device), generation: generation, provider: .fcm)
}

/// A notification titled "Due soon" with the body "Treble Clef Notes" in `assignments`.
func dueSoon(_ id: UInt64, _ priority: PushPriority, category: PushCategory = .assignments, collapseId: String? = nil) -> PushInput {
    .notificationCreated(PushNotificationRequest(id: NotificationID(id), category: category, priority: priority,
                                                 title: "Due soon", body: "Treble Clef Notes", collapseId: collapseId))
}

/// The composed "Due soon" alert. Its JSON is 101 bytes for APNs and 136 for FCM at a
/// one-digit badge (counted from the JSON text of seed `001`'s shapes, not by the composer).
func dueSoonPayload(_ id: UInt64, badge: Int, provider: PushProvider = .apns) -> PushPayload {
    PushPayload(content: .alert(NotificationID(id), title: "Due soon", body: "Treble Clef Notes", threadId: "assignments"),
                badge: badge, bytes: provider == .apns ? 101 : 136)
}

/// The badge-only silent push (seed `001`, "Silent Push Payload"). Its JSON is
/// `{"aps":{"content-available":1,"badge":N}}` (41 bytes at a one-digit badge) for APNs
/// and `{"data":{"badge":"N"}}` (22 bytes) for FCM; `bytes` is given by each test.
func badgeOnly(_ id: UInt32, to token: PushToken, badge: Int, bytes: Int, at t: Instant) -> PushEffect {
    .send(PushSendID(id), to: token, payload: PushPayload(content: .badgeOnly, badge: badge, bytes: bytes), priority: .low, platformPriority: .normal, collapseId: "badge", expiration: t + .days(3))
}
