import Testing
import SimKernel
import Platform
import AppLogic
import Backend
@testable import Simulation

/// The refresh's judges of seed `000` at their boundaries (Oracle/RefreshChecker): the
/// next request at exactly the preferred interval, a refresh exactly the minimum interval
/// after the last, a task ending exactly at the hard stop, each held, and one microsecond
/// past each caught; the conditions a history request and a notification need.
@Suite struct RefreshJudgeTests {
    /// One signed-in iPhone running the refresh, at the run's start (true time 0).
    static func world() throws -> World {
        World(scenario: try Fixtures.decode("""
        {"name": "judge", "duration": "1d", "seed": 1,
         "fleet": [{"cohort": "c", "count": 1, "platform": "ios", "features": ["refresh"], "signedIn": 1}]}
        """))
    }

    static func count(_ world: World, _ kind: ViolationKind) -> UInt64 {
        world.core.oracle.counts[ViolationKind.allCases.firstIndex(of: kind)!]
    }

    /// `earliestBeginDate` must be the device's wall clock (skew included) plus 4 h, exactly.
    @Test func theNextRequestIsExactlyThePreferredIntervalAhead() throws {
        var world = try Self.world()
        world.core.devices[0].clock.skew = .days(-3)
        let wall = world.core.devices[0].clock.wallMicroseconds(at: world.core.now, startUnixSeconds: world.core.startUnixSeconds)
        world.core.observeRefreshSubmitted(0, earliestWall: wall + SimDuration.hours(4).microseconds)
        #expect(Self.count(world, .refreshRequestDateWrong) == 0)
        world.core.observeRefreshSubmitted(0, earliestWall: wall + SimDuration.hours(4).microseconds + 1)
        world.core.observeRefreshSubmitted(0, earliestWall: wall + SimDuration.minutes(4).microseconds)
        #expect(Self.count(world, .refreshRequestDateWrong) == 2)
    }

    /// A task that asks for the history before it asked for its next refresh.
    @Test func theHistoryBeforeTheNextRequestIsCaught() throws {
        var world = try Self.world()
        world.core.devices[0].task.running = true
        world.core.observeTaskLaunched(0)
        world.core.observeHistoryRequested(0, limit: 1)
        #expect(Self.count(world, .refreshRequestDateWrong) == 1)
        let wall = world.core.devices[0].clock.wallMicroseconds(at: world.core.now, startUnixSeconds: world.core.startUnixSeconds)
        world.core.observeRefreshSubmitted(0, earliestWall: wall + SimDuration.hours(4).microseconds)
        world.core.observeHistoryRequested(0, limit: 1)
        #expect(Self.count(world, .refreshRequestDateWrong) == 1)
    }

    /// The last refresh finished exactly 12 h of true time ago: allowed; 12 h less 1 µs: too soon.
    @Test func aRefreshExactlyTheMinimumIntervalAfterTheLastIsAllowed() throws {
        var world = try Self.world()
        world.core.devices[0].task.running = true
        world.core.observeTaskLaunched(0)
        let wall = world.core.devices[0].clock.wallMicroseconds(at: world.core.now, startUnixSeconds: world.core.startUnixSeconds)
        world.core.observeRefreshSubmitted(0, earliestWall: wall + SimDuration.hours(4).microseconds)
        world.core.oracle.refresh.devices[0].lastRefreshAt = world.core.now - .hours(12)
        world.core.observeHistoryRequested(0, limit: 1)
        #expect(Self.count(world, .refreshedTooSoon) == 0)
        Self.launched(&world)
        world.core.oracle.refresh.devices[0].lastRefreshAt = world.core.now - .hours(12) + SimDuration(microseconds: 1)
        world.core.observeHistoryRequested(0, limit: 1)
        #expect(Self.count(world, .refreshedTooSoon) == 1)
        #expect(world.core.oracle.violations == 1)
    }

    /// A task that ends exactly 20 s after its launch keeps the hard stop; 20 s + 1 µs does not.
    @Test func aTaskEndingExactlyAtTheHardStopKeepsIt() throws {
        var world = try Self.world()
        world.core.devices[0].task.running = true
        world.core.devices[0].task.launchedAt = world.core.now - .seconds(20)
        world.core.observeTaskEnded(0)
        #expect(Self.count(world, .refreshPastHardStop) == 0)
        world.core.devices[0].task.launchedAt = world.core.now - .seconds(20) - SimDuration(microseconds: 1)
        world.core.observeTaskEnded(0)
        #expect(Self.count(world, .refreshPastHardStop) == 1)
    }

    /// In a run: the correct logic's slowest tasks (requests slower than 20 s) end at the
    /// hard stop's own instant, exactly 20 s after their launch, on iOS and Android, and
    /// none is judged late.
    @Test func theCorrectLogicEndsSlowTasksAtExactly20Seconds() throws {
        var s = try Fixtures.scenario("scenarios/races/hard-stop-ignored.json")
        s.logic.variants = []
        var world = World(scenario: s)
        world.runToEnd()
        #expect(world.features.refresh.metrics.taskDuration.whole.max == SimDuration.seconds(20).microseconds)
        ReadableFailures.expectNoViolation(world)
    }

    /// A task launched now, its next refresh asked for: the history request is judged
    /// on the conditions alone.
    static func launched(_ world: inout World) {
        world.core.devices[0].task.running = true
        world.core.observeTaskLaunched(0)
        let wall = world.core.devices[0].clock.wallMicroseconds(at: world.core.now, startUnixSeconds: world.core.startUnixSeconds)
        world.core.observeRefreshSubmitted(0, earliestWall: wall + SimDuration.hours(4).microseconds)
    }

    /// The latest test alone: `limit=1` holds, `limit=2` does not.
    @Test func theHistoryIsTheLatestTestAlone() throws {
        var world = try Self.world()
        Self.launched(&world)
        world.core.observeHistoryRequested(0, limit: 1)
        ReadableFailures.expectNoViolation(world)
        Self.launched(&world)
        world.core.observeHistoryRequested(0, limit: 2)
        #expect(Self.count(world, .historyNotLimitOne) == 1 && world.core.oracle.violations == 1)
    }

    /// Signed out both at the launch and now is caught; signed in at either is not (a
    /// sign-out the task's own 401 made comes after its history request).
    @Test func aSignedOutRequestNeedsSignedOutAtLaunchAndNow() throws {
        var world = try Self.world()
        Self.launched(&world)
        world.core.devices[0].signedIn = false
        world.core.observeHistoryRequested(0, limit: 1)
        ReadableFailures.expectNoViolation(world)
        Self.launched(&world)
        world.core.observeHistoryRequested(0, limit: 1)
        #expect(Self.count(world, .refreshWhileSignedOut) == 1 && world.core.oracle.violations == 1)
    }

    /// Offline at the request is caught.
    @Test func anOfflineRequestIsCaught() throws {
        var world = try Self.world()
        Self.launched(&world)
        world.core.observeHistoryRequested(0, limit: 1)
        Self.launched(&world)
        world.core.devices[0].offlineSpells = 1
        world.core.observeHistoryRequested(0, limit: 1)
        #expect(Self.count(world, .refreshRequestWhileOffline) == 1 && world.core.oracle.violations == 1)
    }

    /// Posting needs the permission at the launch or now: denied at both is caught,
    /// provisional (delivered quietly) is allowed, and a permission granted during the task is too.
    @Test func postingNeedsThePermissionAtLaunchOrNow() throws {
        var world = try Self.world()
        world.core.devices[0].notificationCenter = NotificationCenterModel(authorization: .denied)
        Self.launched(&world)
        world.core.observeRefreshPosts(0)
        #expect(Self.count(world, .postedWithoutPermission) == 1)
        world.core.devices[0].notificationCenter = NotificationCenterModel(authorization: .provisional)
        world.core.observeRefreshPosts(0)
        world.core.devices[0].notificationCenter = NotificationCenterModel(authorization: .notDetermined)
        Self.launched(&world)
        world.core.devices[0].notificationCenter = NotificationCenterModel(authorization: .authorized)
        world.core.observeRefreshPosts(0)
        #expect(world.core.oracle.violations == 1)
    }

    /// The completed event's duration is the task's true time from its launch, exactly.
    @Test func theCompletedEventCarriesTheTasksOwnDuration() throws {
        var world = try Self.world()
        world.core.devices[0].task.launchedAt = world.core.now - .seconds(7)
        world.core.observeRefreshCompletedEvent(0, duration: SimDuration.seconds(7).microseconds)
        ReadableFailures.expectNoViolation(world)
        world.core.observeRefreshCompletedEvent(0, duration: SimDuration.seconds(7).microseconds - 1)
        world.core.observeRefreshCompletedEvent(0, duration: 0)
        #expect(Self.count(world, .refreshAnalyticsWrong) == 2 && world.core.oracle.violations == 2)
    }

    /// One history request a task: the second in the same task is a retry; the next
    /// task's first is not.
    @Test func aSecondHistoryRequestInOneTaskIsARetry() throws {
        var world = try Self.world()
        Self.launched(&world)
        world.core.observeHistoryRequested(0, limit: 1)
        ReadableFailures.expectNoViolation(world)
        world.core.observeHistoryRequested(0, limit: 1)
        #expect(Self.count(world, .refreshRequestRetried) == 1 && world.core.oracle.violations == 1)
        Self.launched(&world)
        world.core.observeHistoryRequested(0, limit: 1)
        #expect(world.core.oracle.violations == 1)
    }

    /// A task that got a 401 completes signed out with no next refresh pending; signed
    /// in, or with the next refresh still pending, is caught; a task without a 401 is not judged.
    @Test func aTaskThatGotA401EndsSignedOutAndUnscheduled() throws {
        var world = try Self.world()
        Self.launched(&world)
        world.core.devices[0].task.completions = 1
        world.features.refresh.observeTaskCompleted(0, success: false, requestPending: true, core: world.core)
        ReadableFailures.expectNoViolation(world)
        world.core.observeRefreshUnauthorized(0)
        world.core.devices[0].signedIn = false
        world.features.refresh.observeTaskCompleted(0, success: false, requestPending: false, core: world.core)
        ReadableFailures.expectNoViolation(world)
        world.features.refresh.observeTaskCompleted(0, success: false, requestPending: true, core: world.core)
        world.core.devices[0].signedIn = true
        world.features.refresh.observeTaskCompleted(0, success: false, requestPending: false, core: world.core)
        #expect(Self.count(world, .unauthorizedNotSignedOut) == 2 && world.core.oracle.violations == 2)
    }

    /// The active session only in a task whose history answer saw a window truly open:
    /// before any answer, or after one that saw none, it is caught.
    @Test func theActiveSessionNeedsAWindowTheHistorySawOpen() throws {
        var world = try Self.world()
        Self.launched(&world)
        world.core.observeActiveSessionRequested(0)
        world.core.observeHistoryReceived(0, openWindow: RefreshSlot.noWindow)
        world.core.observeActiveSessionRequested(0)
        #expect(Self.count(world, .activeSessionNotNeeded) == 2)
        world.core.observeHistoryReceived(0, openWindow: 0)
        world.core.observeActiveSessionRequested(0)
        #expect(Self.count(world, .activeSessionNotNeeded) == 2 && world.core.oracle.violations == 2)
    }

    /// `activeSessionNotNeeded`'s risk: the logic's availability (the server's time minus
    /// the latest completion, at least the cadence) and the truth's at the server's answer
    /// (what ``RefreshHost/serve(_:user:serverTime:core:)`` records) agree at the 90-day
    /// boundary and 1 µs either side, the answer's instants built as the world builds them.
    @Test func theHistorysAvailabilityIsTheTruthsAtTheBoundary() {
        let startMicroseconds: Int64 = 1_772_409_600 * 1_000_000
        let completed = SimTime(microseconds: -5_000_000)
        let truth = TestAvailabilityTruth(cadence: .days(90), lastCompleted: [completed])
        let logic = RefreshLogic()
        for offset: Int64 in [-1, 0, 1] {
            let t = truth.availableAt(0) + SimDuration(microseconds: offset)
            let now = DeviceTime(wall: Instant(unixMicroseconds: startMicroseconds + t.microseconds), sinceBoot: .hours(1), boot: 1)
            var state = RefreshState()
            var effects: [RefreshEffect] = []
            logic.handle(.taskLaunched(RefreshLaunchContext(signedIn: true, networkReachable: true, notificationAuthorization: .authorized, timeZoneIdentifier: "UTC")),
                         state: &state, now: now, into: &effects)
            effects.removeAll()
            let answer = HTTPResult.ok(.testHistory(latestCompletedAt: Instant(unixMicroseconds: startMicroseconds + completed.microseconds),
                                                    serverTime: Instant(unixMicroseconds: startMicroseconds + t.microseconds)))
            logic.handle(.httpResponse(RequestID(1), answer), state: &state, now: now, into: &effects)
            #expect(effects.contains(.httpRequest(RequestID(2), .activeSession)) == truth.isAvailable(0, at: t), "\(offset) µs from the boundary")
        }
    }

    /// A post in a task whose active-session answer said a test was in progress is
    /// caught; the next task, without that answer, posts freely.
    @Test func aNotificationDuringATestIsCaught() throws {
        var world = try Self.world()
        world.core.devices[0].notificationCenter = NotificationCenterModel(authorization: .authorized)
        Self.launched(&world)
        world.core.observeRefreshPosts(0)
        ReadableFailures.expectNoViolation(world)
        world.core.observeTestInProgressAnswered(0)
        world.core.observeRefreshPosts(0)
        #expect(Self.count(world, .notifiedDuringTest) == 1)
        Self.launched(&world)
        world.core.observeRefreshPosts(0)
        #expect(world.core.oracle.violations == 1)
    }
}
