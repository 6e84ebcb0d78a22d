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

// The rules of the badge (seed `002`) that the checks judge: a static member each
// (``ViolationKind``) and their list.
extension ViolationKind {
    /// When the user opens the app, the badge differs from the number of unread
    /// notifications (seed `002`, issue 3).
    public static var badgeDiffersFromUnread: ViolationKind { .rule() }
}

/// What the badge declares whatever logic runs it: its rules.
enum BadgeFeature {
    /// Its rules, in the order report.json lists them (``FeatureList/rules``).
    static let rules: [ViolationKind] = [
        .badgeDiffersFromUnread
    ]
}
