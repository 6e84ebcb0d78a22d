import Foundation
import Testing
@testable import AppLogic

/// A user with nothing in flight holds no send or job buffer (a fleet of idle users
/// would otherwise keep one of each from its last push), and no out-of-line box for them.
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
        #expect(!store.state.pending.isAllocated)
    }

    @Test func theBoxIsAllocatedOnlyWhileSomethingIsHeld() {
        var store = PushStore()
        #expect(!store.state.pending.isAllocated)
        _ = store.send(.deviceRegistered(apns(1)), at: monday)
        #expect(!store.state.pending.isAllocated)
        _ = store.send(dueSoon(1, .normal), at: monday + .hours(1))
        #expect(store.state.pending.isAllocated && store.state.sendsInFlight == 1)
    }

    @Test func aChangeLeavingItEmptyAllocatesNothing() {
        var state = PushUserState(settings: PushUserSettings(timeZone: TimeZone(identifier: "UTC")!))
        state.heldNormal.removeAll()
        #expect(!state.pending.isAllocated)
        state.heldNormal.append(NotificationID(1))
        #expect(state.pending.isAllocated)
        state.heldNormal.removeAll()
        #expect(!state.pending.isAllocated)
    }

    @Test func aCopyIsAValue() {
        var a = PushUserState(settings: PushUserSettings(timeZone: TimeZone(identifier: "UTC")!))
        a.heldNormal.append(NotificationID(1))
        var b = a
        #expect(a == b && a.hashValue == b.hashValue)
        b.heldNormal.append(NotificationID(2))
        #expect(a.heldNormal == [NotificationID(1)] && b.heldNormal == [NotificationID(1), NotificationID(2)])
        #expect(a != b)
        // Equal contents in two boxes are equal states, with equal hashes.
        var c = PushUserState(settings: a.settings)
        c.heldNormal.append(NotificationID(1))
        #expect(a == c && a.hashValue == c.hashValue)
        b.heldNormal.removeAll()
        a.heldNormal.removeAll()
        #expect(a == b && !a.pending.isAllocated && !b.pending.isAllocated)
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
