import AppLogic
import Platform

/// The app icon's badge (seed `002`, issue 3), hosted (docs/architecture.md): the
/// ``BadgeManager`` and its effect buffer. Its per-device state is the notification
/// centre, which every feature posts to, so it lives in the core's `Device`.
struct BadgeHost<Logics: LogicSet> {
    let manager: Logics.Badge
    /// The reused buffer the manager writes its effects into.
    private var effects: [BadgeEffect] = []

    init(manager: Logics.Badge) { self.manager = manager }

    /// A notification reached the notification centre (permission allowed it). One
    /// without `content.badge` leaves the badge to ``BadgeManager``, as the app's
    /// notification adapter does: it reports the new unread count to the manager.
    mutating func notificationDelivered(_ notification: LocalNotification, device d: UInt32, core: inout WorldCore) {
        let i = Int(d)
        _ = core.devices[i].notificationCenter.post(notification)
        if let badge = notification.badge { core.note(d, "OS: badge set to \(badge) by the notification itself") }
        guard notification.badge == nil else { return }
        deliver(d, .deliveredNotificationsChanged(unread: Int(core.devices[i].notificationCenter.delivered)), core: &core)
    }

    /// The user opens the app: the oracle compares what the user sees on the icon with
    /// the notifications truly unread (seed `002`, issue 3), then the app reads them.
    mutating func appOpened(_ d: UInt32, core: inout WorldCore) {
        observeBadgeAtOpen(Int(d), core: core)
        deliver(d, .appOpened, core: &core)
    }

    /// Deliver an input, execute its effects (on the notification centre only).
    private mutating func deliver(_ d: UInt32, _ input: BadgeInput, core: inout WorldCore) {
        let i = Int(d)
        core.note(d, "badge <- \(input)")
        effects.removeAll(keepingCapacity: true)
        manager.handle(input, into: &effects)
        for effect in effects {
            core.note(d, "badge -> \(effect)")
            switch effect {
            case .setBadge(let n): core.devices[i].notificationCenter.setBadge(n)
            case .removeAllDeliveredNotifications: core.devices[i].notificationCenter.clearDelivered()
            }
        }
    }
}

extension LocalNotification {
    /// A notification without `content.badge`, as the app's logic builds every one: the
    /// badge is owned centrally and never set by one notification (seed `002`, issue 3;
    /// docs/model.md). **Decision**: a remote notification the OS shows gets none
    /// either; its payload's own `badge` is not applied.
    init(kind: Kind) { self.init(kind: kind, badge: nil) }
}

// MARK: - What it hears as a feature (Features/FeatureHooks.swift)

extension BadgeHost: FeatureHooks {
    @inline(__always) static func hearAppOpened(_ d: UInt32, in world: inout World<Logics>) { world.features.badge.appOpened(d, core: &world.core) }
}
