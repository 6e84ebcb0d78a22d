/// The one owner of the app badge (seed `002`, issue 3: "badge overwrite"; seed `001`:
/// the badge is the unread count). No notification sets `content.badge`; instead the
/// host tells the manager whenever the app's delivered notifications change, and the
/// badge always equals the number of unread ones.
///
/// The count comes from the OS (`UNUserNotificationCenter.getDeliveredNotifications`),
/// not from a counter of the app's own: a counter would be lost with a termination
/// or drift when a notification is removed, while the OS's list survives both. So
/// the manager keeps no state of its own, and nothing of it must be persisted.
///
/// An open counts as reading every notification: the app shows their content (the
/// test that is due, the finished analysis), removes them from the notification
/// centre and clears the badge.
public struct BadgeManager: Sendable {
    public init() {}

    public typealias Input = BadgeInput
    public typealias Effect = BadgeEffect

    public func handle(_ input: Input, into effects: inout [Effect]) {
        switch input {
        case .deliveredNotificationsChanged(let unread):
            effects.append(.setBadge(max(0, unread)))
        case .appOpened:
            effects.append(.removeAllDeliveredNotifications)
            effects.append(.setBadge(0))
        }
    }
}
