import Testing
import Scenario
@testable import Simulation

/// World.run asks for the next event's state before running the current one
/// (Core/World+Prefetch). The device it guesses from the event alone must be the device
/// the event is delivered to: a wrong guess changes no result, only loses the speed, so
/// nothing else would catch it.
@Suite struct PrefetchTests {
    @Test func thePrefetchedDeviceIsTheOneTheEventIsFor() throws {
        let scenario = try Fixtures.scenario("scenarios/default.json").scaled(by: 0.01)
        var world = World(scenario: scenario)
        var named = 0, wrong = 0, firstWrong: String?
        while let event = world.core.clock.next(before: world.end) {
            if let guess = world.prefetchDevice(event) {
                named += 1
                if guess != world.eventIdentity(event).2 {
                    wrong += 1
                    if firstWrong == nil { firstWrong = World.describe(event) }
                }
            }
            world.step(event)
        }
        #expect(wrong == 0, "first: \(firstWrong ?? "")")
        #expect(named > world.eventsProcessed / 2)
    }
}

/// The prefetch finds a device's Android state and launch-policy state from the cohorts'
/// runs (Core/DeviceIndexRuns) rather than `androidOf` and the `Device`; a wrong index
/// would only cost speed, so it is checked here against both for every device: cohorts of
/// both platforms in turn, two of a platform side by side, whole and sharded.
@Suite struct DeviceIndexRunsTests {
    static func cohort(_ name: String, _ count: Int, _ platform: String) -> String {
        #"{"cohort": "\#(name)", "count": \#(count), "platform": "\#(platform)"}"#
    }

    @Test(arguments: [ShardPlan.whole, ShardPlan(index: 0, count: 3), ShardPlan(index: 2, count: 3)])
    func theRunsGiveEveryDevicesAndroidIndex(shard: ShardPlan) throws {
        let fleet = [Self.cohort("a", 7, "ios"), Self.cohort("b", 5, "android"), Self.cohort("c", 4, "android"),
                     Self.cohort("d", 6, "ios"), Self.cohort("e", 9, "android")].joined(separator: ", ")
        let scenario = try Fixtures.decode(#"{"name": "runs", "duration": "1h", "seed": 3, "fleet": [\#(fleet)]}"#)
        let world = World(scenario: scenario, shard: shard)
        #expect(world.deviceCount > 0)
        #expect(world.androidOf.contains { $0 >= 0 } && world.androidOf.contains(-1))
        for d in 0 ..< world.deviceCount {
            #expect(world.indexRuns.androidIndex(of: d) == Int(world.androidOf[d]), "device \(d)")
            let slot = world.core.devices[d].launchPolicySlot
            #expect(world.indexRuns.launchPolicySlot(of: d) == (slot == .max ? -1 : Int(slot)), "device \(d)")
        }
        // One run per cohort at most: the two Android cohorts side by side make one.
        #expect(world.indexRuns.count == 4)
    }

    @Test func aFleetOfOnePlatformIsOneRun() throws {
        for platform in ["ios", "android"] {
            let scenario = try Fixtures.decode(#"{"name": "runs", "duration": "1h", "seed": 3, "fleet": [\#(Self.cohort("a", 5, platform))]}"#)
            let world = World(scenario: scenario)
            #expect(world.indexRuns.count == 1)
            #expect((0 ..< 5).map { world.indexRuns.androidIndex(of: $0) } == world.androidOf.map(Int.init))
            #expect((0 ..< 5).map { world.indexRuns.launchPolicySlot(of: $0) } == (platform == "ios" ? Array(0 ..< 5) : Array(repeating: -1, count: 5)))
        }
    }
}
