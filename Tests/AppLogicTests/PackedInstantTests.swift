import Testing
@testable import AppLogic

/// A push user's packed fields: its optional instants in 8 bytes each (``PackedInstant``:
/// nil and every instant other than `Int64.min` µs read back as written) and its badge
/// counts in 32 bits.
@Suite struct PackedInstantTests {
    @Test func nilAndTheExtremesRoundTrip() {
        var p = PackedInstant()
        #expect(p.value == nil)
        for us: Int64 in [.min + 1, -1, 0, 1, 1_764_000_000_000_000, .max] {
            p.value = Instant(unixMicroseconds: us)
            #expect(p.value == Instant(unixMicroseconds: us))
        }
        p.value = nil
        #expect(p.value == nil)
    }

    /// A new user has none of the three; each is set and cleared on its own.
    @Test func aUsersOptionalInstantsAreIndependent() {
        var s = PushUserState(settings: PushUserSettings(timeZone: .gmt))
        #expect(s.lastActiveAt == nil && s.quietReleaseAt == nil && s.nextDailyAt == nil)
        s.quietReleaseAt = Instant(unixMicroseconds: 7)
        #expect(s.lastActiveAt == nil && s.quietReleaseAt == Instant(unixMicroseconds: 7) && s.nextDailyAt == nil)
        s.nextDailyAt = Instant(unixMicroseconds: 0)
        s.quietReleaseAt = nil
        #expect(s.lastActiveAt == nil && s.quietReleaseAt == nil && s.nextDailyAt == Instant(unixMicroseconds: 0))
    }

    /// The unread count and the last badge sent are 32-bit: every count from zero to
    /// `Int32.max` reads back, each on its own.
    @Test func theBadgeCountsRoundTripTheir32BitRange() {
        var s = PushUserState(settings: PushUserSettings(timeZone: .gmt))
        #expect(s.unread == 0 && s.lastBadgeSent == 0)
        for n in [1, 99, Int(Int32.max) - 1, Int(Int32.max), 0] {
            s.unread = n
            #expect(s.unread == n && s.lastBadgeSent == 0)
        }
        s.lastBadgeSent = Int(Int32.max)
        #expect(s.lastBadgeSent == Int(Int32.max) && s.unread == 0)
    }
}
