import Testing
import Scenario
@testable import Simulation

/// World.run asks for the next event's state before running the current one
/// (Core/Prefetch). The device it guesses from the event alone must be the device
/// the event is delivered to: a wrong guess changes no result, only loses the speed, so
/// nothing else would catch it.
@Suite struct PrefetchTests {
    @Test func thePrefetchedDeviceIsTheOneTheEventIsFor() throws {
        let scenario = try Fixtures.scenario("scenarios/default.json").scaled(by: 0.01)
        var world = World(scenario: scenario)
        var named = 0, wrong = 0, firstWrong: String?
        while let event = world.core.clock.next(before: world.end) {
            if let guess = event.prefetchDevice(in: world) {
                named += 1
                if guess != event.identity(in: world).2 {
                    wrong += 1
                    if firstWrong == nil { firstWrong = event.described }
                }
            }
            world.step(event)
        }
        #expect(wrong == 0, "first: \(firstWrong ?? "")")
        #expect(named > world.eventsProcessed / 2)
    }
}

/// The prefetch finds a device's Android state and launch-policy state from the cohorts'
/// runs (Core/DeviceIndexRuns) rather than from its `Device`; a wrong index would only
/// cost speed, so it is checked here against the `Device` and the Android state's order
/// for every device: cohorts of both platforms in turn, two of a platform side by side,
/// whole and sharded.
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
        let devices = world.core.devices
        // Android indices 0, 1, 2... in device order; launch-policy slots likewise.
        #expect(devices.map(\.androidIndex).filter { $0 >= 0 } == Array(0 ..< world.android.devices.count))
        #expect(devices.map(\.launchPolicySlot).filter { $0 >= 0 } == Array(0 ..< world.core.launchPolicies.count))
        #expect(world.android.devices.count > 0 && world.core.launchPolicies.count > 0)
        for d in devices.indices {
            #expect(devices[d].isAndroid == (devices[d].launchPolicySlot < 0))
            #expect(world.indexRuns.indices(of: d).android == devices[d].androidIndex, "device \(d)")
            #expect(world.indexRuns.indices(of: d).launchPolicy == devices[d].launchPolicySlot, "device \(d)")
        }
        // One run per cohort at most: the two Android cohorts side by side make one.
        #expect(world.indexRuns.count == 4)
    }

    @Test func aFleetOfOnePlatformIsOneRun() throws {
        for platform in ["ios", "android"] {
            let scenario = try Fixtures.decode(#"{"name": "runs", "duration": "1h", "seed": 3, "fleet": [\#(Self.cohort("a", 5, platform))]}"#)
            let world = World(scenario: scenario)
            #expect(world.indexRuns.count == 1)
            let indices = Array(0 ..< 5), none = Array(repeating: -1, count: 5)
            #expect(indices.map { world.indexRuns.indices(of: $0).android } == (platform == "ios" ? none : indices))
            #expect(indices.map { world.indexRuns.indices(of: $0).launchPolicy } == (platform == "ios" ? indices : none))
        }
    }
}
