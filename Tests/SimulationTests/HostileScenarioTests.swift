import Testing
import Scenario
import SimKernel
@testable import Simulation

/// The shipped hostile scenario (`scenarios/hostile.json`): the default fleet under
/// mid-run clock jumps both ways, a zone change, outages and APNs/FCM errors. It is
/// the fleet the README's variant table is measured on, so it must stay default-sized
/// and keep its faults, and the correct logic must pass it. `fleetsim explore` runs
/// 20 full-size seeds (docs/clocks.md); this is the fast guard.
@Suite struct HostileScenarioTests {
    static let file = "scenarios/hostile.json"

    /// The same cohorts and counts as the default scenario, then one appended cohort of
    /// power users (so every default phone keeps its id and draws) with all-high
    /// assignment pushes and the one broadcast, blocking, to them only: six days, the
    /// correct logic, and the faults that make it hostile.
    @Test func isTheDefaultFleetUnderEveryFault() throws {
        let hostile = try Fixtures.scenario(Self.file)
        let defaults = try Fixtures.scenario("scenarios/default.json")
        #expect(Array(hostile.fleet.prefix(defaults.fleet.count)) == defaults.fleet)
        #expect(hostile.fleet.count == defaults.fleet.count + 1)
        let power = try #require(hostile.fleet.last)
        #expect(power.name == "ios-power" && power.count == 80)
        let assignments = try #require(PushSourceName.allCases.firstIndex(of: .assignmentDue))
        #expect(power.push.sources[assignments].perDay == 4)
        #expect(hostile.broadcasts.count == 1)
        #expect(hostile.broadcasts.allSatisfy { $0.priority == .blocking && $0.cohort == power.name })
        #expect(hostile.duration == .days(6))
        #expect(hostile.logic.variants.isEmpty)
        let skews = hostile.faults.compactMap { f -> SimDuration? in
            if case .clockSkew(let offset) = f.kind, f.at == .hours(12), f.fraction == 0.1 { return offset } else { return nil }
        }
        #expect(Set(skews.map(\.microseconds)) == [SimDuration.days(-3).microseconds, SimDuration.days(2).microseconds])
        #expect(hostile.faults.contains { if case .timeZoneChange = $0.kind { true } else { false } })
        #expect(hostile.faults.contains { $0.kind == .backendOutage })
        let providers = Set(hostile.faults.compactMap { f -> String? in
            if case .pushProviderErrors(let provider, _, _) = f.kind { provider } else { nil }
        })
        #expect(providers == ["apns", "fcm"])
        #expect(hostile.fleet.allSatisfy { Set($0.features) == Set(FeatureList.features.filter(\.byDefault)) })
    }

    /// At a fiftieth of the fleet (about 200 phones), the correct logic has no violation on
    /// its first seeds (the file's own seed is the suites' shared run).
    @Test func correctLogicPassesTheFirstSeeds() throws {
        let shipped = try SharedRuns.hostileScenario()
        for seed in UInt64(1)...3 {
            if seed == shipped.seed {
                ReadableFailures.expectNoViolation(reportJSON: try SharedRuns.hostileRun.get().reportBytes, "\(Self.file)")
            } else {
                var s = shipped
                s.seed = seed
                var world = World(scenario: s)
                world.runToEnd()
                ReadableFailures.expectNoViolation(world, "\(Self.file)")
            }
        }
    }
}
