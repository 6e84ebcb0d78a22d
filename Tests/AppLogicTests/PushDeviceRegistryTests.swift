import Testing
@testable import AppLogic

/// The registry's records (``PushDevices``): the first inline, an array only for two or
/// more; and the one time a record keeps for its last validation or, once expired, its
/// expiry.
@Suite struct PushDeviceRegistryTests {
    func registering(_ count: UInt32) -> PushStore {
        var store = PushStore()
        for d in stride(from: UInt32(1), through: count, by: 1) {
            _ = store.send(.deviceRegistered(apns(d)), at: monday + .minutes(Int64(d)))
        }
        return store
    }

    @Test(arguments: [0, 1, 2, 5] as [UInt32])
    func aUserWithNoneOneTwoOrManyDevicesKeepsThemInRegistrationOrder(count: UInt32) {
        let store = registering(count)
        let devices = store.state.devices
        #expect(devices.count == Int(count) && devices.isEmpty == (count == 0))
        #expect(devices.map(\.device) == (0 ..< count).map { PushDeviceID($0 + 1) })
        #expect(devices.allSatisfy { $0.status == .active && $0.expiredAt == nil })
        #expect(devices.map(\.lastValidatedAt) == (0 ..< count).map { monday + .minutes(Int64($0 + 1)) })
        // Out of line only from the second device on.
        #expect(devices.isOutOfLine == (count >= 2))
    }

    @Test func aRemovalThatLeavesOneMovesItBackInlineAndEqualsAOneDeviceRegistry() {
        var two = PushDevices()
        let first = PushDeviceRecord(token: apns(1), now: monday, lastActiveAt: monday)
        let second = PushDeviceRecord(token: fcm(2), now: monday + .hours(1), lastActiveAt: monday)
        two.append(first)
        two.append(second)
        var one = PushDevices()
        one.append(second)
        #expect(two != one)
        two.remove(at: 0)
        #expect(!two.isOutOfLine && two == one && two.hashValue == one.hashValue)
        #expect(Array(two) == [second])
        two.remove(at: 0)
        #expect(two.isEmpty && two == PushDevices())
    }

    @Test func aChangeToARecordInTheArrayChangesThatRecordOnly() {
        var devices = PushDevices()
        for d in UInt32(1) ... 3 { devices.append(PushDeviceRecord(token: apns(d), now: monday, lastActiveAt: monday)) }
        let copy = devices
        devices[1].expire(at: monday + .days(2))
        #expect(devices.map(\.status) == [.active, .expired, .active])
        #expect(devices[1].expiredAt == monday + .days(2) && devices[1].lastValidatedAt == nil)
        // The copy is a value: the array it shared was copied before the change.
        #expect(copy.map(\.status) == [.active, .active, .active])
    }

    /// Two devices, the first in the array: each goes inactive exactly 90 days after its own last use.
    @Test func eachOfTwoDevicesBecomesInactive90DaysAfterItsLastUse() {
        var store = registering(2)
        _ = store.send(.userActivity(PushDeviceID(2)), at: monday + .days(1))
        // The daily runs come at the first registration's minute, a day apart.
        let first = monday + .minutes(1) + .days(1)
        for day in 0 ..< 89 { _ = store.send(.timerFired(.daily), at: first + .days(Int64(day))) }
        #expect(store.state.devices.map(\.status) == [.active, .active])
        // Exactly 90 days after device 1's registration; 89 days and a minute after device 2's use.
        #expect(store.send(.timerFired(.daily), at: first + .days(89)).first == .markToken(apns(1), .inactive))
        #expect(store.state.devices.map(\.status) == [.inactive, .active])
        #expect(store.send(.timerFired(.daily), at: first + .days(90)).first == .markToken(apns(2), .inactive))
        #expect(store.state.devices.map(\.status) == [.inactive, .inactive])
    }

    /// A rotation replaces the token in place: validated at the rotation, the device's
    /// last use of the app kept.
    @Test func aRotatedTokenIsValidatedAtTheRotationAndKeepsTheLastUse() {
        var store = registering(2)
        let t = monday + .days(3)
        _ = store.send(.tokenRotated(apns(1, generation: 2)), at: t)
        let record = store.state.devices[0]
        #expect(store.state.devices.count == 2 && record.token == apns(1, generation: 2))
        #expect(record.lastValidatedAt == t && record.lastUsedAt == t && record.expiredAt == nil)
        #expect(record.lastActiveAt == monday + .minutes(1))
    }

    /// An answer accepted after the token expired (a send made before the 410) leaves
    /// the expiry, so the purge comes 180 days after it, not after the answer.
    @Test func anAcceptedAnswerAfterTheExpiryDoesNotMoveThePurge() {
        var store = registering(1)
        _ = store.send(dueSoon(1, .normal), at: monday + .hours(1))
        _ = store.send(dueSoon(2, .normal), at: monday + .hours(1))
        let expiry = monday + .hours(2)
        _ = store.send(.providerResponse(PushSendID(1), .status(410, retryAfter: nil)), at: expiry)
        _ = store.send(.providerResponse(PushSendID(2), .accepted), at: expiry + .days(2))
        #expect(store.state.devices[0].expiredAt == expiry && store.state.devices[0].lastValidatedAt == nil)
        // The daily runs come at the registration's minute, a day apart.
        let first = monday + .minutes(1) + .days(1)
        for day in 0 ..< 179 { _ = store.send(.timerFired(.daily), at: first + .days(Int64(day))) }
        #expect(store.state.devices.count == 1)
        // 180 days after the expiry fall between these two runs; 180 days after the
        // late answer would be after the second.
        #expect(!store.send(.timerFired(.daily), at: first + .days(179)).contains(.purgeDevice(PushDeviceID(1))))
        #expect(store.send(.timerFired(.daily), at: first + .days(180)) == [.emailPurgeNotice(PushDeviceID(1)), .purgeDevice(PushDeviceID(1))])
        #expect(store.state.devices.isEmpty)
    }

    /// Re-registering an expired token starts its validation over.
    @Test func reRegisteringAnExpiredTokenValidatesItAgain() {
        var store = registering(1)
        _ = store.send(dueSoon(1, .normal), at: monday + .hours(1))
        _ = store.send(.providerResponse(PushSendID(1), .status(410, retryAfter: nil)), at: monday + .hours(2))
        let again = monday + .days(4)
        #expect(store.send(.deviceRegistered(apns(1)), at: again).first == .markToken(apns(1), .active))
        let record = store.state.devices[0]
        #expect(record.status == .active && record.expiredAt == nil && record.lastValidatedAt == again)
    }
}
