import Testing
import AppLogic

/// Routing by priority, the 5 min activity window, opt-outs and the daily and weekly
/// limits (seed `001`, "Channel Selection Logic", "Priority-Based Delivery", "Push
/// Frequency Limits").
@Suite struct PushRoutingTests {
    @Test func registrationActivatesTheTokenAndArmsTheDailyMaintenance() {
        var store = PushStore()
        #expect(store.send(.deviceRegistered(apns(1)), at: monday) == [
            .markToken(apns(1), .active),
            .startTimer(.daily, at: monday + .days(1)),
        ])
        #expect(store.send(.deviceRegistered(fcm(2)), at: monday + .seconds(1)) == [.markToken(fcm(2), .active)])
        #expect(store.state.devices.map(\.status) == [.active, .active])
    }

    @Test func normalGoesToTheMostRecentlyUsedDeviceOnly() {
        var store = PushStore()
        _ = store.send(.deviceRegistered(apns(1)), at: monday)
        _ = store.send(.deviceRegistered(fcm(2)), at: monday)
        _ = store.send(.userActivity(PushDeviceID(1)), at: monday + .hours(1))
        let t = monday + .hours(2)
        #expect(store.send(dueSoon(7, .normal), at: t) == [
            .send(PushSendID(1), to: apns(1), payload: dueSoonPayload(7, badge: 1), priority: .normal, platformPriority: .normal, collapseId: nil, expiration: t + .days(7)),
        ])
    }

    /// Seed `001`'s "most recently used device" is the user's use: a blocking push the
    /// FCM phone accepted last does not make it the target of the next normal push.
    @Test func anAcceptedPushDoesNotMakeADeviceTheMostRecentlyUsed() {
        var store = PushStore()
        _ = store.send(.deviceRegistered(apns(1)), at: monday)
        _ = store.send(.deviceRegistered(fcm(2)), at: monday)
        _ = store.send(.userActivity(PushDeviceID(1)), at: monday + .hours(1))
        let t1 = monday + .hours(2)
        _ = store.send(dueSoon(1, .blocking), at: t1)
        #expect(store.send(.providerResponse(PushSendID(1), .accepted), at: t1 + .seconds(1)) == [])
        #expect(store.send(.providerResponse(PushSendID(2), .accepted), at: t1 + .seconds(2)) == [])
        let t2 = monday + .hours(3)
        #expect(store.send(dueSoon(2, .normal), at: t2) == [
            .send(PushSendID(3), to: apns(1), payload: dueSoonPayload(2, badge: 2), priority: .normal, platformPriority: .normal, collapseId: nil, expiration: t2 + .days(7)),
        ])
    }

    /// A token rotation (FCM `onTokenRefresh`, in the background) is not a use; a
    /// registration (at an app launch) is.
    @Test func aRotationIsNotAUseButARegistrationIs() {
        var store = PushStore()
        _ = store.send(.deviceRegistered(apns(1)), at: monday)
        _ = store.send(.deviceRegistered(fcm(2)), at: monday)
        _ = store.send(.userActivity(PushDeviceID(1)), at: monday + .hours(1))
        _ = store.send(.tokenRotated(fcm(2, generation: 2)), at: monday + .hours(2))
        let t1 = monday + .hours(3)
        #expect(store.send(dueSoon(1, .normal), at: t1) == [
            .send(PushSendID(1), to: apns(1), payload: dueSoonPayload(1, badge: 1), priority: .normal, platformPriority: .normal, collapseId: nil, expiration: t1 + .days(7)),
        ])
        _ = store.send(.deviceRegistered(fcm(2, generation: 2)), at: monday + .hours(4))
        let t2 = monday + .hours(5)
        #expect(store.send(dueSoon(2, .normal), at: t2) == [
            .send(PushSendID(2), to: fcm(2, generation: 2), payload: dueSoonPayload(2, badge: 2, provider: .fcm), priority: .normal, platformPriority: .normal, collapseId: nil, expiration: t2 + .days(7)),
        ])
    }

    @Test func blockingGoesToEveryActiveDevice() {
        var store = PushStore()
        _ = store.send(.deviceRegistered(apns(1)), at: monday)
        _ = store.send(.deviceRegistered(fcm(2)), at: monday)
        let t = monday + .hours(2)
        #expect(store.send(dueSoon(7, .blocking), at: t) == [
            .send(PushSendID(1), to: apns(1), payload: dueSoonPayload(7, badge: 1), priority: .blocking, platformPriority: .high, collapseId: nil, expiration: t + .hours(24)),
            .send(PushSendID(2), to: fcm(2), payload: dueSoonPayload(7, badge: 1, provider: .fcm), priority: .blocking, platformPriority: .high, collapseId: nil, expiration: t + .hours(24)),
        ])
    }

    /// Seed `001`: normal is pushed only when `lastActivityAge > 5 * 60`.
    @Test(arguments: [(Interval.seconds(299), false), (.seconds(300), false), (Interval(microseconds: 300_000_001), true)])
    func normalIsSkippedWithinFiveMinutesOfInAppActivity(age: Interval, pushed: Bool) {
        var store = PushStore()
        _ = store.send(.deviceRegistered(apns(1)), at: monday)
        _ = store.send(.userActivity(PushDeviceID(1)), at: monday + .hours(1))
        let t = monday + .hours(1) + age
        let expected: [PushEffect] = pushed
            ? [.send(PushSendID(1), to: apns(1), payload: dueSoonPayload(3, badge: 1), priority: .normal, platformPriority: .normal, collapseId: nil, expiration: t + .days(7))]
            : [.suppressed(NotificationID(3), .activeInApp), badgeOnly(1, to: apns(1), badge: 1, bytes: 41, at: t)]
        #expect(store.send(dueSoon(3, .normal), at: t) == expected)
    }

    @Test func highIsSentDespiteRecentActivity() {
        var store = PushStore()
        _ = store.send(.deviceRegistered(apns(1)), at: monday)
        _ = store.send(.userActivity(PushDeviceID(1)), at: monday + .hours(1))
        let t = monday + .hours(1) + .seconds(10)
        #expect(store.send(dueSoon(3, .high), at: t) == [
            .send(PushSendID(1), to: apns(1), payload: dueSoonPayload(3, badge: 1), priority: .high, platformPriority: .high, collapseId: nil, expiration: t + .hours(24)),
            .startTimer(.escalate(NotificationID(3)), at: t + .minutes(5)),
            .startTimer(.highDelayCheck(NotificationID(3)), at: t + .minutes(15) + Interval(microseconds: 1)),
        ])
    }

    /// The count still rises, so a badge-only silent push carries it (seed `001`, "Badge Management").
    @Test func optedOutCategoryGetsNoPushButCountsAsUnread() {
        var store = PushStore(optedOut: PushCategories(.challenges))
        _ = store.send(.deviceRegistered(apns(1)), at: monday)
        let t = monday + .hours(1)
        #expect(store.send(dueSoon(3, .blocking, category: .challenges), at: t) == [
            .suppressed(NotificationID(3), .optedOut),
            badgeOnly(1, to: apns(1), badge: 1, bytes: 41, at: t),
        ])
        #expect(store.state.unread == 1)
    }

    @Test func lowPriorityIsABadgeOnlySilentPush() {
        var store = PushStore()
        _ = store.send(.deviceRegistered(fcm(1)), at: monday)
        let t = monday + .hours(1)
        #expect(store.send(dueSoon(3, .low), at: t) == [
            .suppressed(NotificationID(3), .lowPriority),
            // {"data":{"badge":"1"}} is 22 bytes.
            .send(PushSendID(1), to: fcm(1), payload: PushPayload(content: .badgeOnly, badge: 1, bytes: 22), priority: .low, platformPriority: .normal, collapseId: "badge", expiration: t + .days(3)),
        ])
    }

    @Test func noActiveDeviceMeansNoPush() {
        var store = PushStore()
        #expect(store.send(dueSoon(3, .high), at: monday) == [.suppressed(NotificationID(3), .noActiveDevice)])
    }

    /// Five normal pushes per local day; the sixth is suppressed; the count restarts at
    /// local midnight (Tokyo, UTC+9: 15:00Z).
    @Test func theFifthNormalPushOfADayIsSentAndTheSixthIsNot() {
        var store = PushStore(timeZone: "Asia/Tokyo")
        _ = store.send(.deviceRegistered(apns(1)), at: monday)
        // 2026-03-02T15:00:00Z is 2026-03-03 00:00 in Tokyo; start at 00:00 Tokyo on the 2nd (= 03-01T15:00Z).
        let dayStart = monday - .hours(9)
        for n in 1 ... 5 {
            let t = dayStart + .hours(Int64(n))
            #expect(store.send(dueSoon(UInt64(n), .normal), at: t) == [
                .send(PushSendID(UInt32(n)), to: apns(1), payload: dueSoonPayload(UInt64(n), badge: n), priority: .normal, platformPriority: .normal, collapseId: nil, expiration: t + .days(7)),
            ])
        }
        let lastSecond = dayStart + .days(1) - .seconds(1)
        #expect(store.send(dueSoon(6, .normal), at: lastSecond) == [
            .suppressed(NotificationID(6), .dailyLimit),
            badgeOnly(6, to: apns(1), badge: 6, bytes: 41, at: lastSecond),
        ])
        let nextDay = dayStart + .days(1)
        #expect(store.send(dueSoon(7, .normal), at: nextDay) == [
            .send(PushSendID(7), to: apns(1), payload: dueSoonPayload(7, badge: 7), priority: .normal, platformPriority: .normal, collapseId: nil, expiration: nextDay + .days(7)),
        ])
    }

    /// Ten high pushes per local week (Monday to Sunday); the eleventh is suppressed; blocking is unlimited.
    @Test func theTenthHighPushOfAWeekIsSentAndTheEleventhIsNot() {
        var store = PushStore()
        _ = store.send(.deviceRegistered(apns(1)), at: monday)
        for n in 1 ... 10 {
            let t = monday + .hours(Int64(n))
            // The JSON of a two-digit badge is one byte longer: 101 bytes, then 102 from badge 10.
            #expect(store.send(dueSoon(UInt64(n), .high), at: t) == [
                .send(PushSendID(UInt32(n)), to: apns(1), payload: dueSoonPayload(UInt64(n), badge: n).withBytes(n < 10 ? 101 : 102),
                      priority: .high, platformPriority: .high, collapseId: nil, expiration: t + .hours(24)),
                .startTimer(.escalate(NotificationID(UInt64(n))), at: t + .minutes(5)),
                .startTimer(.highDelayCheck(NotificationID(UInt64(n))), at: t + .minutes(15) + Interval(microseconds: 1)),
            ])
        }
        let sunday = monday + .days(7) - .seconds(1)
        #expect(store.send(dueSoon(11, .high), at: sunday) == [
            .suppressed(NotificationID(11), .weeklyLimit),
            badgeOnly(11, to: apns(1), badge: 11, bytes: 42, at: sunday),
        ])
        #expect(store.send(dueSoon(12, .blocking), at: sunday) == [
            .send(PushSendID(12), to: apns(1), payload: dueSoonPayload(12, badge: 12, provider: .apns).withBytes(102), priority: .blocking, platformPriority: .high, collapseId: nil, expiration: sunday + .hours(24)),
        ])
        let nextMonday = monday + .days(7)
        #expect(store.send(dueSoon(13, .high), at: nextMonday) == [
            .send(PushSendID(13), to: apns(1), payload: dueSoonPayload(13, badge: 13).withBytes(102), priority: .high, platformPriority: .high, collapseId: nil, expiration: nextMonday + .hours(24)),
            .startTimer(.escalate(NotificationID(13)), at: nextMonday + .minutes(5)),
            .startTimer(.highDelayCheck(NotificationID(13)), at: nextMonday + .minutes(15) + Interval(microseconds: 1)),
        ])
    }
}

extension PushPayload {
    /// The same payload with another size (a two-digit badge adds a byte).
    func withBytes(_ bytes: Int) -> PushPayload { PushPayload(content: content, badge: badge, bytes: bytes) }
}
