import Testing
import Scenario
import SimKernel
@testable import Simulation

/// The step table keeps what a table keyed by (user, date, source) keeps, under device
/// clocks months ahead and years behind (docs/model.md, "Step sync"; docs/clocks.md):
/// 20 iPhones and 20 Android phones, step sync only, every clock moved at 12 h and set
/// right 36 h later. The correct logic's uploads of the true dates after the clock is
/// set right are kept beside the moved dates' rows, and the judge finds every date.
@Suite struct StepStoreWorldTests {
    static func scenario(offset: String, retention: Int? = nil, variants: [String] = [], seed: UInt64 = 1) throws -> Scenario {
        let backend = retention.map { #", "backend": {"stepStore": {"retentionDays": \#($0)}}"# } ?? ""
        let phone = #""features": ["stepSync"], "battery": {"initialPercent": {"uniform": [60, 100]}, "charging": "overnight"}, "usage": {"appOpensPerDay": 2}, "settings": {"backgroundAppRefresh": 1, "lowPowerMode": 0}, "signedIn": 1"#
        var s = try Fixtures.decode("""
        {"name": "moved-clocks", "duration": "4d", "seed": \(seed),
         "fleet": [{"cohort": "ios", "count": 20, "platform": "ios", \(phone)},
                   {"cohort": "android", "count": 20, "platform": "android", \(phone)}],
         "faults": [{"kind": "clockSkew", "at": "12h", "duration": "36h", "offset": "\(offset)"}]\(backend)}
        """)
        s.logic.variants = variants
        return s
    }

    static func run(_ s: Scenario) -> World {
        var world = World(scenario: s)
        world.runToEnd()
        return world
    }

    static func count(_ world: World, _ kind: ViolationKind) -> UInt64 {
        world.core.oracle.counts[ViolationKind.allCases.firstIndex(of: kind)!]
    }

    /// 94 days ahead, then set right; 944 days behind, then set right: no write dropped,
    /// rows kept outside the run's dates, and no violation on seeds 1 and 2 (each failed
    /// `stepsNeverSynced` on the 32-day ring per user this replaced).
    @Test(arguments: ["94d", "-944d"]) func correctLogicKeepsBothSidesOfTheJump(_ offset: String) throws {
        for seed: UInt64 in [1, 2] {
            let world = Self.run(try Self.scenario(offset: offset, seed: seed))
            let store = world.features.stepSync.store
            #expect(store.droppedWrites == 0)
            #expect(store.farRows > 0, "no row outside the run's dates")
            ReadableFailures.expectNoViolation(world, "\(offset)")
        }
    }

    /// The buggy read without the 30-day cap, after the 94-day jump, reaches back to the
    /// last sync 94 days before on the device's clock: the health store answers that
    /// range (it answered nothing over 32 days), so the upload is judged too far back.
    @Test func unlimitedBackfillAfterTheJumpIsCaught() throws {
        let buggy = Self.run(try Self.scenario(offset: "94d", variants: ["stepSync.backfillUnlimited"]))
        #expect(Self.count(buggy, .stepsBackfilledTooFar) > 0)
        let correct = Self.run(try Self.scenario(offset: "94d"))
        #expect(Self.count(correct, .stepsBackfilledTooFar) == 0)
    }

    /// A declared retention of 30 days drops the writes of dates 944 days back (counted),
    /// and the judge, which knows it, flags none of them (the moved calendar's dates are
    /// judged from the move on, and would find no row).
    @Test func aDeclaredRetentionDropsOldDatesAndTheJudgeKnowsIt() throws {
        let retained = Self.run(try Self.scenario(offset: "-944d", retention: 30))
        #expect(retained.features.stepSync.store.droppedWrites > 0)
        ReadableFailures.expectNoViolation(retained)
    }

    /// The memory guard's estimate (``MemoryEstimate``, through
    /// ``World/featuresBytesOffTheRunsDays(_:held:total:)``) counts the rows outside the run's dates from the
    /// scenario's `clockSkew` faults: never fewer than a run writes, the unlimited
    /// backfill's whole skew included, and none without such a fault.
    @Test(arguments: ["94d", "-944d"]) func theEstimateBoundsTheRowsOutsideTheRunsDates(_ offset: String) throws {
        for variants in [[], ["stepSync.backfillUnlimited"]] {
            let s = try Self.scenario(offset: offset, variants: variants)
            let rows = Self.run(s).features.stepSync.store.farRows
            let estimate = StepSyncFeature.rowsOffTheRunsDates(s, held: 40, total: 40)
            #expect(rows > 0 && rows <= estimate, "\(offset) \(variants): \(rows) rows, estimated \(estimate)")
        }
        var still = try Self.scenario(offset: offset)
        still.faults = []
        #expect(StepSyncFeature.rowsOffTheRunsDates(still, held: 40, total: 40) == 0)
    }
}
