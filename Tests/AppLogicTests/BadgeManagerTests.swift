import Testing
import AppLogic

/// The badge equals the unread count across several notification sources and opens
/// (seed `002`, issue 3).
@Suite struct BadgeManagerTests {
    let manager = BadgeManager()

    private func send(_ input: BadgeManager.Input) -> [BadgeManager.Effect] {
        var effects: [BadgeManager.Effect] = []
        manager.handle(input, into: &effects)
        return effects
    }

    /// A test-available notification, then an analysis-complete one, then an open, then one more.
    @Test func badgeFollowsTheUnreadCountAcrossSourcesAndOpens() {
        #expect(send(.deliveredNotificationsChanged(unread: 1)) == [.setBadge(1)])
        #expect(send(.deliveredNotificationsChanged(unread: 2)) == [.setBadge(2)])
        #expect(send(.appOpened) == [.removeAllDeliveredNotifications, .setBadge(0)])
        #expect(send(.deliveredNotificationsChanged(unread: 1)) == [.setBadge(1)])
    }

    /// Nothing to lose at a termination: the count always comes from the OS.
    @Test func openWithNothingUnreadStillClearsTheBadge() {
        #expect(send(.appOpened) == [.removeAllDeliveredNotifications, .setBadge(0)])
    }

    @Test func aNegativeCountNeverReachesTheBadge() {
        #expect(send(.deliveredNotificationsChanged(unread: -1)) == [.setBadge(0)])
    }
}
