import Testing
@testable import Simulation
import SimKernel

/// WorkManager's look at a work, re-armed or cancelled while its entry is pending, takes
/// that entry out of the queue (``AndroidHost/armWorkCheck(_:_:_:at:core:)``): it would
/// only have popped as a no-op. Measured on the default scenario at `--scale 0.02` before
/// the retraction: 3,273 of 10,454 step-sync looks and 2,718 of 6,277 refresh looks
/// popped stale, a third of the 16,731 looks popped (docs/performance.md#the-pending-event-set); now
/// 1,980 of 12,720.
@Suite struct WorkCheckEntriesTests {
    @Test func mootWorkChecksLeaveTheQueue() throws {
        let scenario = try Fixtures.scenario("scenarios/default.json").scaled(by: 0.02)
        var world = World(scenario: scenario)
        var looks = (stale: 0, delivered: 0), stops = (stale: 0, delivered: 0)
        while let event = world.core.clock.next(before: world.end) {
            let stale = event.isSuperseded(in: world)
            switch event {
            case .android(.timer(_, _, .work)): if stale { looks.stale += 1 } else { looks.delivered += 1 }
            case .android(.jobStops): if stale { stops.stale += 1 } else { stops.delivered += 1 }
            default: break
            }
            world.step(event)
        }
        // What may still pop stale: an entry already in the near heap (a look due now, or
        // within about a second) or one whose place a job's stop deadline took. Before:
        // 5,991 stale for 10,740 delivered.
        #expect(looks.delivered > 5_000)
        #expect(looks.stale * 4 < looks.delivered, "\(looks.stale) stale looks, \(looks.delivered) delivered")
        // The stop deadlines share the works' slots and are still taken back (6 popped
        // stale before and after: jobs of killed apps).
        #expect(stops.stale * 100 < looks.delivered, "\(stops.stale) stale stop deadlines, \(stops.delivered) delivered")
    }
}
