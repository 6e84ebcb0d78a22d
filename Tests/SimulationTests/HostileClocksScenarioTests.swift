import Foundation
import Testing
import Scenario
import SimKernel
@testable import Simulation

/// The shipped hostile-clocks fleet (`scenarios/hostile-clocks.json`, docs/clocks.md "The
/// hostile-clocks fleet"): device clocks months ahead and years behind and set right,
/// dates across a leap day and the year end, southern-hemisphere DST with Lord Howe's
/// 30 minutes, half-hour and 45-minute zones, old iPhones with minutes of background
/// time beside HealthKit wakes, an OEM that kills background apps, backend and provider
/// faults. docs/known-bugs.md's sweeps are measured on it, so its hazards must stay.
@Suite struct HostileClocksScenarioTests {
    static let file = "scenarios/hostile-clocks.json"

    /// The UTC calendar date (year, month, day) of Unix second `s`.
    static func date(_ s: Int64) -> (Int, Int, Int) {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let c = utc.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: TimeInterval(s)))
        return (c.year!, c.month!, c.day!)
    }

    @Test func keepsItsHazards() throws {
        let s = try Fixtures.scenario(Self.file)
        #expect(s.logic.variants.isEmpty)
        #expect(s.duration == .days(10))
        #expect(s.fleet.allSatisfy { Set($0.features) == Set(FeatureList.features.filter(\.byDefault)) })
        #expect(s.fleet.reduce(0) { $0 + $1.count } <= 1_500, "a seed must stay about 10 s of release CPU")

        // Zones: southern-hemisphere DST (Lord Howe's 30 minutes), half-hour and 45-minute offsets.
        let zones = Set(s.fleet.flatMap { $0.timeZones.options.map(\.value) })
        #expect(zones.isSuperset(of: ["Australia/Lord_Howe", "Australia/Adelaide", "Asia/Kolkata", "Asia/Kathmandu", "Pacific/Auckland"]))
        let start = Date(timeIntervalSince1970: TimeInterval(s.startUnixSeconds))
        let end = start.addingTimeInterval(s.duration.seconds)
        let lordHowe = TimeZone(identifier: "Australia/Lord_Howe")!
        let shift = lordHowe.secondsFromGMT(for: start) - lordHowe.secondsFromGMT(for: end)
        #expect(shift == 1_800, "Lord Howe falls back 30 minutes inside the run")
        #expect(TimeZone(identifier: "Asia/Kathmandu")!.secondsFromGMT(for: start) == 5 * 3_600 + 45 * 60)

        // Clocks: 94 days ahead and 944 behind, each set right inside the run; dates across
        // 2028-02-29 and across the year end.
        var skews: [(at: SimDuration, offset: SimDuration, until: SimDuration?)] = []
        for f in s.faults { if case .clockSkew(let offset) = f.kind { skews.append((f.at, offset, f.duration.map { f.at + $0 })) } }
        for days: Int64 in [94, -944] {
            let skew = try #require(skews.first { $0.offset == .days(days) }, "no clock \(days) d off")
            #expect(skew.until.map { $0 < s.duration } == true, "the clock \(days) d off is not set right")
        }
        func dates(of skew: (at: SimDuration, offset: SimDuration, until: SimDuration?)) -> ((Int, Int, Int), (Int, Int, Int)) {
            let from = s.startUnixSeconds + (skew.at + skew.offset).microseconds / 1_000_000
            let to = s.startUnixSeconds + ((skew.until ?? s.duration) + skew.offset).microseconds / 1_000_000
            return (Self.date(from), Self.date(to))
        }
        let spans = skews.map { dates(of: $0) }
        let acrossLeapDay = spans.contains { $0.0.0 == 2028 && $0.0.1 == 2 && $0.0.2 < 29 && $0.1.0 == 2028 && $0.1.1 == 3 }
        let acrossYearEnd = spans.contains { $0.0.0 == 2027 && $0.1.0 == 2028 }
        #expect(acrossLeapDay && acrossYearEnd)

        // Old iPhones: minutes of background time beside HealthKit wakes (step sync on iOS).
        #expect(s.fleet.contains { $0.platform == .ios && $0.continuation.backgroundTime >= .minutes(3)
                                   && $0.features.contains(.stepSync) && $0.features.contains(.continuation) })
        #expect(s.fleet.contains { $0.platform == .android && $0.android.oemKillAfterScreenOff != nil })
        // Push: power users, a blocking broadcast to them, and users with no push at all.
        #expect(s.broadcasts.contains { $0.priority == .blocking })
        let quiet = try #require(s.fleet.first { $0.name == "quiet" })
        #expect(quiet.push.sources.allSatisfy { $0.perDay == 0 })

        // Backend and provider faults.
        #expect(s.faults.contains { $0.kind == .backendOutage })
        #expect(s.faults.contains { if case .backendSlowdown = $0.kind { true } else { false } })
        #expect(s.faults.contains { if case .appTermination = $0.kind { true } else { false } })
        #expect(s.faults.contains { if case .pushProviderOutage = $0.kind { true } else { false } })
        let statuses = Set(s.faults.compactMap { f -> String? in
            if case .pushProviderErrors(let provider, let status, _) = f.kind { "\(provider) \(status)" } else { nil }
        })
        #expect(statuses.isSuperset(of: ["apns 410", "apns 500", "fcm 429", "fcm 503"]))
    }

    /// At a quarter of the fleet (300 phones), the correct logic has no violation on its
    /// first two seeds.
    @Test func correctLogicPassesTheFirstSeeds() throws {
        let shipped = try Fixtures.scenario(Self.file).scaled(by: 0.25)
        for seed: UInt64 in [1, 2] {
            var s = shipped
            s.seed = seed
            var world = World(scenario: s)
            world.runToEnd()
            ReadableFailures.expectNoViolation(world, Self.file)
        }
    }
}
