import Testing
import Scenario
import SimKernel
@testable import Simulation

/// `stepsNeverSynced` judges phones whose clock or zone moved: on every phone of the
/// cursor race (a backend outage across midnight), the clock jumps either way mid-run,
/// stands 5 h slow from the start, or the zone changes. The variant that moves its
/// cursor on a failed upload is still caught, and the correct logic, reading from its
/// own calendar's midnight, still passes: the health store buckets by that calendar.
@Suite struct MovedCalendarStepsTests {
    struct Move: Sendable, CustomTestStringConvertible {
        var name: String
        var fault: Fault
        var testDescription: String { name }
    }

    static let moves: [Move] = [
        Move(name: "clock 3 d back at 12 h", fault: Fault(kind: .clockSkew(offset: .days(-3)), at: .hours(12), duration: nil, cohort: nil, fraction: 1)),
        Move(name: "clock 2 d forward at 12 h", fault: Fault(kind: .clockSkew(offset: .days(2)), at: .hours(12), duration: nil, cohort: nil, fraction: 1)),
        Move(name: "clock 5 h slow from the start", fault: Fault(kind: .clockSkew(offset: .hours(-5)), at: .zero, duration: nil, cohort: nil, fraction: 1)),
        Move(name: "in Asia/Tokyo from 6 h", fault: Fault(kind: .timeZoneChange(to: "Asia/Tokyo"), at: .hours(6), duration: nil, cohort: nil, fraction: 1)),
    ]

    static func violations(_ move: Move, seed: UInt64, variants: [String]) throws -> (total: UInt64, neverSynced: UInt64) {
        var s = try Fixtures.scenario("scenarios/races/advance-cursor-on-failure.json")
        s.seed = seed
        s.logic.variants = variants
        s.faults.append(move.fault)
        var world = World(scenario: s)
        world.runToEnd()
        return (world.core.oracle.violations, world.core.oracle.counts[ViolationKind.allCases.firstIndex(of: .stepsNeverSynced)!])
    }

    /// Seeds 1 and 9: the variant loses a day's evening steps on some seeds only, and
    /// since each user has their own day (wake-up and bedtime drawn per user) seeds 1, 9,
    /// 15, 16 and 18 of 1-20 catch it with every move; the correct logic passes them all.
    @Test(arguments: moves) func variantIsCaughtAndCorrectLogicPasses(_ move: Move) throws {
        for seed: UInt64 in [1, 9] {
            let buggy = try Self.violations(move, seed: seed, variants: ["stepSync.advanceCursorOnFailure"])
            #expect(buggy.neverSynced > 0, "seed \(seed): the variant is not caught")
            let correct = try Self.violations(move, seed: seed, variants: [])
            #expect(correct.total == 0, "seed \(seed): the correct logic has \(correct.total) violation(s)")
        }
    }
}
