import Testing
import Foundation
import Scenario
import Reports
import AppLogic
@testable import SimKernel
@testable import Simulation

/// The push pipeline in the world (seed `001`): the broadcast scenario accounts for every
/// notification, runs are byte-identical, and the world's rules at their boundaries.
@Suite struct PushWorldTests {
    static func run(_ scenario: Scenario) throws -> (world: World, report: ReportValue) {
        var world = World(scenario: scenario)
        world.runToEnd()
        return (world, try world.report().report)
    }

    static func count(_ r: ReportValue, _ path: String) -> Int64 { r.lookup(path)?.intValue ?? -1 }

    /// 10 phones of the broadcast scenario that allow notifications, create none of their
    /// own, opt out of nothing and never open the app: only the broadcasts reach them.
    /// Seed 3: no phone is opened from a notification either (a refresh's "test available"
    /// opens one phone within the 6 h on about half the seeds, seed 1 among them since
    /// 0.2.0, and its badge update is one more send).
    static func quietPhones() throws -> Scenario {
        var s = try Fixtures.scenario("scenarios/broadcast.json").scaled(by: 0.0001)
        s.seed = 3
        s.fleet[0].settings.notificationPermission = Categorical([(value: .authorized, weight: 1)])
        s.fleet[0].push.sources = s.fleet[0].push.sources.map { var c = $0; c.perDay = 0; return c }
        s.fleet[0].push.optOut = [0, 0, 0, 0]
        s.fleet[0].usage.appOpensPerDay = 0
        return s
    }

    /// `scenarios/broadcast.json` at 1 % (1,000 phones): every created notification is in
    /// exactly one outcome, none is lost, the error burst caused retries and email
    /// fallbacks, and the broadcast queued behind the provider's streams.
    @Test func broadcastAccountsForEveryNotification() throws {
        let (_, r) = try Self.run(try Fixtures.scenario("scenarios/broadcast.json").scaled(by: 0.01))
        let created = Self.count(r, "push.created.total")
        #expect(Self.count(r, "push.created.bySource.broadcast") == 1_000)
        let outcomes = ["delivered", "emailed", "expired", "suppressed", "failed", "droppedByProvider", "inFlight", "lost"]
        #expect(outcomes.map { Self.count(r, "push.outcomes.\($0)") }.reduce(0, +) == created)
        #expect(Self.count(r, "push.accounted") == created)
        #expect(Self.count(r, "push.outcomes.lost") == 0)
        ReadableFailures.expectNoViolation(report: r)
        #expect(Self.count(r, "push.retries") > 0)
        #expect(Self.count(r, "push.emailFallbacks.allDevicesFailed") > 0)
        #expect(Self.count(r, "backend.pushes.apns.rejectedByStatus.503") > 0)
        #expect(Self.count(r, "backend.pushes.apns.peakQueueDepth") > 0)
        #expect(Self.count(r, "latency.pushCreatedToDelivered.high.count") > 0)
    }

    /// The same scenario and seed give the same report bytes.
    @Test func pushRunsAreDeterministic() throws {
        let scenario = try Fixtures.scenario("scenarios/broadcast.json").scaled(by: 0.005)
        let a = JSONWriter.encode(try Self.run(scenario).report)
        let b = JSONWriter.encode(try Self.run(scenario).report)
        #expect(a == b)
    }

    /// An APNs outage answers nothing: every send times out after 30 s (seed `001`), is
    /// retried 3 times (1 s, 5 s, 25 s) and then falls back to email; 4 timeouts per
    /// notification, each one answered exactly at the 30 s timeout.
    @Test func providerOutageTimesOutAtThirtySecondsThenFallsBackToEmail() throws {
        var s = try Self.quietPhones()
        s.fleet[0].push.emailEnabled = 1
        s.faults = [Fault(kind: .pushProviderOutage(provider: "apns"), at: .zero, duration: .hours(6), cohort: nil, fraction: 1)]
        let (_, r) = try Self.run(s)
        #expect(Self.count(r, "push.created.total") == 10)
        #expect(Self.count(r, "backend.pushes.apns.timedOut") == 40)
        #expect(r.lookup("backend.pushes.apns.latency.max")?.doubleValue == 30)
        #expect(Self.count(r, "push.failuresByReason.timedOut") == 10)
        #expect(Self.count(r, "push.emailFallbacks.allDevicesFailed") == 10)
        #expect(Self.count(r, "push.outcomes.emailed") == 10)
    }

    /// `logic.push` reaches the world's router: with a 10 s provider timeout and one retry
    /// after 2 s, an outage gives 2 timeouts per notification, each answered at 10 s.
    @Test func logicPushConfiguresTheWorldsRouter() throws {
        var s = try Self.quietPhones()
        s.fleet[0].push.emailEnabled = 1
        s.logic.push.providerTimeout = .seconds(10)
        s.logic.push.retryDelays = [.seconds(2)]
        s.faults = [Fault(kind: .pushProviderOutage(provider: "apns"), at: .zero, duration: .hours(6), cohort: nil, fraction: 1)]
        let (_, r) = try Self.run(s)
        #expect(Self.count(r, "push.created.total") == 10)
        #expect(Self.count(r, "backend.pushes.apns.timedOut") == 20)
        #expect(r.lookup("backend.pushes.apns.latency.max")?.doubleValue == 10)
        #expect(Self.count(r, "push.emailFallbacks.allDevicesFailed") == 10)
    }

    /// Without permission no token is registered: the notification gets no push
    /// (`noActiveDevice`) and is accounted as suppressed.
    @Test func deniedPermissionRegistersNoToken() throws {
        var s = try Fixtures.scenario("scenarios/broadcast.json").scaled(by: 0.0001)
        s.fleet[0].settings.notificationPermission = Categorical([(value: .denied, weight: 1)])
        s.fleet[0].push.sources = s.fleet[0].push.sources.map { var c = $0; c.perDay = 0; return c }
        s.fleet[0].push.optOut = [0, 0, 0, 0]
        let (_, r) = try Self.run(s)
        #expect(Self.count(r, "push.tokens.registrations") == 0)
        #expect(Self.count(r, "push.suppressedByReason.noActiveDevice") == 10)
        #expect(Self.count(r, "push.outcomes.suppressed") == 10)
        #expect(Self.count(r, "push.sends") == 0)
    }

    /// APNs stores one notification per app while the phone is offline (docs/platform-facts.md G):
    /// two broadcasts sent at one instant to offline phones leave only the second stored,
    /// and the first is accounted as dropped by the provider, not lost, although it was
    /// replaced while its send still awaited APNs's answer (found by `explore`, seed 6).
    @Test func aNotificationReplacedInAPNsStorageIsAccountedAsDropped() throws {
        var s = try Self.quietPhones()
        s.broadcasts = [s.broadcasts[0], s.broadcasts[0]]
        s.faults = [Fault(kind: .networkOutage, at: .hours(1), duration: .hours(2), cohort: nil, fraction: 1)]
        let (_, r) = try Self.run(s)
        #expect(Self.count(r, "push.created.total") == 20)
        #expect(Self.count(r, "push.outcomes.droppedByProvider") == 10)
        #expect(Self.count(r, "push.outcomes.delivered") == 10)
        #expect(Self.count(r, "push.outcomes.lost") == 0)
        ReadableFailures.expectNoViolation(report: r)
    }

    /// Every accepted message is released exactly once, when it reached the phone or
    /// ended: the first broadcast's ten, stored through the outage and replaced by the
    /// second's (APNs keeps one), and the second's ten, handed over after it. A message
    /// released twice traps; one never released stays live.
    @Test func everyMessageIsReleasedOnceItReachedThePhoneOrEnded() throws {
        var s = try Self.quietPhones()
        s.broadcasts = [s.broadcasts[0], s.broadcasts[0]]
        s.faults = [Fault(kind: .networkOutage, at: .hours(1), duration: .hours(2), cohort: nil, fraction: 1)]
        let (world, _) = try Self.run(s)
        #expect(world.features.push.messages.count >= 20)
        #expect(world.features.push.truth.allSatisfy { $0.stored.isEmpty })
        #expect(world.features.push.messages.live.reduce(0) { $0 + Int($1) } == 0)
    }

    /// Each provider's gateway holds its own platform's phones only, numbered in fleet
    /// order: the default scenario's mixed fleet (iPhones and Android phones interleaved
    /// by cohort) gives every push user the count of earlier users on its provider.
    @Test func eachGatewayNumbersItsOwnPlatformsPhones() throws {
        let world = World(scenario: try Fixtures.scenario("scenarios/default.json").scaled(by: 0.02))
        var next: [PushProvider: UInt32] = [.apns: 0, .fcm: 0]
        for (u, truth) in world.features.push.truth.enumerated() {
            #expect(world.features.push.gatewayDevice[u] == next[truth.provider])
            next[truth.provider]! += 1
        }
        #expect(next[.apns]! > 0 && next[.fcm]! > 0 && next[.apns]! + next[.fcm]! == UInt32(world.features.push.users.count))
    }
}
