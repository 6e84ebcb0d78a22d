import Testing
@testable import Reports

/// A report's UTC start read back, and an instant as a zone's wall-clock time, across a
/// daylight-saving change (docs/report.md, "Local time").
@Suite struct LocalClockTests {
    @Test func theStartReadsBackAsUnixSeconds() {
        #expect(LocalClock.unixSeconds(utc: "2026-03-02T00:00:00.000Z") == 1_772_409_600)
        #expect(LocalClock.unixSeconds(utc: "1970-01-01T00:00:00.000Z") == 0)
        #expect(LocalClock.unixSeconds(utc: "2026-13-02T00:00:00.000Z") == nil && LocalClock.unixSeconds(utc: "yesterday") == nil)
    }

    @Test func aZonesClockSkipsTheHourOfItsSpringChange() {
        // New York on 8 March 2026: 01:59 EST, then 03:00 EDT a minute later.
        #expect(LocalClock.text(unixSeconds: 1_772_953_140, zone: "America/New_York") == "2026-03-08 01:59")
        #expect(LocalClock.text(unixSeconds: 1_772_953_200, zone: "America/New_York") == "2026-03-08 03:00")
        // Tokyo has no change: UTC + 9 h, across midnight.
        #expect(LocalClock.text(unixSeconds: 1_772_409_600 + 15 * 3_600, zone: "Asia/Tokyo") == "2026-03-03 00:00")
        #expect(LocalClock.text(unixSeconds: 0, zone: "Not/AZone") == nil)
    }
}
