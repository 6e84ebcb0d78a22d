import Testing
import AppLogic

/// Retries, token expiry, fallbacks and composition limits (seed `001`, "Retry Logic",
/// "Fallback Mechanism", "Validation Process", "Content Truncation"; docs/platform-facts.md G, H).
@Suite struct PushDeliveryTests {
    /// One APNs device registered at `monday`, one normal notification sent at `t0`.
    func sentNormal(variants: PushVariants = []) -> (PushStore, Instant) {
        var store = PushStore(variants: variants)
        _ = store.send(.deviceRegistered(apns(1)), at: monday)
        let t0 = monday + .hours(1)
        _ = store.send(dueSoon(1, .normal), at: t0)
        return (store, t0)
    }

    func resend(_ id: UInt32, expiration: Instant) -> PushEffect {
        .send(PushSendID(id), to: apns(1), payload: dueSoonPayload(1, badge: 1), priority: .normal, platformPriority: .normal, collapseId: nil, expiration: expiration)
    }

    @Test func serverErrorsAreRetriedAfter1And5And25SecondsThenTheLastFailureFallsBackToEmail() {
        var (store, t0) = sentNormal()
        let exp = t0 + .days(7)
        var t = t0 + Interval(microseconds: 100_000)
        for (n, wait) in [Interval.seconds(1), .seconds(5), .seconds(25)].enumerated() {
            #expect(store.send(.providerResponse(PushSendID(UInt32(n + 1)), .status(503, retryAfter: nil)), at: t) == [
                .sendFailed(PushSendID(UInt32(n + 1)), .serverError(503), willRetry: true),
                .startTimer(.retry(PushSendID(UInt32(n + 1))), at: t + wait),
            ])
            t = t + wait
            #expect(store.send(.timerFired(.retry(PushSendID(UInt32(n + 1)))), at: t) == [resend(UInt32(n + 2), expiration: exp)])
        }
        #expect(store.send(.providerResponse(PushSendID(4), .status(500, retryAfter: nil)), at: t) == [
            .sendFailed(PushSendID(4), .serverError(500), willRetry: false),
            .sendEmail(NotificationID(1), reason: .allDevicesFailed),
        ])
        #expect(store.state.sendsInFlight == 0 && store.state.notificationsInFlight == 0)
    }

    @Test func aTimeoutIsRetryable() {
        var (store, t0) = sentNormal()
        #expect(store.send(.providerResponse(PushSendID(1), .timedOut), at: t0 + .seconds(30)) == [
            .sendFailed(PushSendID(1), .timedOut, willRetry: true),
            .startTimer(.retry(PushSendID(1)), at: t0 + .seconds(31)),
        ])
    }

    @Test func aRetryAfterLongerThanTheScheduleIsHonoured() {
        var (store, t0) = sentNormal()
        #expect(store.send(.providerResponse(PushSendID(1), .status(503, retryAfter: .seconds(10))), at: t0) == [
            .sendFailed(PushSendID(1), .serverError(503), willRetry: true),
            .startTimer(.retry(PushSendID(1)), at: t0 + .seconds(10)),
        ])
    }

    /// docs/platform-facts.md H: QUOTA_EXCEEDED, "first delay at least 1 min"; the backoff doubles
    /// (2 min at the second retry) and a shorter `Retry-After` never cuts it.
    @Test func tooManyRequestsWaitsOneMinuteThenTwoEvenWithAShorterRetryAfter() {
        var (store, t0) = sentNormal()
        #expect(store.send(.providerResponse(PushSendID(1), .status(429, retryAfter: nil)), at: t0) == [
            .sendFailed(PushSendID(1), .rateLimited, willRetry: true),
            .startTimer(.retry(PushSendID(1)), at: t0 + .minutes(1)),
        ])
        _ = store.send(.timerFired(.retry(PushSendID(1))), at: t0 + .minutes(1))
        #expect(store.send(.providerResponse(PushSendID(2), .status(429, retryAfter: .seconds(7))), at: t0 + .minutes(1)) == [
            .sendFailed(PushSendID(2), .rateLimited, willRetry: true),
            .startTimer(.retry(PushSendID(2)), at: t0 + .minutes(3)),
        ])
    }

    @Test(arguments: [(Int64(59), Int64(60)), (60, 60), (61, 61)])
    func aFirst429WaitsTheLongerOfOneMinuteAndRetryAfter(retryAfterSeconds: Int64, waitSeconds: Int64) {
        var (store, t0) = sentNormal()
        #expect(store.send(.providerResponse(PushSendID(1), .status(429, retryAfter: .seconds(retryAfterSeconds))), at: t0) == [
            .sendFailed(PushSendID(1), .rateLimited, willRetry: true),
            .startTimer(.retry(PushSendID(1)), at: t0 + .seconds(waitSeconds)),
        ])
    }

    /// The normal TTL is 7 days: a retry due exactly at the expiration is not made.
    @Test func aRetryDueAtTheExpirationIsNotMadeButOneMicrosecondEarlierIs() {
        var (store, t0) = sentNormal()
        let exp = t0 + .days(7)
        let at = t0 + .seconds(2)
        let justInTime = Interval(microseconds: (exp - at).microseconds - 1)
        #expect(store.send(.providerResponse(PushSendID(1), .status(429, retryAfter: justInTime)), at: at) == [
            .sendFailed(PushSendID(1), .rateLimited, willRetry: true),
            .startTimer(.retry(PushSendID(1)), at: exp - Interval(microseconds: 1)),
        ])
        var (late, t1) = sentNormal()
        let lateAt = t1 + .seconds(2)
        #expect(late.send(.providerResponse(PushSendID(1), .status(429, retryAfter: t1 + .days(7) - lateAt)), at: lateAt) == [
            .sendFailed(PushSendID(1), .rateLimited, willRetry: false),
            .sendEmail(NotificationID(1), reason: .allDevicesFailed),
        ])
    }

    @Test(arguments: [400, 403, 405, 413])
    func clientErrorsAreNeverRetried(status: Int) {
        var (store, t0) = sentNormal()
        #expect(store.send(.providerResponse(PushSendID(1), .status(status, retryAfter: nil)), at: t0) == [
            .sendFailed(PushSendID(1), .clientError(status), willRetry: false),
            .sendEmail(NotificationID(1), reason: .allDevicesFailed),
        ])
    }

    /// Seed `001`: "Invalid token | 400/404 | Mark device expired": a 400 whose reason
    /// names the token (APNs BadDeviceToken, docs/platform-facts.md G) expires it; other 400s do not.
    @Test func aBadDeviceToken400ExpiresTheToken() {
        var (store, t0) = sentNormal()
        #expect(store.send(.providerResponse(PushSendID(1), .invalidToken(400)), at: t0) == [
            .sendFailed(PushSendID(1), .unregistered, willRetry: false),
            .markToken(apns(1), .expired),
            .sendEmail(NotificationID(1), reason: .allDevicesFailed),
        ])
        #expect(store.send(dueSoon(2, .high), at: t0 + .hours(1)) == [.suppressed(NotificationID(2), .noActiveDevice)])
    }

    @Test func theRetryOn4xxVariantRetriesAClientError() {
        var (store, t0) = sentNormal(variants: .retryOn4xx)
        #expect(store.send(.providerResponse(PushSendID(1), .status(400, retryAfter: nil)), at: t0) == [
            .sendFailed(PushSendID(1), .clientError(400), willRetry: true),
            .startTimer(.retry(PushSendID(1)), at: t0 + .seconds(1)),
        ])
    }

    @Test(arguments: [410, 404])
    func unregisteredExpiresTheTokenAndLaterPushesSkipIt(status: Int) {
        var (store, t0) = sentNormal()
        #expect(store.send(.providerResponse(PushSendID(1), .status(status, retryAfter: nil)), at: t0) == [
            .sendFailed(PushSendID(1), .unregistered, willRetry: false),
            .markToken(apns(1), .expired),
            .sendEmail(NotificationID(1), reason: .allDevicesFailed),
        ])
        #expect(store.send(dueSoon(2, .high), at: t0 + .hours(1)) == [.suppressed(NotificationID(2), .noActiveDevice)])
    }

    @Test func theIgnore410VariantKeepsSendingToTheDeadToken() {
        var (store, t0) = sentNormal(variants: .ignore410)
        #expect(store.send(.providerResponse(PushSendID(1), .status(410, retryAfter: nil)), at: t0) == [
            .sendFailed(PushSendID(1), .unregistered, willRetry: false),
            .sendEmail(NotificationID(1), reason: .allDevicesFailed),
        ])
        let t = t0 + .hours(1)
        #expect(store.send(dueSoon(2, .normal), at: t) == [
            .send(PushSendID(2), to: apns(1), payload: dueSoonPayload(2, badge: 2), priority: .normal, platformPriority: .normal, collapseId: nil, expiration: t + .days(7)),
        ])
    }

    /// High priority to an FCM phone: no receipt at 5 min goes to every device; none at 15 min goes to email.
    @Test func highWithoutReceiptEscalatesAtFiveMinutesAndFallsBackToEmailAtFifteen() {
        var store = PushStore()
        _ = store.send(.deviceRegistered(apns(2)), at: monday)
        _ = store.send(.deviceRegistered(fcm(1)), at: monday + .seconds(1))
        let t0 = monday + .hours(1)
        _ = store.send(dueSoon(1, .high), at: t0)
        #expect(store.send(.providerResponse(PushSendID(1), .accepted), at: t0 + Interval(microseconds: 80_000)) == [])
        #expect(store.send(.timerFired(.escalate(NotificationID(1))), at: t0 + .minutes(5)) == [
            .send(PushSendID(2), to: apns(2), payload: dueSoonPayload(1, badge: 1), priority: .high, platformPriority: .high, collapseId: nil, expiration: t0 + .hours(24)),
        ])
        // APNs accepting counts as delivered: the 15 min check sends no email.
        #expect(store.send(.providerResponse(PushSendID(2), .accepted), at: t0 + .minutes(5)) == [])
        #expect(store.send(.timerFired(.highDelayCheck(NotificationID(1))), at: t0 + .minutes(15) + Interval(microseconds: 1)) == [])
        #expect(store.state.notificationsInFlight == 0)
    }

    /// Seed `001`: email when "delayed >15 minutes": a receipt at exactly 15:00 is in
    /// time; the check runs one microsecond later.
    @Test func highDeliveredAt15m00sSendsNoEmailButUndeliveredJustAfterDoes() {
        func sent() -> (PushStore, Instant) {
            var store = PushStore()
            _ = store.send(.deviceRegistered(fcm(1)), at: monday)
            let t0 = monday + .hours(1)
            #expect(store.send(dueSoon(1, .high), at: t0) == [
                .send(PushSendID(1), to: fcm(1), payload: dueSoonPayload(1, badge: 1, provider: .fcm), priority: .high, platformPriority: .high, collapseId: nil, expiration: t0 + .hours(24)),
                .startTimer(.escalate(NotificationID(1)), at: t0 + .minutes(5)),
                .startTimer(.highDelayCheck(NotificationID(1)), at: t0 + .minutes(15) + Interval(microseconds: 1)),
            ])
            _ = store.send(.providerResponse(PushSendID(1), .accepted), at: t0 + Interval(microseconds: 80_000))
            // The only device was tried first: escalation has no one else to send to.
            #expect(store.send(.timerFired(.escalate(NotificationID(1))), at: t0 + .minutes(5)) == [])
            return (store, t0)
        }
        var (delivered, t0) = sent()
        #expect(delivered.send(.deliveryReceipt(NotificationID(1), PushDeviceID(1)), at: t0 + .minutes(15)) == [])
        #expect(delivered.send(.timerFired(.highDelayCheck(NotificationID(1))), at: t0 + .minutes(15) + Interval(microseconds: 1)) == [])
        var (late, t1) = sent()
        #expect(late.send(.timerFired(.highDelayCheck(NotificationID(1))), at: t1 + .minutes(15) + Interval(microseconds: 1)) == [
            .sendEmail(NotificationID(1), reason: .highPriorityDelayed),
        ])
        #expect(late.state.notificationsInFlight == 0)
    }

    @Test func highWhoseFirstDeviceFailsTriesTheOthersAtOnce() {
        var store = PushStore()
        _ = store.send(.deviceRegistered(apns(1)), at: monday)
        _ = store.send(.deviceRegistered(apns(2)), at: monday)
        let t0 = monday + .hours(1)
        _ = store.send(dueSoon(1, .high), at: t0)
        #expect(store.send(.providerResponse(PushSendID(1), .status(400, retryAfter: nil)), at: t0) == [
            .sendFailed(PushSendID(1), .clientError(400), willRetry: false),
            .send(PushSendID(2), to: apns(2), payload: dueSoonPayload(1, badge: 1), priority: .high, platformPriority: .high, collapseId: nil, expiration: t0 + .hours(24)),
        ])
        #expect(store.send(.providerResponse(PushSendID(2), .status(400, retryAfter: nil)), at: t0) == [
            .sendFailed(PushSendID(2), .clientError(400), willRetry: false),
            .sendEmail(NotificationID(1), reason: .allDevicesFailed),
        ])
    }

    @Test func rotationRevokesTheOldToken() {
        var store = PushStore()
        _ = store.send(.deviceRegistered(fcm(1)), at: monday)
        #expect(store.send(.tokenRotated(fcm(1, generation: 2)), at: monday + .days(3)) == [
            .markToken(fcm(1), .revoked),
            .markToken(fcm(1, generation: 2), .active),
        ])
        let t = monday + .days(3) + .hours(1)
        #expect(store.send(dueSoon(1, .normal), at: t) == [
            .send(PushSendID(1), to: fcm(1, generation: 2), payload: dueSoonPayload(1, badge: 1, provider: .fcm), priority: .normal, platformPriority: .normal, collapseId: nil, expiration: t + .days(7)),
        ])
    }

    @Test(arguments: [(65, "t"), (66, "t")])
    func titlesAreTruncatedTo65Characters(length: Int, letter: String) {
        let title = String(repeating: letter, count: length)
        let out = PushComposer.truncate(title, to: 65)
        #expect(out == (length == 65 ? title : String(repeating: letter, count: 62) + "..."))
        #expect(out.count == 65)
    }

    /// Characters, not bytes: 65 two-byte "é" (130 bytes) and 65 flags (8 bytes each)
    /// are kept whole; a 66th of either is cut.
    @Test(arguments: ["é", "🇫🇷"], [65, 66])
    func titlesOfWideCharactersAreTruncatedByCharacters(letter: String, length: Int) {
        let title = String(repeating: letter, count: length)
        let out = PushComposer.truncate(title, to: 65)
        #expect(out == (length == 65 ? title : String(repeating: letter, count: 62) + "..."))
        #expect(out.count == 65)
    }

    /// The default thread id is the category's name, as Swift prints the case.
    @Test func aCategorysNameIsItsCase() {
        for category in PushCategory.allCases { #expect(category.name == "\(category)") }
    }

    /// A 240-character body's APNs payload is 324 bytes (counted from its JSON text), and
    /// `,"data":` adds 8: data of 3764 bytes makes exactly 4096, which is sent as is; one
    /// byte more shortens the body to 239 characters.
    @Test(arguments: [(3764, 240), (3765, 239)])
    func theFourKilobyteLimitShortensTheBodyByTheBytesOver(dataBytes: Int, bodyCharacters: Int) {
        let body = String(repeating: "a", count: 240)
        let request = PushNotificationRequest(id: NotificationID(1), category: .assignments, priority: .normal, title: "Due soon", body: body, dataBytes: dataBytes)
        let payload = PushComposer(config: PushConfiguration()).compose(request, badge: 1, provider: .apns)
        let expectedBody = bodyCharacters == 240 ? body : String(repeating: "a", count: 236) + "..."
        #expect(payload == PushPayload(content: .alert(NotificationID(1), title: "Due soon", body: expectedBody, threadId: "assignments"), badge: 1, bytes: 4096))
    }

    /// Two-byte characters: with 3600 bytes of data, 404 bytes are left for the body
    /// (4096 - 84 - 8 - 3600), so 200 "é" and "..." (403 bytes) fit and 201 (405) do not.
    @Test func aBodyOfTwoByteCharactersIsShortenedToTheLongestThatFits() {
        let body = String(repeating: "é", count: 240)
        let request = PushNotificationRequest(id: NotificationID(1), category: .assignments, priority: .normal, title: "Due soon", body: body, dataBytes: 3600)
        let payload = PushComposer(config: PushConfiguration()).compose(request, badge: 1, provider: .apns)
        let expectedBody = String(repeating: "é", count: 200) + "..."
        #expect(payload == PushPayload(content: .alert(NotificationID(1), title: "Due soon", body: expectedBody, threadId: "assignments"), badge: 1, bytes: 4095))
    }

    /// Below 4 characters a cut has no "...": with 4002 bytes of data, 2 bytes are left,
    /// so "a..." (4) and "aaa" (3) do not fit and "aa" does, making exactly 4096.
    @Test func aBodyCutBelowFourCharactersHasNoEllipsis() {
        let request = PushNotificationRequest(id: NotificationID(1), category: .assignments, priority: .normal, title: "Due soon",
                                              body: String(repeating: "a", count: 240), dataBytes: 4002)
        let payload = PushComposer(config: PushConfiguration()).compose(request, badge: 1, provider: .apns)
        #expect(payload == PushPayload(content: .alert(NotificationID(1), title: "Due soon", body: "aa", threadId: "assignments"), badge: 1, bytes: 4096))
    }

    @Test func aPayloadThatCannotFitIsNotPushed() {
        var store = PushStore()
        _ = store.send(.deviceRegistered(apns(1)), at: monday)
        let request = PushNotificationRequest(id: NotificationID(1), category: .assignments, priority: .normal, title: "Due soon", body: "x", dataBytes: 4096)
        let t = monday + .hours(1)
        #expect(store.send(.notificationCreated(request), at: t) == [
            .suppressed(NotificationID(1), .payloadTooLarge),
            badgeOnly(1, to: apns(1), badge: 1, bytes: 41, at: t),
        ])
    }
}
