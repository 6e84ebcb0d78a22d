import Testing
import SimKernel
import AppLogic
@testable import Simulation

/// The routing and registry judges of seed `001` at their boundaries (Oracle/PushRoutingChecker):
/// a normal push exactly 5 min after an open is one too early and 5 min + 1 µs is not; a
/// first send exactly 8 days after the token's validation is in time and 1 µs later is
/// not; a token unused for exactly 90 days may go inactive and 1 µs less may not; a purge
/// 180 days after the expiry needs the notice in the same input.
@Suite struct PushRoutingJudgeTests {
    /// One iPhone running push, at the run's start (true time 0).
    static func world() throws -> World {
        World(scenario: try Fixtures.decode("""
        {"name": "judge", "duration": "1d", "seed": 1,
         "fleet": [{"cohort": "c", "count": 1, "platform": "ios", "features": ["push"],
                    "push": {"quietHours": {"none": 1}, "optOut": {"assignments": 0}}}]}
        """))
    }

    static func count(_ world: World, _ kind: ViolationKind) -> UInt64 {
        world.core.oracle.counts[ViolationKind.allCases.firstIndex(of: kind)!]
    }

    static let token = PushToken(device: PushDeviceID(0), generation: 1, provider: .apns)

    static func alert(_ n: Int) -> PushPayload {
        PushPayload(content: .alert(NotificationID(UInt64(n)), title: "t", body: "b", threadId: "assignments"), badge: 1, bytes: 60)
    }

    @Test func aNormalPushExactlyTheActivityWindowAfterAnOpenIsCaught() throws {
        var world = try Self.world()
        world.features.push.ledger.append(PushLedgerEntry(createdAt: world.core.now, user: 0, via: 0, priority: .normal, category: 0))
        world.core.oracle.refresh.devices[0].lastTrueOpen = world.core.now - .minutes(5)
        world.features.push.observePushRouting(user: 0, device: 0, PushSendID(1), Self.token, Self.alert(0), core: world.core)
        #expect(Self.count(world, .normalPushWhileActive) == 1)
        world.core.oracle.refresh.devices[0].lastTrueOpen = world.core.now - .minutes(5) - SimDuration(microseconds: 1)
        world.features.push.observePushRouting(user: 0, device: 0, PushSendID(2), Self.token, Self.alert(0), core: world.core)
        #expect(Self.count(world, .normalPushWhileActive) == 1)
        #expect(world.core.oracle.violations == 1)
    }

    @Test func theFirstSendExactlyEightDaysAfterTheValidationIsInTime() throws {
        var world = try Self.world()
        let now = world.core.now
        world.core.oracle.push.rules[0].token = PushTokenTruth(since: now - .days(8), usedAt: now, registered: 1,
                                                           status: PushTokenStatus.active.rawValue + 1)
        world.features.push.observePushRouting(user: 0, device: 0, PushSendID(1), Self.token,
                                               PushPayload(content: .validation, badge: 0, bytes: 41), core: world.core)
        #expect(Self.count(world, .tokenValidationLate) == 0)
        world.core.oracle.push.rules[0].token.since = now - .days(8) - SimDuration(microseconds: 1)
        world.core.oracle.push.rules[0].token.flags = []
        world.features.push.observePushRouting(user: 0, device: 0, PushSendID(2), Self.token,
                                               PushPayload(content: .validation, badge: 0, bytes: 41), core: world.core)
        #expect(Self.count(world, .tokenValidationLate) == 1)
    }

    @Test func aTokenGoesInactiveOnlyAfterNinetyDaysUnused() throws {
        var world = try Self.world()
        let now = world.core.now
        world.core.oracle.push.rules[0].token = PushTokenTruth(since: now, usedAt: now - .days(90), registered: 1,
                                                           status: PushTokenStatus.active.rawValue + 1)
        world.features.push.observeTokenMarked(user: 0, Self.token, .inactive, core: world.core)
        #expect(Self.count(world, .registryCleanupWrong) == 0)
        world.core.oracle.push.rules[0].token.usedAt = now - .days(90) + SimDuration(microseconds: 1)
        world.features.push.observeTokenMarked(user: 0, Self.token, .inactive, core: world.core)
        #expect(Self.count(world, .registryCleanupWrong) == 1)
    }

    @Test func aPurgeNeedsTheNoticeInTheSameInput() throws {
        var world = try Self.world()
        let now = world.core.now
        // Expired by the judge's own truth (its validation push failed every retry), not
        // only by the status the registry wrote.
        let expired = PushTokenTruth(since: now - .days(180), usedAt: now - .days(181), registered: 1,
                                     status: PushTokenStatus.expired.rawValue + 1, flags: .validationGaveUp)
        world.core.oracle.push.rules[0].token = expired
        world.features.push.observeRouterInput(0, .timerFired(.daily), core: world.core)
        world.features.push.observePurgeNotice(user: 0, core: world.core)
        world.features.push.observePurge(user: 0, core: world.core)
        #expect(Self.count(world, .registryCleanupWrong) == 0)
        world.core.oracle.push.rules[0].token = expired
        world.features.push.observePurgeNotice(user: 0, core: world.core)
        world.features.push.observeRouterInput(0, .timerFired(.daily), core: world.core)
        world.features.push.observePurge(user: 0, core: world.core)
        #expect(Self.count(world, .registryCleanupWrong) == 1)
        world.core.oracle.push.rules[0].token = expired
        world.core.oracle.push.rules[0].token.since = now - .days(180) + SimDuration(microseconds: 1)
        world.features.push.observeRouterInput(0, .timerFired(.daily), core: world.core)
        world.features.push.observePurgeNotice(user: 0, core: world.core)
        world.features.push.observePurge(user: 0, core: world.core)
        #expect(Self.count(world, .registryCleanupWrong) == 2)
        // Expired by the registry only (no 410, no failed validation): a wrong purge.
        world.core.oracle.push.rules[0].token = expired
        world.core.oracle.push.rules[0].token.flags = []
        world.features.push.observeRouterInput(0, .timerFired(.daily), core: world.core)
        world.features.push.observePurgeNotice(user: 0, core: world.core)
        world.features.push.observePurge(user: 0, core: world.core)
        #expect(Self.count(world, .registryCleanupWrong) == 3)
    }
}
