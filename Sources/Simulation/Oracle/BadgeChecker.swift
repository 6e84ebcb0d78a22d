import AppLogic
import Platform

extension BadgeHost {
    /// The user opens the app: what the user sees on the icon (the number the app set;
    /// a provisional app's badge is set but not shown) equals the notifications truly
    /// unread (seed `002`, issue 3). No state: the notification centre is the truth.
    @inline(__always) func observeBadgeAtOpen(_ i: Int, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let center = core.devices[i].notificationCenter
        let matches = Int(center.badgeNumber) == Int(center.delivered)
        core.verify(matches, .badgeDiffersFromUnread, device: i, time: core.now,
                    detail: matches ? nil : "badge \(center.badgeNumber) but \(center.delivered) unread notification(s) at the open")
    }
}
