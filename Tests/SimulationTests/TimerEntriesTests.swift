import Testing
@testable import Simulation
import SimKernel

/// A refresh task that ends before its expiration (or stop deadline) and hard stop takes
/// both out of the queue, and a HealthKit wake that finishes its work takes out its
/// budget (``TimerEntries``): they would only have popped as no-ops.
@Suite struct TimerEntriesTests {
    @Test func mootTaskAndWakeEntriesLeaveTheQueue() throws {
        let scenario = try Fixtures.decode("""
        {"name": "task-entries", "seed": 3, "duration": "1d",
         "fleet": [{"cohort": "ios", "count": 120, "platform": "ios"},
                   {"cohort": "android", "count": 80, "platform": "android"}]}
        """)
        var world = World(scenario: scenario)
        var expiries = (stale: 0, delivered: 0), hardStops = (stale: 0, delivered: 0), wakes = (stale: 0, delivered: 0)
        while let event = world.core.clock.next(before: world.end) {
            let stale = event.isSuperseded(in: world)
            switch event {
            case .taskExpires: if stale { expiries.stale += 1 } else { expiries.delivered += 1 }
            case .deviceTimer(_, _, .hardStop): if stale { hardStops.stale += 1 } else { hardStops.delivered += 1 }
            case .deviceTimer(_, _, .stepWake): if stale { wakes.stale += 1 } else { wakes.delivered += 1 }
            default: break
            }
            world.step(event)
        }
        let launches = Int(world.core.metrics.launches)
        // Before the retractions every one of the launches' expirations and hard stops
        // popped stale; what may still pop stale is an entry already in the near heap
        // (due within about a second) or a task whose app was killed.
        #expect(launches > 500)
        #expect(expiries.stale * 50 < launches, "\(expiries.stale) stale expirations for \(launches) launches")
        #expect(hardStops.stale * 50 < launches, "\(hardStops.stale) stale hard stops for \(launches) launches")
        #expect(wakes.delivered > 500)
        #expect(wakes.stale * 50 < wakes.delivered, "\(wakes.stale) stale wake timers, \(wakes.delivered) delivered")
    }
}
