import AppLogic
import Platform

extension World {
    /// A notification reached the notification centre (permission allowed it). One
    /// without `content.badge` leaves the badge to ``BadgeManager``, as the app's
    /// notification adapter does: it reports the new unread count to the manager.
    mutating func notificationDelivered(_ notification: LocalNotification, device d: UInt32) {
        let i = Int(d)
        _ = devices[i].notificationCenter.post(notification)
        if let badge = notification.badge { note(d, "OS: badge set to \(badge) by the notification itself") }
        guard notification.badge == nil else { return }
        deliverBadge(d, .deliveredNotificationsChanged(unread: Int(devices[i].notificationCenter.delivered)))
    }

    /// The user opens the app: the oracle compares what the user sees on the icon with
    /// the notifications truly unread (seed `002`, issue 3), then the app reads them.
    mutating func badgeOnOpen(_ d: UInt32) {
        observeBadgeAtOpen(Int(d))
        deliverBadge(d, .appOpened)
    }

    private mutating func deliverBadge(_ d: UInt32, _ input: BadgeManager.Input) {
        let i = Int(d)
        note(d, "badge <- \(input)")
        badgeEffects.removeAll(keepingCapacity: true)
        badgeManager.handle(input, into: &badgeEffects)
        for effect in badgeEffects {
            note(d, "badge -> \(effect)")
            switch effect {
            case .setBadge(let n): devices[i].notificationCenter.setBadge(n)
            case .removeAllDeliveredNotifications: devices[i].notificationCenter.clearDelivered()
            }
        }
    }
}
