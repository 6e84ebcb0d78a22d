import Testing
import Scenario
import Simulation
@testable import FleetSimCLI

/// `fleetsim bench`'s whole world: its API grows with the fleet, so that each size's cost
/// per device-day is measured on the same load per device.
@Suite struct BenchWorldTests {
    static func backend(_ n: Int) throws -> BackendConfig {
        try ScenarioDecoder.decode(Array(Bench.worldScenario(devices: n, days: 1).utf8), file: "<bench>", vocabulary: ReferenceWorld.scenarioVocabulary).backend
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

/// `fleetsim bench` says of each target that its sizes reach whether it is met, at the
/// boundary included: a figure equal to its target meets it.
@Suite struct BenchTargetTests {
    typealias Result = Bench.SizeResult

    @Test func eachTargetIsMetAtItsBoundaryAndNotPastIt() {
        let met: [Result] = [(10_000, 20_000, 1.0, 2_000), (100_000, 15_000, 1.25, 1_600), (1_000_000, 13_000, 1.2, 1_536)]
        let lines = Bench.targetLines(met)
        #expect(lines.count == 4)
        #expect(lines[1].hasSuffix("15000 device-days/s at 100000 devices: 15000, met"))
        #expect(lines[2].hasSuffix("x1.25 at 100000 devices, met"))
        #expect(lines[3].hasSuffix("at 1000000 devices: 1536, met"))

        let missed: [Result] = [(10_000, 20_000, 1.0, 2_000), (100_000, 14_999, 1.1, 1_600), (1_000_000, 11_000, 1.26, 1_537)]
        let verdicts = Bench.targetLines(missed)
        #expect(verdicts[1].hasSuffix(": 14999, NOT met"))
        #expect(verdicts[2].hasSuffix("x1.26 at 1000000 devices, NOT met"))
        #expect(verdicts[3].hasSuffix(": 1537, NOT met"))
    }

    /// A target needs its size: one size alone has no cost ratio, and sizes other than
    /// 100,000 and 1,000,000 have no rate or memory target.
    @Test func onlyTheTargetsTheSizesReachArePrinted() {
        #expect(Bench.targetLines([(2_000, 9_000, 1.0, 3_000)]).isEmpty)
        let lines = Bench.targetLines([(1_000, 9_000, 1.0, 3_000), (2_000, 8_000, 1.3, 2_800)])
        #expect(lines.count == 2)
        #expect(lines[1].contains("x1.30 at 2000 devices, NOT met"))
    }
}
