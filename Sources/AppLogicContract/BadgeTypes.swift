/// What the OS tells the badge's owner: the app's delivered notifications changed, or
/// the app was opened.
public enum BadgeInput: Hashable, Sendable {
    /// The app posted a notification or the OS removed one; `unread` is the number
    /// of the app's notifications now delivered and not yet read.
    case deliveredNotificationsChanged(unread: Int)
    /// The user brought the app to the foreground.
    case appOpened
}

public enum BadgeEffect: Hashable, Sendable {
    /// `UNUserNotificationCenter.setBadgeCount(_:)`.
    case setBadge(Int)
    /// `UNUserNotificationCenter.removeAllDeliveredNotifications()`.
    case removeAllDeliveredNotifications
}
