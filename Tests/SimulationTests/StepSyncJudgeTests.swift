import Testing
import Scenario
import SimKernel
@testable import Simulation

/// The step sync's retry-schedule and stale-notice judges (seed `003`), at their
/// boundaries: the schedule's exact delays, a microsecond either side, the last retry,
/// and the correct logic's notice exactly 24 h after its last success.
@Suite struct StepSyncJudgeTests {
    static let delays: [SimDuration] = [.minutes(5), .minutes(10), .minutes(15)]

    static func problem(_ after: SimDuration, failures: UInt8, _ delivering: StepsChecker.SyncTruth.Delivering = .retryableFailure) -> String? {
        StepsChecker.retryTimerProblem(after: after, failures: failures, delivering: delivering, delays: delays)
    }

    @Test func eachAttemptHasExactlyItsDelay() {
        #expect(Self.problem(.minutes(5), failures: 1) == nil)
        #expect(Self.problem(.minutes(10), failures: 2) == nil)
        #expect(Self.problem(.minutes(15), failures: 3) == nil)
        let µs = SimDuration(microseconds: 1)
        #expect(Self.problem(.minutes(5) + µs, failures: 1) == "retry timer set for 300.000001 s after failed attempt 1; the schedule says 300.0 s")
        #expect(Self.problem(.minutes(5) - µs, failures: 1) != nil)
        #expect(Self.problem(.minutes(10), failures: 1) != nil)
        #expect(Self.problem(.seconds(5), failures: 1) != nil)
    }

    /// The 4th failed attempt is the last: no timer after it; none after a 4xx, and none
    /// outside a failure's answer.
    @Test func noTimerAfterTheLastAttemptOrAClientError() {
        #expect(Self.problem(.minutes(15), failures: 4) == "retry timer set for 900.0 s after failed attempt 4; the seed stops after attempt 4")
        #expect(Self.problem(.minutes(5), failures: 1, .finalFailure) != nil)
        #expect(Self.problem(.minutes(5), failures: 1, .retryTimer) != nil)
        #expect(Self.problem(.minutes(5), failures: 1, .other) != nil)
        #expect(Self.problem(.minutes(5), failures: 0) != nil)
    }

    /// Every upload fails for two days (a backend outage from the start): the correct
    /// logic sets a retry timer after each failed attempt, the notice set by the sync
    /// before the run fires exactly 24 h after it (the judge's boundary: "at least 24 h"),
    /// and neither judge objects. (The retry timers themselves rarely fire here: an iPhone
    /// is suspended and an Android process cached within seconds of the failure, so the
    /// chains beyond the first attempt are judged by the cases above, not by this fleet.)
    @Test func correctLogicUnderAnOutageIsClean() throws {
        var s = try Fixtures.scenario("scenarios/races/retry-delays-seconds.json")
        s.logic.variants = []
        s.duration = .days(2)
        s.faults = [Fault(kind: .backendOutage, at: .zero, duration: .days(2), cohort: nil, fraction: 1)]
        var world = World(scenario: s)
        world.runToEnd()
        #expect(world.core.oracle.violations == 0)
        #expect(world.features.stepSync.metrics.staleSyncNotifications > 0)
        #expect(world.core.oracle.steps.sync.contains { $0.failures >= 1 })
    }
}
