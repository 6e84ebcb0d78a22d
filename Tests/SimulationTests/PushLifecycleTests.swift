import Testing
import Scenario
import Reports
import Platform
@testable import Simulation

/// The token lifecycle as workload (uninstalls and token changes, `fleet[].push`) and the
/// iOS silent-push throttle's held deliveries, in the world.
@Suite struct PushLifecycleTests {
    /// `count` phones (iPhones unless `platform` says) that push only, all authorized, no quiet hours, no offline spells, no
    /// opens from a push (the only opens are `opensPerDay`),
    /// `assignmentDue` notifications (normal) at `perDay`, and no token events unless set.
    static func scenario(count: Int, duration: String, opensPerDay: Double, perDay: Double,
                         priority: String = "normal", rotations: Double = 0, reinstalls: Double = 0,
                         platform: String = "ios") throws -> Scenario {
        try Fixtures.decode("""
        {"name": "lifecycle", "duration": "\(duration)", "seed": 3,
         "fleet": [{"cohort": "c", "count": \(count), "platform": "\(platform)", "features": ["push"],
           "usage": {"appOpensPerDay": \(opensPerDay)}, "network": {"offlineSpellsPerDay": 0},
           "settings": {"notificationPermission": {"authorized": 1}, "lowPowerMode": 0},
           "push": {"quietHours": {"none": 1}, "openProbability": 0, "optOut": {"challenges": 0, "announcements": 0},
             "sources": {"assignmentDue": {"perDay": \(perDay), "priority": {"\(priority)": 1}},
                         "teacherFeedback": {"perDay": 0}, "challenge": {"perDay": 0}, "announcement": {"perDay": 0}},
             "tokenRotationsPerMonth": \(rotations), "reinstallsPerMonth": \(reinstalls)}}]}
        """)
    }

    static func count(_ r: ReportValue, _ path: String) -> Int64 { r.lookup(path)?.intValue ?? -1 }

    static func run(_ s: Scenario) throws -> ReportValue {
        var world = World(scenario: s)
        world.runToEnd()
        return try world.report().report
    }

    /// An uninstall makes APNs answer 410: the registry expires the token, and the open
    /// that reinstalls the app registers a new token and revokes the old one. So every
    /// registration beyond the first of each phone is a reinstall, and every reinstall
    /// revokes one token; the correct pipeline never sends to a token reported gone.
    @Test func uninstallGives410AndTheReinstallRegistersANewToken() throws {
        let r = try Self.run(try Self.scenario(count: 20, duration: "2d", opensPerDay: 2, perDay: 24, reinstalls: 60))
        let uninstalls = Self.count(r, "push.tokens.uninstalls")
        let reinstalls = Self.count(r, "push.tokens.reinstalls")
        #expect(uninstalls > 0)
        #expect(reinstalls > 0 && reinstalls <= uninstalls)
        #expect(Self.count(r, "push.tokens.registrations") == 20 + reinstalls)
        #expect(Self.count(r, "push.tokens.marked.revoked") == reinstalls)
        #expect(Self.count(r, "push.tokens.rotations") == 0)
        #expect(Self.count(r, "backend.pushes.apns.rejectedByStatus.410") > 0)
        #expect(Self.count(r, "push.tokens.marked.expired") > 0)
        #expect(Self.count(r, "push.failuresByReason.unregistered") > 0)
        ReadableFailures.expectNoViolation(report: r)
        #expect(Self.count(r, "push.outcomes.lost") == 0)
        #expect(Self.count(r, "push.accounted") == Self.count(r, "push.created.total"))
    }

    /// A new APNs token reaches the server only at the app's next launch: without opens,
    /// the old token answers 410 and is expired, and nothing registers the new one.
    @Test func anAPNsTokenChangeWithoutALaunchEndsIn410() throws {
        let r = try Self.run(try Self.scenario(count: 20, duration: "2d", opensPerDay: 0, perDay: 24, rotations: 60))
        #expect(Self.count(r, "push.tokens.rotations") > 0)
        #expect(Self.count(r, "push.tokens.registrations") == 20)
        #expect(Self.count(r, "push.tokens.marked.revoked") == 0)
        #expect(Self.count(r, "backend.pushes.apns.rejectedByStatus.410") > 0)
        #expect(Self.count(r, "push.tokens.marked.expired") > 0)
        ReadableFailures.expectNoViolation(report: r)
        #expect(Self.count(r, "push.outcomes.lost") == 0)
    }

    /// FCM tells the app of its new token (`onTokenRefresh`) and the app uploads it at once:
    /// every token change is a registration that revokes the old token, without a launch,
    /// and sends to the old token stop.
    @Test func anFCMTokenChangeIsRegisteredAtOnce() throws {
        let r = try Self.run(try Self.scenario(count: 20, duration: "2d", opensPerDay: 0, perDay: 24, rotations: 60, platform: "android"))
        let rotations = Self.count(r, "push.tokens.rotations")
        #expect(rotations > 0)
        #expect(Self.count(r, "push.tokens.registrations") == 20 + rotations)
        #expect(Self.count(r, "push.tokens.marked.revoked") == rotations)
        #expect(Self.count(r, "push.tokens.marked.expired") == 0)
        ReadableFailures.expectNoViolation(report: r)
        #expect(Self.count(r, "push.outcomes.lost") == 0)
    }

    /// The same with `push.ignore410`: the token stays active and the next notification
    /// goes to a token APNs reported unregistered.
    @Test func ignoring410SendsToTheChangedTokenAgain() throws {
        var s = try Self.scenario(count: 20, duration: "2d", opensPerDay: 0, perDay: 24, rotations: 60)
        s.logic.variants = ["push.ignore410"]
        #expect(Self.count(try Self.run(s), "invariants.byKind.pushSentToUnregisteredToken") > 0)
    }

    /// 10 badge-only silent pushes an hour (each low-priority notification changes the
    /// unread count) to one phone for a day: the throttle (3 at once, 3 an hour, docs/platform-facts.md
    /// F) holds the excess, and each held delivery happens when its turn comes, so the app
    /// is woken about 3 + 3 × 24 = 75 times, not only the first 3.
    /// A silent push that reaches the app in the background is a real wake: one
    /// `pushHandling` operation costing the launch (docs/model.md, `energy.coldLaunch`,
    /// `energy.resume`: 0.4 s, then 0.1 s, of 150 mA × 3.85 V = 0.5775 W), the app then
    /// suspended (`ios.suspensionDelay`, 0 s). No opens: the first wake starts the app cold
    /// (0.231 J), every later one resumes it (0.05775 J); a push every 6 min on average never
    /// finds it running. Each wake is one of the cohort's wakeups (no task launches here).
    @Test func aSilentPushWakeCostsItsLaunchAsPushHandling() throws {
        var world = World(scenario: try Self.scenario(count: 1, duration: "1d", opensPerDay: 0, perDay: 240, priority: "low"))
        world.runToEnd()
        let wakes = Double(world.features.push.metrics.silentWakes)
        #expect(wakes > 60)
        let ledger = world.core.devices[0].ledger
        let pushHandling = ledger.appJoulesByOperation[Int(EnergyOperation.pushHandling.rawValue)]
        #expect(abs(pushHandling - (0.231 + (wakes - 1) * 0.05775)) < 1e-9)
        #expect(ledger.appJoules == pushHandling)
        #expect(world.core.devices[0].process == .suspended)
        let report = try world.report().report
        #expect(report.lookup("battery.c.wakeupsPerDeviceDay.mean")?.doubleValue == wakes)
    }

    @Test func heldSilentPushesAreDeliveredWhenTheThrottleAllows() throws {
        let r = try Self.run(try Self.scenario(count: 1, duration: "1d", opensPerDay: 0, perDay: 240, priority: "low"))
        let immediate = Self.count(r, "push.display.silent.delivered")
        let later = Self.count(r, "push.display.silent.deliveredAfterWait")
        #expect(Self.count(r, "push.display.silent.coalesced") > 100)
        #expect(later > 60)
        #expect(immediate + later >= 72 && immediate + later <= 75)
        #expect(Self.count(r, "push.display.silent.droppedAfterWait") == 0)
    }
}
