import Testing
import Scenario
@testable import fleetsim

/// `fleetsim bench`'s whole world: its API grows with the fleet, so that each size's cost
/// per device-day is measured on the same load per device.
@Suite struct BenchWorldTests {
    static func backend(_ n: Int) throws -> BackendConfig {
        try ScenarioDecoder.decode(Array(Bench.worldScenario(devices: n, days: 1).utf8), file: "<bench>").backend
    }

    /// At 10,000 devices the world's API is the default backend, so the 10k figures stay
    /// comparable with every earlier run; a hundred times the fleet gets a hundred times
    /// the workers and queue places.
    @Test func theApiIsTheDefaultAtTenThousandAndGrowsInProportion() throws {
        #expect(try Self.backend(10_000) == BackendConfig.defaults)
        let million = try Self.backend(1_000_000)
        #expect(million.workers == 6_400)
        #expect(million.queueLimit == 1_000_000)
        #expect(million.serviceTime == BackendConfig.defaults.serviceTime)
    }

    /// Rounded up: one device more than 10,000 gets one worker and one queue place more,
    /// and the smallest world still has a worker.
    @Test func partsOfAWorkerRoundUp() throws {
        let above = try Self.backend(10_001)
        #expect(above.workers == 65)
        #expect(above.queueLimit == 10_001)
        let one = try Self.backend(1)
        #expect(one.workers == 1)
        #expect(one.queueLimit == 1)
    }
}
