import Testing
import AppLogic

/// The known-bug variants of the routing and the registry (docs/scenario.md, "Variants"):
/// each changes the one decision it names, at its boundary.
@Suite struct PushRoutingVariantTests {
    @Test func ignoresOptOutPushesATurnedOffCategory() {
        var store = PushStore(variants: .ignoresOptOut, optedOut: PushCategories(.assignments))
        _ = store.send(.deviceRegistered(apns(1)), at: monday)
        let t = monday + .hours(1)
        #expect(store.send(dueSoon(1, .normal), at: t) == [
            .send(PushSendID(1), to: apns(1), payload: dueSoonPayload(1, badge: 1), priority: .normal, platformPriority: .normal, collapseId: nil, expiration: t + .days(7)),
        ])
    }

    /// With the window read as 5 s, a normal push 5 s after an open is skipped and one
    /// 5 s + 1 µs after is sent (the correct window skips both).
    @Test(arguments: [(Interval.seconds(5), false), (Interval(microseconds: 5_000_001), true)])
    func activityWindowSecondsSkipsOnlyFiveSeconds(age: Interval, pushed: Bool) {
        var store = PushStore(variants: .activityWindowSeconds)
        _ = store.send(.deviceRegistered(apns(1)), at: monday)
        _ = store.send(.userActivity(PushDeviceID(1)), at: monday + .hours(1))
        let t = monday + .hours(1) + age
        #expect(store.send(dueSoon(3, .normal), at: t).first == (pushed
            ? .send(PushSendID(1), to: apns(1), payload: dueSoonPayload(3, badge: 1), priority: .normal, platformPriority: .normal, collapseId: nil, expiration: t + .days(7))
            : .suppressed(NotificationID(3), .activeInApp)))
    }

    @Test func silentHighPriorityAsksForTheHighProviderPriorityForABadgePush() {
        var store = PushStore(variants: .silentHighPriority)
        _ = store.send(.deviceRegistered(apns(1)), at: monday)
        let t = monday + .hours(1)
        #expect(store.send(dueSoon(1, .low), at: t) == [
            .suppressed(NotificationID(1), .lowPriority),
            .send(PushSendID(1), to: apns(1), payload: PushPayload(content: .badgeOnly, badge: 1, bytes: 41), priority: .low,
                  platformPriority: .high, collapseId: "badge", expiration: t + .days(3)),
        ])
    }

    @Test func ignoresTokenRefreshKeepsTheOldToken() {
        var store = PushStore(variants: .ignoresTokenRefresh)
        _ = store.send(.deviceRegistered(fcm(1)), at: monday)
        #expect(store.send(.tokenRotated(fcm(1, generation: 2)), at: monday + .days(3)) == [])
        #expect(store.state.devices[0].token == fcm(1))
    }

    /// The last retry of a normal push fails with a 503: the token expires with the variant,
    /// and the user is emailed; without the email with `noEmailOnFailure`.
    @Test(arguments: [(PushVariants.expireOnServerError, true, true), (.noEmailOnFailure, false, false)])
    func aSendThatFailsEveryRetry(_ variant: PushVariants, expires: Bool, emails: Bool) {
        var store = PushStore(variants: variant)
        _ = store.send(.deviceRegistered(apns(1)), at: monday)
        var t = monday + .hours(1)
        _ = store.send(dueSoon(1, .normal), at: t)
        for n in 1 ... 3 {
            _ = store.send(.providerResponse(PushSendID(UInt32(n)), .status(503, retryAfter: nil)), at: t)
            t = t + .seconds(30)
            _ = store.send(.timerFired(.retry(PushSendID(UInt32(n)))), at: t)
        }
        var expected: [PushEffect] = [.sendFailed(PushSendID(4), .serverError(503), willRetry: false)]
        if expires { expected.append(.markToken(apns(1), .expired)) }
        if emails { expected.append(.sendEmail(NotificationID(1), reason: .allDevicesFailed)) }
        #expect(store.send(.providerResponse(PushSendID(4), .status(503, retryAfter: nil)), at: t) == expected)
    }

    @Test func purgeWithoutNoticePurgesWithoutTheEmail() {
        var store = PushStore(variants: .purgeWithoutNotice)
        _ = store.send(.deviceRegistered(apns(1)), at: monday)
        _ = store.send(dueSoon(1, .normal), at: monday)
        _ = store.send(.providerResponse(PushSendID(1), .status(410, retryAfter: nil)), at: monday)
        var effects: [PushEffect] = []
        for day in 1 ... 180 { effects = store.send(.timerFired(.daily), at: monday + .days(Int64(day))) }
        #expect(effects == [.purgeDevice(PushDeviceID(1))])
    }

    /// With the 90-day interval, the daily run at day 7 sends no validation push.
    @Test func validationUsesInactiveAfterSendsNoWeeklyValidation() {
        var store = PushStore(variants: .validationUsesInactiveAfter)
        _ = store.send(.deviceRegistered(apns(1)), at: monday)
        for day in 1 ... 6 { _ = store.send(.timerFired(.daily), at: monday + .days(Int64(day))) }
        #expect(store.send(.timerFired(.daily), at: monday + .days(7)) == [.startTimer(.daily, at: monday + .days(8))])
    }
}
