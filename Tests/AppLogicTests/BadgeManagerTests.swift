import Testing
import AppLogic

/// The badge through a host loop (seed `002`, issue 3; seed `001`: the badge is the
/// unread count): notifications of several sources, the continuation logic's own
/// effects, a termination and an open. The host's notification centre keeps what the
/// OS keeps across a termination (the delivered list and the badge number); the
/// manager is rebuilt with the app.
@Suite struct BadgeManagerTests {
    /// The OS side: delivered notifications and the number on the icon.
    struct Center {
        var delivered = 0
        var badge = 0
        var manager = BadgeManager()

        /// The OS delivers a notification; one without `content.badge` goes through the
        /// manager, as the app's notification adapter does.
        mutating func post(_ n: LocalNotification) {
            delivered += 1
            if let b = n.badge { badge = b; return }
            apply(.deliveredNotificationsChanged(unread: delivered))
        }

        mutating func apply(_ input: BadgeManager.Input) {
            var effects: [BadgeManager.Effect] = []
            manager.handle(input, into: &effects)
            for e in effects {
                switch e {
                case .setBadge(let n): badge = n
                case .removeAllDeliveredNotifications: delivered = 0
                }
            }
        }
    }

    let startedAt = Instant(unixSeconds: 1_772_442_000)

    @Test func badgeEqualsUnreadAcrossSourcesATerminationAndAnOpen() {
        var center = Center()
        // Seed 004: an analysis moved on, its result notified by the logic's own effect.
        var store = ContinuationStore()
        _ = store.send(.analysisRequested(.hierarchical, notifications: .authorized), at: startedAt)
        _ = store.send(.timerFired(.offer), at: startedAt + .seconds(10))
        _ = store.send(.userChose(.moveOn), at: startedAt + .seconds(10))
        for effect in store.send(.httpResponse(RequestID(1), .ok(.analysis)), at: startedAt + .seconds(25)) {
            if case .postNotification(let n) = effect { center.post(n) }
        }
        #expect(center.badge == 1)
        // Seed 000: a test is due.
        center.post(LocalNotification(kind: .testAvailable, badge: nil))
        #expect(center.badge == 2)
        // The app is terminated: a new process, a new manager; the OS kept both.
        center.manager = BadgeManager()
        #expect(center.badge == 2)
        // Seed 003: steps stale. Counting from the OS, not from zero: 3.
        center.post(LocalNotification(kind: .stepSyncStale, badge: nil))
        #expect(center.badge == 3)
        #expect(center.delivered == 3)
        // The open reads them all.
        center.apply(.appOpened)
        #expect(center.badge == 0)
        #expect(center.delivered == 0)
        center.post(LocalNotification(kind: .testAvailable, badge: nil))
        #expect(center.badge == 1)
    }

    /// The OS removed notifications (the user cleared two of three in Notification
    /// Centre): the badge follows down, and never below 0.
    @Test func removalsOutsideTheAppLowerTheBadge() {
        var center = Center()
        for _ in 0..<3 { center.post(LocalNotification(kind: .testAvailable, badge: nil)) }
        center.delivered = 1
        center.apply(.deliveredNotificationsChanged(unread: center.delivered))
        #expect(center.badge == 1)
        center.apply(.deliveredNotificationsChanged(unread: -1))
        #expect(center.badge == 0)
    }
}
