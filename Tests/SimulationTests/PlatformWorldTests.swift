import Testing
import SimKernel
import Scenario
@testable import Simulation

/// The platform models in the world (docs/model-platforms.md), judged on whole runs.
@Suite struct PlatformWorldTests {
    /// iOS (`docs/platform-facts.md` F): Low Power Mode and Background App Refresh off give zero
    /// refresh launches; the same users with both on get launches.
    @Test func lowPowerModeOrBackgroundAppRefreshOffGetZeroLaunches() throws {
        let cohort = #""platform": "ios", "features": ["refresh"], "usage": {"appOpensPerDay": 3}"#
        var world = World(scenario: try Fixtures.decode("""
        {"name": "ios-rules", "duration": "3d", "seed": 5,
         "fleet": [{"cohort": "lpm", "count": 40, \(cohort), "settings": {"backgroundAppRefresh": 1, "lowPowerMode": 1}},
                   {"cohort": "bar-off", "count": 40, \(cohort), "settings": {"backgroundAppRefresh": 0, "lowPowerMode": 0}},
                   {"cohort": "on", "count": 40, \(cohort), "settings": {"backgroundAppRefresh": 1, "lowPowerMode": 0}}]}
        """))
        world.runToEnd()
        let launches = world.core.devices.map { Int($0.launches) }
        #expect(launches[0..<40].reduce(0, +) == 0)
        #expect(launches[40..<80].reduce(0, +) == 0)
        #expect(launches[80..<120].reduce(0, +) > 40)
        #expect(world.core.metrics.launchesHeldBack > 0)
        #expect(world.core.metrics.submitUnavailable >= 40)
    }

    /// A force-quit app gets no background launch until the user opens it again
    /// (`docs/platform-facts.md` F), read from each device's own story.
    @Test func aForceQuitAppGetsNoLaunchUntilReopened() throws {
        let scenario = try Fixtures.decode("""
        {"name": "force-quit", "duration": "4d", "seed": 8,
         "fleet": [{"cohort": "quitters", "count": 6, "platform": "ios", "features": ["refresh"],
                    "usage": {"appOpensPerDay": 1, "forceQuitProbability": 1},
                    "settings": {"backgroundAppRefresh": 1, "lowPowerMode": 0},
                    "ios": {"launchPolicy": {"opportunityGap": "10m", "baseAcceptance": 1}}}]}
        """)
        var quits = 0, blocked = 0, launchesAfterReopen = 0
        for device in 0..<6 {
            var world = World(scenario: scenario, traceDevice: device)
            world.runToEnd()
            var quit = false
            for (_, line) in world.trace {
                if line.contains("user force-quits the app") { quit = true; quits += 1 }
                if line.contains("user opens the app") { quit = false }
                if line.contains("held back (the user force-quit") { blocked += 1 }
                if line.contains("BGAppRefreshTask") && line.contains("launched") {
                    #expect(!quit, "device \(device): \(line)")
                    if quits > 0 { launchesAfterReopen += 1 }
                }
            }
        }
        #expect(quits > 3)
        #expect(blocked > 0)
        #expect(launchesAfterReopen > 0)
    }

    /// One cold refresh launch on LTE with one history request (1 s round trip, 0 s
    /// service), the hand computation of docs/model.md's energy paragraph from AT&T ARO's
    /// constants (`docs/platform-facts.md` I): the radio waits for the promotion, so the task
    /// runs 0.26 + 1 = 1.26 s, and
    /// 0.26 × 1.21 (promotion) + 1 × 1.2 (connected) + 11.05244 (ARO's tail: 0.1 × 1.2 +
    /// 0.02 × 1.122 + 10 × 1.091) + 1.26 × 0.5775 (task CPU: 150 mA × 3.85 V) + 0.4 × 0.5775
    /// (cold launch) = 13.52569 J = 0.975880 mAh at 3.85 V (13.86 J a mAh); the radio alone
    /// 12.56704 J and 0.26 + 1 + 10.12 = 11.38 s active, 54.624 s a device-day over 5 h.
    static let loneLTERefresh = """
        {"name": "energy", "duration": "5h", "seed": 1,
         "fleet": [{"cohort": "lte", "count": 1, "platform": "ios", "features": ["refresh"], "signedIn": 1,
                    "usage": {"appOpensPerDay": 0}, "lastTestDaysAgo": 10,
                    "network": {"latency": "1s", "failureRate": 0, "offlineSpellsPerDay": 0, "homeWiFi": 0},
                    "settings": {"backgroundAppRefresh": 1, "lowPowerMode": 0},
                    "battery": {"capacityMah": 3300, "charging": "rarely", "initialPercent": 90},
                    "ios": {"earlyExpirationRate": 0, "launchPolicy": {"opportunityGap": "1m", "baseAcceptance": 1}}}],
         "backend": {"serviceTime": "0s"}}
        """

    @Test func theReportsPerRefreshEnergyMatchesTheHandComputation() throws {
        var world = World(scenario: try Fixtures.decode(PlatformWorldTests.loneLTERefresh))
        world.runToEnd()
        // One refresh: its energy is the distribution's exact mean (a sum kept to 10⁻¹²).
        #expect(world.features.refresh.metrics.energy[0].count == 1)
        let perRefresh = try #require(world.features.refresh.metrics.energy[0].mAh.mean)
        #expect(abs(perRefresh - 13.52569 / 13.86) < 0.000001)
        #expect(abs(perRefresh - 0.975880) < 0.000001)
        #expect(abs(world.core.devices[0].radio.joules - 12.56704) < 1e-9)
        #expect(abs(world.core.devices[0].radio.activeSeconds - 11.38) < 1e-9)
        let report = try world.report().report
        let p50 = try #require(report.lookup("battery.lte.energyPerRefresh.mAh.p50")?.doubleValue)
        #expect(abs(p50 - 0.9759) < 0.00005)
        let radioPerDay = try #require(report.lookup("battery.lte.radioActiveSecondsPerDeviceDay.mean")?.doubleValue)
        #expect(abs(radioPerDay - 54.624) < 0.001)
    }

    /// ARO's promotion comes before the first packet: a request that finds LTE idle reaches
    /// the server 0.26 s + half its 1 s round trip after the send, not 0.5 s.
    @Test func aRequestFromIdleLTEReachesTheServer260msLater() throws {
        var world = World(scenario: try Fixtures.decode(PlatformWorldTests.loneLTERefresh), traceDevice: 0)
        world.runToEnd()
        let sent = try #require(world.trace.first { $0.line.contains("sent, radio promotion 260 ms") })
        let served = try #require(world.trace.first { $0.line.contains("server: /") })
        #expect(served.time - sent.time == .milliseconds(760))
    }

    /// The issue's "a refresh launch that sends nothing costs more than 0 mAh": signed out,
    /// the logic completes at once, so the task lasts 0 s and sends nothing; the first
    /// launch is cold, 0.4 s × 0.5775 W = 0.231 J = 0.016667 mAh, every later one (one every
    /// 4 h, `preferredInterval`) resumes the app the last task left suspended,
    /// 0.1 s × 0.5775 W = 0.0041667 mAh.
    @Test func aRefreshLaunchThatSendsNothingCostsItsLaunch() throws {
        var world = World(scenario: try Fixtures.decode("""
        {"name": "signed-out", "duration": "1d", "seed": 3,
         "fleet": [{"cohort": "out", "count": 1, "platform": "ios", "features": ["refresh"], "signedIn": 0,
                    "usage": {"appOpensPerDay": 0},
                    "settings": {"backgroundAppRefresh": 1, "lowPowerMode": 0},
                    "ios": {"launchPolicy": {"opportunityGap": "1m", "baseAcceptance": 1, "budgetBase": 12}}}]}
        """))
        world.runToEnd()
        let energy = world.features.refresh.metrics.energy[0]
        let n = Double(energy.count)
        #expect(n > 2)
        #expect(world.core.devices[0].radio.joules == 0)
        let mean = try #require(energy.mAh.mean)
        #expect(abs(mean * n - (0.231 + (n - 1) * 0.05775) / 13.86) < 1e-9)
        let report = try world.report().report
        #expect(report.lookup("battery.out.energyPerRefresh.mAh.p50")?.doubleValue == 0.0042)
        #expect(report.lookup("battery.out.energyPerRefresh.mAh.max")?.doubleValue == 0.0167)
    }

    /// A request that fails at once offline never opens the radio: the launch and the task's
    /// CPU only (a `networkOutage` fault over the whole run).
    @Test func anOfflineRequestCostsNoRadioEnergy() throws {
        var world = World(scenario: try Fixtures.decode("""
        {"name": "offline", "duration": "5h", "seed": 1,
         "fleet": [{"cohort": "lte", "count": 1, "platform": "ios", "features": ["refresh"], "signedIn": 1,
                    "usage": {"appOpensPerDay": 0}, "lastTestDaysAgo": 10,
                    "network": {"latency": "1s", "failureRate": 0, "offlineSpellsPerDay": 0, "homeWiFi": 0},
                    "settings": {"backgroundAppRefresh": 1, "lowPowerMode": 0},
                    "ios": {"earlyExpirationRate": 0, "launchPolicy": {"opportunityGap": "1m", "baseAcceptance": 1}}}],
         "faults": [{"kind": "networkOutage", "at": "0s", "duration": "5h"}]}
        """))
        world.runToEnd()
        #expect(world.features.refresh.metrics.energy[0].count > 0)
        #expect(world.core.devices[0].radio.joules == 0)
        #expect(world.core.devices[0].radio.activeSeconds == 0)
    }

    /// An Android device left stationary, unplugged, with its screen off runs its
    /// WorkManager refresh only in Doze maintenance windows once Doze has engaged
    /// (`docs/platform-facts.md` A, D), and the report shows the deferrals. No alarm clock: one
    /// coming within 30 min makes Doze active (`MIN_TIME_TO_ALARM`), which is not this test.
    @Test func aStationaryAndroidDeviceRunsItsRefreshOnlyInMaintenanceWindows() throws {
        let scenario = try Fixtures.decode("""
        {"name": "doze", "duration": "2d", "seed": 2,
         "fleet": [{"cohort": "still", "count": 3, "platform": "android", "features": ["refresh"], "signedIn": 1,
                    "usage": {"appOpensPerDay": 0, "screenSessionsPerDay": 0},
                    "android": {"motionEventsPerDay": 0, "alarmClock": {"share": 0}},
                    "network": {"offlineSpellsPerDay": 0, "failureRate": 0},
                    "settings": {"lowPowerMode": 0},
                    "battery": {"capacityMah": 1000000, "charging": "rarely", "initialPercent": 100}}]}
        """)
        var runs = 0
        for device in 0..<3 {
            var world = World(scenario: scenario, traceDevice: device)
            world.runToEnd()
            var lastDoze = ""
            for (time, line) in world.trace {
                if line.contains("Doze: ") { lastDoze = line }
                if line.contains("WorkManager: refresh runs"), time >= SimTime.zero + .hours(1) {
                    runs += 1
                    #expect(lastDoze.hasSuffix("idleMaintenance"), "device \(device): \(line) after \(lastDoze)")
                }
            }
            let report = try world.report().report
            #expect((report.lookup("scheduling.dozeDeferrals")?.doubleValue ?? 0) > 0)
            #expect((report.lookup("scheduling.dozeDeferral.p50")?.doubleValue ?? 0) > 0)
        }
        #expect(runs >= 6)
    }
}
