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
