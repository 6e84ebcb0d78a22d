import Testing
import AppLogic

/// Seed `001`, "Badge Management": "Push badge-only update when count changes (silent
/// push)". A change no alert carries goes to every active device as a badge-only push.
@Suite struct PushBadgeUpdateTests {
    /// An APNs and an FCM device, and one normal alert (badge 1) to the APNs one, accepted.
    func oneUnread() -> PushStore {
        var store = PushStore()
        _ = store.send(.deviceRegistered(apns(1)), at: monday)
        _ = store.send(.deviceRegistered(fcm(2)), at: monday)
        _ = store.send(dueSoon(1, .normal), at: monday + .hours(1))
        _ = store.send(.providerResponse(PushSendID(1), .accepted), at: monday + .hours(1))
        return store
    }

    @Test func aReadGoesToEveryActiveDeviceAsABadgeOnlyPush() {
        var store = oneUnread()
        let t = monday + .hours(2)
        #expect(store.send(.notificationsRead(count: 1), at: t) == [
            badgeOnly(2, to: apns(1), badge: 0, bytes: 41, at: t),
            badgeOnly(3, to: fcm(2), badge: 0, bytes: 22, at: t),
        ])
    }

    /// The count is already 0, or nothing was read: it does not change, nothing is pushed.
    @Test(arguments: [(1, 1), (0, 0)])
    func aReadThatLeavesTheCountPushesNothing(firstRead: Int, secondRead: Int) {
        var store = oneUnread()
        _ = store.send(.notificationsRead(count: firstRead), at: monday + .hours(2))
        #expect(store.send(.notificationsRead(count: secondRead), at: monday + .hours(3)) == [])
    }

    @Test func lowPriorityUpdatesTheBadgeOfEveryActiveDevice() {
        var store = oneUnread()
        let t = monday + .hours(2)
        #expect(store.send(dueSoon(2, .low), at: t) == [
            .suppressed(NotificationID(2), .lowPriority),
            badgeOnly(2, to: apns(1), badge: 2, bytes: 41, at: t),
            badgeOnly(3, to: fcm(2), badge: 2, bytes: 22, at: t),
        ])
    }

    /// The normal alert carries the new count to the device it goes to: no badge push beside it.
    @Test func anAlertCarriesTheCountWithoutABadgePush() {
        var store = oneUnread()
        let t = monday + .hours(2)
        #expect(store.send(dueSoon(2, .normal), at: t) == [
            .send(PushSendID(2), to: apns(1), payload: dueSoonPayload(2, badge: 2), priority: .normal, platformPriority: .normal, collapseId: nil, expiration: t + .days(7)),
        ])
    }

    @Test func withoutAnActiveDeviceTheCountRisesWithNoPush() {
        var store = PushStore()
        #expect(store.send(dueSoon(1, .normal), at: monday) == [.suppressed(NotificationID(1), .noActiveDevice)])
        #expect(store.send(.notificationsRead(count: 1), at: monday + .hours(1)) == [])
        #expect(store.state.unread == 0)
    }
}
