import Testing
import Scenario
import SimKernel
import AppLogic
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
        ReadableFailures.expectNoViolation(world)
        #expect(world.features.stepSync.metrics.staleSyncNotifications > 0)
        #expect(world.core.oracle.steps.devices.contains { $0.sync.failures >= 1 })
    }

    // MARK: - The cadence, the open sync and the backfill's reach

    /// One signed-in iPhone running the step sync, well charged, at the run's start.
    static func world() throws -> World {
        World(scenario: try Fixtures.decode("""
        {"name": "judge", "duration": "1d", "seed": 1,
         "fleet": [{"cohort": "c", "count": 1, "platform": "ios", "features": ["stepSync"], "signedIn": 1,
                    "battery": {"initialPercent": 80}, "settings": {"lowPowerMode": 0}}]}
        """))
    }

    static func count(_ world: World, _ kind: ViolationKind) -> UInt64 {
        world.core.oracle.counts[ViolationKind.allCases.firstIndex(of: kind)!]
    }

    /// A HealthKit delivery may start a sync exactly 2 h after the last successful one
    /// started, an open exactly 24 h after, periodic work at any age; 1 µs sooner is
    /// caught, as is periodic work asked for at another interval.
    @Test func eachTriggerStartsASyncOnlyAfterItsAge() throws {
        var world = try Self.world()
        let µs = SimDuration(microseconds: 1), now = world.core.now
        func start(_ trigger: StepsChecker.SyncTruth.Delivering, lastSuccessAgo age: SimDuration) {
            world.core.oracle.steps.devices[0].cadence.lastSuccessStartedAt = now - age
            world.core.oracle.steps.devices[0].sync.delivering = trigger
            world.features.stepSync.observeSyncCadence(0, core: world.core)
        }
        start(.healthDelivery, lastSuccessAgo: .hours(2))
        start(.refreshLaunch, lastSuccessAgo: .hours(2))
        start(.open, lastSuccessAgo: .hours(24))
        start(.periodicWork, lastSuccessAgo: .zero)
        start(.retryTimer, lastSuccessAgo: .zero)
        ReadableFailures.expectNoViolation(world)
        start(.healthDelivery, lastSuccessAgo: .hours(2) - µs)
        start(.open, lastSuccessAgo: .hours(24) - µs)
        #expect(Self.count(world, .stepSyncTooSoon) == 2)
        world.features.stepSync.observePeriodicWorkInterval(0, .hours(2), core: world.core)
        world.features.stepSync.observePeriodicWorkInterval(0, .minutes(2), core: world.core)
        #expect(Self.count(world, .stepSyncTooSoon) == 3 && world.core.oracle.violations == 3)
    }

    /// An open is due to sync from exactly 24 h after the last successful sync started,
    /// when nothing is in flight and the device allows it; a due open that starts no
    /// sync is caught, one that starts one is not.
    @Test func anOpenDueToSyncMustStartOne() throws {
        var world = try Self.world()
        let now = world.core.now
        world.core.oracle.steps.devices[0].cadence.lastSuccessStartedAt = now - .hours(24)
        #expect(world.features.stepSync.openSyncIsDue(0, core: world.core))
        world.core.oracle.steps.devices[0].sync.openSyncDue = true
        world.features.stepSync.observeOpenDelivered(0, core: world.core)
        #expect(Self.count(world, .openSyncMissed) == 1)
        world.core.oracle.steps.devices[0].sync.openSyncDue = true
        world.features.stepSync.observeSyncCadence(0, core: world.core)
        world.features.stepSync.observeOpenDelivered(0, core: world.core)
        #expect(world.core.oracle.violations == 1)
        world.core.oracle.steps.devices[0].cadence.lastSuccessStartedAt = now - .hours(24) + SimDuration(microseconds: 1)
        #expect(!world.features.stepSync.openSyncIsDue(0, core: world.core))
        world.core.oracle.steps.devices[0].cadence.lastSuccessStartedAt = now - .hours(30)
        world.features.stepSync.slots[0].job = 0
        #expect(!world.features.stepSync.openSyncIsDue(0, core: world.core), "an upload in flight covers the open")
        world.features.stepSync.slots[0].job = -1
        world.core.devices[0].offlineSpells = 1
        #expect(!world.features.stepSync.openSyncIsDue(0, core: world.core))
        world.core.devices[0].offlineSpells = 0
        world.core.devices[0].signedIn = false
        #expect(!world.features.stepSync.openSyncIsDue(0, core: world.core))
    }

    /// An upload may reach back to the device's date 30 days before its clock now, not a
    /// day further; a clock set 3 days back moves that date with it.
    @Test func anUploadReachesBackAtMostTheBackfillLimit() throws {
        var world = try Self.world()
        func send(from day: Int32) {
            let upload = StepUpload(method: .upsert, source: .healthKit, days: [DailySteps(date: LocalDate(daysSince1970: day + 1), steps: 5),
                                                                             DailySteps(date: LocalDate(daysSince1970: day), steps: 5)])
            world.features.stepSync.observeUploadReach(0, upload, core: world.core)
        }
        var first = world.core.oracleDeviceDay(0, at: world.core.now - .days(30))
        send(from: first)
        ReadableFailures.expectNoViolation(world)
        send(from: first - 1)
        #expect(Self.count(world, .stepsBackfilledTooFar) == 1)
        world.core.devices[0].clock.skew = .days(-3)
        first = world.core.oracleDeviceDay(0, at: world.core.now - .days(30))
        send(from: first)
        send(from: first - 1)
        #expect(Self.count(world, .stepsBackfilledTooFar) == 2 && world.core.oracle.violations == 2)
    }
}
