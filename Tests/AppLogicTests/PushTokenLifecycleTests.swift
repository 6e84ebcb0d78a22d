import Testing
import AppLogic

/// The token lifecycle's daily maintenance (seed `001`, "Validation Process", "Device Cleanup").
@Suite struct PushTokenLifecycleTests {
    /// Registers an APNs device at `monday` and runs the daily maintenance for `days`
    /// days, answering every send with 200.
    func registered(days: Int) -> PushStore {
        var store = PushStore()
        _ = store.send(.deviceRegistered(apns(1)), at: monday)
        for day in stride(from: 1, through: days, by: 1) {
            for effect in store.send(.timerFired(.daily), at: monday + .days(Int64(day))) {
                if case .send(let id, _, _, _, _, _, _) = effect {
                    _ = store.send(.providerResponse(id, .accepted), at: monday + .days(Int64(day)))
                }
            }
        }
        return store
    }

    func validation(_ id: UInt32, at t: Instant) -> PushEffect {
        // {"aps":{"content-available":1,"badge":0}} is 41 bytes.
        .send(PushSendID(id), to: apns(1), payload: PushPayload(content: .validation, badge: 0, bytes: 41), priority: .low, platformPriority: .normal, collapseId: nil, expiration: t + .days(3))
    }

    @Test func theWeeklyValidationPushGoesOutSevenDaysAfterRegistration() {
        var store = registered(days: 5)
        #expect(store.send(.timerFired(.daily), at: monday + .days(6)) == [.startTimer(.daily, at: monday + .days(7))])
        let day7 = monday + .days(7)
        #expect(store.send(.timerFired(.daily), at: day7) == [validation(1, at: day7), .startTimer(.daily, at: day7 + .days(1))])
    }

    @Test func a410AfterASoftFailureExpiresTheTokenWithoutFurtherRetries() {
        var store = registered(days: 6)
        let day7 = monday + .days(7)
        _ = store.send(.timerFired(.daily), at: day7)
        #expect(store.send(.providerResponse(PushSendID(1), .status(503, retryAfter: nil)), at: day7) == [
            .sendFailed(PushSendID(1), .serverError(503), willRetry: true),
            .startTimer(.retry(PushSendID(1)), at: day7 + .seconds(1)),
        ])
        _ = store.send(.timerFired(.retry(PushSendID(1))), at: day7 + .seconds(1))
        #expect(store.send(.providerResponse(PushSendID(2), .status(410, retryAfter: nil)), at: day7 + .seconds(1)) == [
            .sendFailed(PushSendID(2), .unregistered, willRetry: false),
            .markToken(apns(1), .expired),
        ])
        #expect(store.state.sendsInFlight == 0)
    }

    @Test func softFailuresExpireTheTokenOnlyWhenTheLastRetryFails() {
        var store = registered(days: 6)
        let day7 = monday + .days(7)
        _ = store.send(.timerFired(.daily), at: day7)
        var t = day7
        for (n, wait) in [Interval.seconds(1), .seconds(5), .seconds(25)].enumerated() {
            let id = PushSendID(UInt32(n + 1))
            #expect(store.send(.providerResponse(id, .status(503, retryAfter: nil)), at: t) == [
                .sendFailed(id, .serverError(503), willRetry: true),
                .startTimer(.retry(id), at: t + wait),
            ])
            t = t + wait
            _ = store.send(.timerFired(.retry(id)), at: t)
        }
        #expect(store.state.devices.map(\.status) == [.active])
        #expect(store.send(.providerResponse(PushSendID(4), .timedOut), at: t + .seconds(30)) == [
            .sendFailed(PushSendID(4), .timedOut, willRetry: false),
            .markToken(apns(1), .expired),
        ])
    }

    @Test func aDeviceUnusedFor90DaysBecomesInactiveAndUseReactivatesIt() {
        var store = registered(days: 88)
        let day89 = monday + .days(89)
        #expect(store.send(.timerFired(.daily), at: day89) == [.startTimer(.daily, at: day89 + .days(1))])
        let day90 = monday + .days(90)
        #expect(store.send(.timerFired(.daily), at: day90) == [.markToken(apns(1), .inactive), .startTimer(.daily, at: day90 + .days(1))])
        #expect(store.send(dueSoon(1, .blocking), at: day90) == [.suppressed(NotificationID(1), .noActiveDevice)])
        #expect(store.send(.userActivity(PushDeviceID(1)), at: day90 + .hours(1)) == [.markToken(apns(1), .active)])
    }

    /// Seed `001`: "Devices with expired tokens purged after 180 days", "User notified via
    /// email before purging": day 179 does nothing; day 180 emails, then purges.
    @Test func anExpiredDeviceIsPurged180DaysLaterAfterAnEmail() {
        var store = PushStore()
        _ = store.send(.deviceRegistered(apns(1)), at: monday)
        _ = store.send(dueSoon(1, .normal), at: monday)
        _ = store.send(.providerResponse(PushSendID(1), .status(410, retryAfter: nil)), at: monday)
        // Move the maintenance along without sends: the only device is expired.
        for day in 1 ..< 179 { _ = store.send(.timerFired(.daily), at: monday + .days(Int64(day))) }
        let day180 = monday + .days(180)
        #expect(store.send(.timerFired(.daily), at: monday + .days(179)) == [.startTimer(.daily, at: day180)])
        #expect(store.state.devices.count == 1)
        #expect(store.send(.timerFired(.daily), at: day180) == [.emailPurgeNotice(PushDeviceID(1)), .purgeDevice(PushDeviceID(1))])
        #expect(store.state.devices.isEmpty)
    }

    /// A count that rose while the only device was expired (no push could carry it) is
    /// synced at the next daily run after the device re-registers.
    @Test func theDailyBadgeSyncGoesOutWhenTheCountDriftedFromTheLastBadgePushed() {
        var store = PushStore()
        _ = store.send(.deviceRegistered(apns(1)), at: monday)
        _ = store.send(dueSoon(1, .normal), at: monday + .hours(1))
        _ = store.send(.providerResponse(PushSendID(1), .status(410, retryAfter: nil)), at: monday + .hours(1))
        #expect(store.send(dueSoon(2, .normal), at: monday + .hours(2)) == [.suppressed(NotificationID(2), .noActiveDevice)])
        _ = store.send(.deviceRegistered(apns(1, generation: 2)), at: monday + .hours(4))
        let day1 = monday + .days(1)
        #expect(store.send(.timerFired(.daily), at: day1) == [
            badgeOnly(2, to: apns(1, generation: 2), badge: 2, bytes: 41, at: day1),
            .startTimer(.daily, at: day1 + .days(1)),
        ])
    }
}
