import Testing
import Reports
import SimKernel
import Scenario
import Platform
@testable import Simulation

@Suite struct DeterminismTests {
    static func reportBytes(_ scenario: Scenario) throws -> String {
        var world = World(scenario: scenario)
        world.runToEnd()
        return JSONWriter.encode(try world.report().report)
    }

    /// Same scenario and seed: byte-identical report.json. Another seed: a different one.
    /// (The first run is the suites' shared one, made at another moment of the process.)
    @Test func sameSeedSameBytesOtherSeedOtherBytes() throws {
        let scenario = try SharedRuns.defaultScenario()
        let first = try SharedRuns.defaultRun.get().reportBytes
        let second = try Self.reportBytes(scenario)
        #expect(first == second)
        var other = scenario
        other.seed += 1
        #expect(try Self.reportBytes(other) != first)
    }

    /// `tieBreak: "shuffle"` explores other same-instant orders, reproducibly by seed.
    @Test func shuffledTieBreakIsReproducible() throws {
        var scenario = try Fixtures.scenario("scenarios/races/unguarded-completion.json").scaled(by: 0.2)
        scenario.tieBreak = .shuffle
        #expect(try Self.reportBytes(scenario) == Self.reportBytes(scenario))
    }

    /// Adding a cohort leaves every draw of the first cohort's devices unchanged.
    @Test func addingACohortLeavesTheFirstCohortsDrawsUnchanged() throws {
        let one = try Fixtures.decode("""
        {"name": "one", "duration": "1d", "seed": 7,
         "fleet": [{"cohort": "a", "count": 50, "platform": "ios", "timeZones": {"Europe/Berlin": 1, "Asia/Tokyo": 1}}]}
        """)
        let two = try Fixtures.decode("""
        {"name": "two", "duration": "1d", "seed": 7,
         "fleet": [{"cohort": "a", "count": 50, "platform": "ios", "timeZones": {"Europe/Berlin": 1, "Asia/Tokyo": 1}},
                   {"cohort": "b", "count": 30, "platform": "ios", "timeZones": {"America/New_York": 1}}]}
        """)
        let a = FleetBuilder.build(one)
        let b = FleetBuilder.build(two)
        #expect(b.devices.count == 80)
        for d in 0..<50 {
            let x = a.devices[d], y = b.devices[d]
            #expect(a.timeZones[Int(x.clock.timeZone)] == b.timeZones[Int(y.clock.timeZone)])
            #expect(x.backgroundAppRefresh == y.backgroundAppRefresh)
            #expect(x.lowPowerModeSetting == y.lowPowerModeSetting)
            #expect(x.permission == y.permission)
            #expect(x.signedIn == y.signedIn)
            #expect(a.lastCompleted[d] == b.lastCompleted[d])
            // The streams are kept as positions and rebuilt from (seed, global id, purpose).
            for stream in [DeviceStream.user, .open, .backend, .network, .os] { #expect(x.streams[stream] == y.streams[stream]) }
        }
        // And the first cohort's users behave identically over a run (their opens and
        // tests do not depend on the other cohort).
        var w1 = World(scenario: one), w2 = World(scenario: two)
        w1.runToEnd()
        w2.runToEnd()
        for d in 0..<50 { #expect(w1.core.oracle.refresh.devices[d].lastTrueOpen == w2.core.oracle.refresh.devices[d].lastTrueOpen) }
    }
    /// Only iOS devices hold a launch-policy state: in fleet order, each exactly once, the
    /// array exactly their number (a shard too); an Android device has none.
    @Test func onlyIOSDevicesHoldALaunchPolicy() throws {
        let scenario = try Fixtures.decode("""
        {"name": "mixed", "duration": "1d", "seed": 7,
         "fleet": [{"cohort": "a", "count": 3, "platform": "ios", "usage": {"appOpensPerDay": 2}},
                   {"cohort": "b", "count": 4, "platform": "android"},
                   {"cohort": "c", "count": 2, "platform": "ios", "usage": {"appOpensPerDay": 9}}]}
        """)
        let whole = FleetBuilder.build(scenario)
        #expect(whole.devices.map(\.launchPolicySlot) == [0, 1, 2, -1, -1, -1, -1, 3, 4])
        #expect(whole.devices.map(\.androidIndex) == [-1, -1, -1, 0, 1, 2, 3, -1, -1])
        #expect(whole.launchPolicies.count == 5 && whole.launchPolicies.capacity == 5)
        #expect(whole.launchPolicies.map(\.opensPerDay) == [2, 2, 2, 9, 9])
        // Shard 1 of 2 holds global devices 1, 3, 5 and 7: iOS are 1 and 7.
        let shard = FleetBuilder.build(scenario, shard: ShardPlan(index: 1, count: 2))
        #expect(shard.devices.map(\.launchPolicySlot) == [0, -1, -1, 1])
        #expect(shard.devices.map(\.androidIndex) == [-1, 0, 1, -1])
        #expect(shard.launchPolicies.count == 2 && shard.launchPolicies.capacity == 2)
        #expect(shard.launchPolicies.map(\.opensPerDay) == [2, 9])
    }

    /// A device keeps its user's usual wake-up, the rhythm's draw for the device's global
    /// id: in a shard too, so a user rises at the same minute whichever shard holds them.
    @Test func aDeviceKeepsItsGlobalUsersUsualWakeUp() throws {
        let scenario = try Fixtures.decode("""
        {"name": "rhythm", "duration": "1d", "seed": 11,
         "fleet": [{"cohort": "a", "count": 5, "platform": "ios"}, {"cohort": "b", "count": 4, "platform": "android"}]}
        """)
        let rhythm = DailyRhythm(seed: 11)
        let whole = FleetBuilder.build(scenario)
        #expect(whole.devices.map { Int($0.usualWakeUp) } == (0..<9).map { rhythm.usualWakeUp(user: $0) })
        let shard = FleetBuilder.build(scenario, shard: ShardPlan(index: 2, count: 3))
        #expect(shard.devices.map { Int($0.usualWakeUp) } == [2, 5, 8].map { rhythm.usualWakeUp(user: $0) })
    }
}
