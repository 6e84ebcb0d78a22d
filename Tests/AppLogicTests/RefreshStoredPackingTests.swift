import Testing
@testable import AppLogic

/// What the refresh logic wrote to UserDefaults, in 48 bytes (``RefreshState/Stored``):
/// each key reads back as written, nil included, on its own, and equal values are equal.
@Suite struct RefreshStoredPackingTests {
    static let times: [DeviceTime] = [
        DeviceTime(wall: Instant(unixMicroseconds: .min + 1), sinceBoot: Interval(microseconds: .min), boot: 0),
        DeviceTime(wall: Instant(unixMicroseconds: -1), sinceBoot: Interval(microseconds: 0), boot: 1),
        DeviceTime(wall: Instant(unixMicroseconds: 0), sinceBoot: Interval(microseconds: -1), boot: .max),
        DeviceTime(wall: Instant(unixMicroseconds: 1_764_000_000_000_000), sinceBoot: Interval(microseconds: 86_400_000_000), boot: 7),
        DeviceTime(wall: Instant(unixMicroseconds: .max), sinceBoot: Interval(microseconds: .max), boot: .max - 1),
    ]

    @Test func layoutIs48Bytes() {
        #expect(MemoryLayout<RefreshState.Stored>.stride == 48)
        #expect(MemoryLayout<RefreshState>.stride <= 112, "the running task grew: its launch context is kept as parts so that its flags share padding")
    }

    @Test func nilAndTheExtremesRoundTrip() {
        var s = RefreshState.Stored()
        #expect(s.lastRefreshAt == nil && s.notifiedWindow == nil && s.lastAppOpenAt == nil)
        for t in Self.times {
            s.lastRefreshAt = t
            #expect(s.lastRefreshAt == t)
            s.lastAppOpenAt = t
            #expect(s.lastAppOpenAt == t)
        }
        for us: Int64 in [.min + 1, -1, 0, 1, .max] {
            s.notifiedWindow = Instant(unixMicroseconds: us)
            #expect(s.notifiedWindow == Instant(unixMicroseconds: us))
        }
        s.lastRefreshAt = nil
        s.notifiedWindow = nil
        s.lastAppOpenAt = nil
        #expect(s == RefreshState.Stored())
    }

    @Test func theKeysAreIndependent() {
        let a = Self.times[3], b = Self.times[1]
        var s = RefreshState.Stored(lastRefreshAt: a, notifiedWindow: nil, lastAppOpenAt: b)
        #expect(s.lastRefreshAt == a && s.notifiedWindow == nil && s.lastAppOpenAt == b)
        s.notifiedWindow = Instant(unixMicroseconds: 5)
        s.lastRefreshAt = nil
        #expect(s.lastRefreshAt == nil && s.notifiedWindow == Instant(unixMicroseconds: 5) && s.lastAppOpenAt == b)
        s.lastAppOpenAt = a
        #expect(s == RefreshState.Stored(lastRefreshAt: nil, notifiedWindow: Instant(unixMicroseconds: 5), lastAppOpenAt: a))
        #expect(s != RefreshState.Stored(lastRefreshAt: nil, notifiedWindow: Instant(unixMicroseconds: 5), lastAppOpenAt: b))
    }

    /// A key cleared after holding a value equals one never set (its parts are zeroed).
    @Test func aClearedKeyEqualsANeverSetOne() {
        var s = RefreshState.Stored(lastRefreshAt: Self.times[3], notifiedWindow: nil, lastAppOpenAt: Self.times[2])
        s.lastRefreshAt = nil
        s.lastAppOpenAt = nil
        #expect(s == RefreshState.Stored() && s.hashValue == RefreshState.Stored().hashValue)
    }
}
