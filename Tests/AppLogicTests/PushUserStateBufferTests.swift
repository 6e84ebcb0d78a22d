import Testing
@testable import AppLogic

/// A user with nothing in flight holds no send or job buffer (a fleet of idle users
/// would otherwise keep one of each from its last push).
@Suite struct PushUserStateBufferTests {
    @Test func theLastSendAndJobToEndFreeTheirBuffers() {
        var store = PushStore()
        _ = store.send(.deviceRegistered(apns(1)), at: monday)
        let t0 = monday + .hours(1)
        _ = store.send(dueSoon(1, .normal), at: t0)
        _ = store.send(dueSoon(2, .normal), at: t0)
        #expect(store.state.sendsInFlight == 2 && store.state.notificationsInFlight == 2)
        // The first answer leaves one of each: the buffers stay.
        _ = store.send(.providerResponse(PushSendID(1), .accepted), at: t0 + .seconds(1))
        #expect(store.state.sendsInFlight == 1 && store.state.sends.capacity >= 1)
        #expect(store.state.notificationsInFlight == 1 && store.state.jobs.capacity >= 1)
        _ = store.send(.providerResponse(PushSendID(2), .accepted), at: t0 + .seconds(1))
        #expect(store.state.sends.capacity == 0 && store.state.jobs.capacity == 0)
    }

    @Test func aSendThatFailsForGoodFreesTheBuffersToo() {
        var store = PushStore()
        _ = store.send(.deviceRegistered(apns(1)), at: monday)
        let t0 = monday + .hours(1)
        _ = store.send(dueSoon(1, .normal), at: t0)
        _ = store.send(.providerResponse(PushSendID(1), .status(400, retryAfter: nil)), at: t0 + .seconds(1))
        #expect(store.state.sends.capacity == 0 && store.state.jobs.capacity == 0)
    }
}
