import Testing
@testable import AppLogic

/// A push user's optional instants in 8 bytes each (``PackedInstant``): nil and every
/// instant other than `Int64.min` µs read back as written.
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
}
