import Testing
import SimKernel
@testable import Backend

/// The APNs and FCM gateway models at their documented edges (docs/platform-facts.md G and H).
@Suite struct PushGatewayTests {
    var rng = RandomStream(seed: 1, entity: 0, purpose: "push-gateway-test")
    let token = GatewayToken(device: 0, generation: 1)
    let t0 = SimTime(microseconds: 1_000_000_000)

    func apns() -> APNsGatewayModel {
        var g = APNsGatewayModel(deviceCount: 1)
        g.tokenIssued(device: 0, generation: 1)
        return g
    }

    func fcm() -> FCMGatewayModel {
        var g = FCMGatewayModel(deviceCount: 1)
        g.tokenIssued(device: 0, generation: 1)
        return g
    }

    func status(_ answer: GatewayAnswer) -> Int {
        switch answer {
        case .accepted: return 200
        case .rejected(let status, _, _, _): return status
        case .unanswered: return 0
        }
    }

    func apnsRequest(_ message: UInt64, bytes: Int = 100, priority: Int = 10, expiration: SimTime? = nil, collapseId: String? = nil) -> APNsGatewayModel.Request {
        .init(token: token, message: message, priority: priority, expiration: expiration ?? t0 + .days(1), collapseId: collapseId, payloadBytes: bytes)
    }

    func fcmRequest(_ message: UInt64, bytes: Int = 100, high: Bool = false, ttl: SimDuration = .days(1), collapseKey: String? = nil) -> FCMGatewayModel.Request {
        .init(token: token, message: message, highPriority: high, ttl: ttl, collapseKey: collapseKey, payloadBytes: bytes)
    }

    @Test mutating func apnsTakes4096BytesAndRejects4097With413() {
        var g = apns()
        #expect(status(g.send(apnsRequest(1, bytes: 4096), deviceOnline: true, now: t0, rng: &rng).0) == 200)
        guard case .rejected(413, "PayloadTooLarge", nil, _) = g.send(apnsRequest(2, bytes: 4097), deviceOnline: true, now: t0, rng: &rng).0 else {
            Issue.record("4097 bytes were not rejected with 413"); return
        }
    }

    @Test mutating func apnsAnswers410ForARotatedTokenAnd400ForAnUnknownOne() {
        var g = apns()
        g.tokenIssued(device: 0, generation: 2)
        #expect(status(g.send(apnsRequest(1), deviceOnline: true, now: t0, rng: &rng).0) == 410)
        let unknown = APNsGatewayModel.Request(token: GatewayToken(device: 0, generation: 3), message: 2, priority: 10, expiration: t0 + .days(1), collapseId: nil, payloadBytes: 10)
        #expect(status(g.send(unknown, deviceOnline: true, now: t0, rng: &rng).0) == 400)
    }

    /// Seed `001`: "Unregistered | 410 | Device uninstalled app". After the app is removed
    /// its token gets 410, not 400; a generation never issued still gets 400; a reinstall's
    /// new token is accepted and the removed one stays 410. The stored notification is dropped.
    @Test mutating func apnsAnswers410ForTheTokenOfAnUninstalledApp() {
        var g = apns()
        #expect(status(g.send(apnsRequest(1), deviceOnline: false, now: t0, rng: &rng).0) == 200)
        g.appRemoved(device: 0)
        guard case .rejected(410, "Unregistered", nil, _) = g.send(apnsRequest(2), deviceOnline: true, now: t0, rng: &rng).0 else {
            Issue.record("the removed app's token was not answered 410"); return
        }
        let never = APNsGatewayModel.Request(token: GatewayToken(device: 0, generation: 2), message: 3, priority: 10, expiration: t0 + .days(1), collapseId: nil, payloadBytes: 10)
        #expect(status(g.send(never, deviceOnline: true, now: t0, rng: &rng).0) == 400)
        #expect(g.deviceCameOnline(0, now: t0 + .seconds(1)) == nil)
        g.tokenIssued(device: 0, generation: 2)
        #expect(status(g.send(never, deviceOnline: true, now: t0, rng: &rng).0) == 200)
        #expect(status(g.send(apnsRequest(4), deviceOnline: true, now: t0, rng: &rng).0) == 410)
    }

    @Test mutating func apnsCollapseIdOf64BytesIsAcceptedAnd65Rejected() {
        var g = apns()
        #expect(status(g.send(apnsRequest(1, collapseId: String(repeating: "c", count: 64)), deviceOnline: true, now: t0, rng: &rng).0) == 200)
        #expect(status(g.send(apnsRequest(2, collapseId: String(repeating: "c", count: 65)), deviceOnline: true, now: t0, rng: &rng).0) == 400)
    }

    @Test mutating func apnsStoresOnlyTheLatestNotificationWhileOffline() {
        var g = apns()
        _ = g.send(apnsRequest(1), deviceOnline: false, now: t0, rng: &rng)
        _ = g.send(apnsRequest(2), deviceOnline: false, now: t0 + .seconds(1), rng: &rng)
        #expect(g.deviceCameOnline(0, now: t0 + .hours(1)) == GatewayDelivery(message: 2, device: 0, at: t0 + .hours(1)))
        #expect(g.deviceCameOnline(0, now: t0 + .hours(2)) == nil)
    }

    @Test mutating func apnsDeliversAStoredNotificationUntilItsExpirationAndNotAtIt() {
        let expiration = t0 + .hours(24)
        var before = apns()
        _ = before.send(apnsRequest(1, expiration: expiration), deviceOnline: false, now: t0, rng: &rng)
        #expect(before.deviceCameOnline(0, now: expiration - .microseconds(1)) == GatewayDelivery(message: 1, device: 0, at: expiration - .microseconds(1)))
        var at = apns()
        _ = at.send(apnsRequest(1, expiration: expiration), deviceOnline: false, now: t0, rng: &rng)
        #expect(at.deviceCameOnline(0, now: expiration) == nil)
    }

    @Test mutating func apnsExpirationZeroIsOneAttemptWithoutStorage() {
        var g = apns()
        #expect(status(g.send(apnsRequest(1, expiration: t0), deviceOnline: false, now: t0, rng: &rng).0) == 200)
        #expect(g.deviceCameOnline(0, now: t0 + .seconds(1)) == nil)
    }

    @Test mutating func anOutageAnswersNothingAndAnErrorRateOfOneAnswersItsStatus() {
        var g = apns()
        g.faults.outageStarts()
        #expect(g.send(apnsRequest(1), deviceOnline: true, now: t0, rng: &rng).0 == .unanswered)
        g.faults.outageEnds()
        g.faults.errorsStart(.init(status: 503, rate: 1))
        guard case .rejected(503, "ServiceUnavailable", _, _) = g.send(apnsRequest(2), deviceOnline: true, now: t0, rng: &rng).0 else {
            Issue.record("rate 1 did not answer 503"); return
        }
    }

    @Test mutating func fcmTakes4096BytesAndRejects4097() {
        var g = fcm()
        #expect(status(g.send(fcmRequest(1, bytes: 4096), reach: .active, now: t0, rng: &rng).0) == 200)
        #expect(status(g.send(fcmRequest(2, bytes: 4097), reach: .active, now: t0, rng: &rng).0) == 400)
    }

    @Test mutating func fcmAnswers404ForARotatedToken() {
        var g = fcm()
        g.tokenIssued(device: 0, generation: 2)
        guard case .rejected(404, "UNREGISTERED", _, _) = g.send(fcmRequest(1), reach: .active, now: t0, rng: &rng).0 else {
            Issue.record("a rotated token was not answered 404"); return
        }
    }

    /// docs/platform-facts.md H: 404 UNREGISTERED for an uninstalled app's token; 400 only for a
    /// generation never issued; a reinstall's token is accepted, the removed one stays 404.
    @Test mutating func fcmAnswers404ForTheTokenOfAnUninstalledApp() {
        var g = fcm()
        #expect(status(g.send(fcmRequest(1), reach: .offline, now: t0, rng: &rng).0) == 200)
        g.appRemoved(device: 0)
        guard case .rejected(404, "UNREGISTERED", nil, _) = g.send(fcmRequest(2), reach: .active, now: t0, rng: &rng).0 else {
            Issue.record("the removed app's token was not answered 404"); return
        }
        let never = FCMGatewayModel.Request(token: GatewayToken(device: 0, generation: 2), message: 3, highPriority: false, ttl: .days(1), collapseKey: nil, payloadBytes: 10)
        #expect(status(g.send(never, reach: .active, now: t0, rng: &rng).0) == 400)
        #expect(g.deviceReachable(0, now: t0 + .seconds(1)) == FCMGatewayModel.Flush(deliveries: [], deletedMessages: false))
        g.tokenIssued(device: 0, generation: 2)
        #expect(status(g.send(never, reach: .active, now: t0, rng: &rng).0) == 200)
        #expect(status(g.send(fcmRequest(4), reach: .active, now: t0, rng: &rng).0) == 404)
    }

    @Test mutating func fcmHighReachesAnIdleDeviceButNormalWaitsForItToWake() {
        var g = fcm()
        let (_, high) = g.send(fcmRequest(1, high: true), reach: .idle, now: t0, rng: &rng)
        #expect(high?.message == 1)
        let (_, normal) = g.send(fcmRequest(2), reach: .idle, now: t0, rng: &rng)
        #expect(normal == nil)
        #expect(g.deviceReachable(0, now: t0 + .minutes(30)) == .init(deliveries: [GatewayDelivery(message: 2, device: 0, at: t0 + .minutes(30))], deletedMessages: false))
    }

    @Test(arguments: [(100, 100, false), (101, 0, true)])
    mutating func fcmKeeps100NonCollapsibleMessagesAndThe101stDiscardsThemAll(sent: Int, delivered: Int, deleted: Bool) {
        var g = fcm()
        for m in 1 ... sent {
            // 240 a minute per device: one message every 15 s stays within every rate.
            _ = g.send(fcmRequest(UInt64(m)), reach: .offline, now: t0 + .seconds(Int64(m) * 15), rng: &rng)
        }
        let flush = g.deviceReachable(0, now: t0 + .days(1) - .seconds(1))
        #expect(flush.deliveries.count == delivered)
        #expect(flush.deletedMessages == deleted)
    }

    @Test mutating func fcmKeepsFourCollapseKeysAndAFifthEvictsTheOldest() {
        var g = fcm()
        for (m, key) in ["a", "b", "c", "d", "a", "e"].enumerated() {
            _ = g.send(fcmRequest(UInt64(m + 1), collapseKey: key), reach: .offline, now: t0 + .seconds(Int64(m)), rng: &rng)
        }
        // "a" (message 5) replaced message 1; "e" evicted the oldest key, "b".
        #expect(g.deviceReachable(0, now: t0 + .hours(1)).deliveries.map(\.message) == [3, 4, 5, 6])
    }

    /// With an instant answer the TTL runs from the send: delivered 1 µs before it, dropped at it.
    @Test mutating func fcmDeliversAStoredMessageUntilItsTTLAndNotAtIt() {
        var g = fcm()
        g.config.answerLatency = .constant(0)
        var late = g
        _ = g.send(fcmRequest(1, ttl: .hours(1)), reach: .offline, now: t0, rng: &rng)
        #expect(g.deviceReachable(0, now: t0 + .hours(1) - .microseconds(1)).deliveries.map(\.message) == [1])
        _ = late.send(fcmRequest(1, ttl: .hours(1)), reach: .offline, now: t0, rng: &rng)
        #expect(late.deviceReachable(0, now: t0 + .hours(1)).deliveries.isEmpty)
    }

    @Test mutating func fcmRejectsATTLOver28Days() {
        var g = fcm()
        #expect(status(g.send(fcmRequest(1, ttl: .seconds(2_419_200)), reach: .active, now: t0, rng: &rng).0) == 200)
        #expect(status(g.send(fcmRequest(2, ttl: .seconds(2_419_201)), reach: .active, now: t0, rng: &rng).0) == 400)
    }

    @Test mutating func fcmTakes240MessagesAMinuteAndAnswersThe241stWith429() {
        var g = fcm()
        for m in 1 ... 240 {
            #expect(status(g.send(fcmRequest(UInt64(m)), reach: .active, now: t0 + .milliseconds(Int64(m)), rng: &rng).0) == 200)
        }
        #expect(status(g.send(fcmRequest(241), reach: .active, now: t0 + .seconds(59), rng: &rng).0) == 429)
        #expect(status(g.send(fcmRequest(242), reach: .active, now: t0 + .minutes(1) + .milliseconds(1), rng: &rng).0) == 200)
    }

    @Test mutating func fcmCollapsibleBurstIs20ThenOneEvery3Minutes() {
        var g = fcm()
        for m in 1 ... 20 {
            #expect(status(g.send(fcmRequest(UInt64(m), collapseKey: "k"), reach: .active, now: t0, rng: &rng).0) == 200)
        }
        #expect(status(g.send(fcmRequest(21, collapseKey: "k"), reach: .active, now: t0 + .minutes(3) - .seconds(1), rng: &rng).0) == 429)
        #expect(status(g.send(fcmRequest(22, collapseKey: "k"), reach: .active, now: t0 + .minutes(3), rng: &rng).0) == 200)
    }

    /// FCM keeps one slot per device of the fleet: its counts packed behind its times.
    @Test func fcmSlotIs56Bytes() {
        #expect(MemoryLayout<FCMGatewayModel.Slot>.stride == 56)
    }
}
