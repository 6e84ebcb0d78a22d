import Testing
import SimKernel
import Scenario
@testable import Simulation

/// Android's step sync, FCM under Doze and the manufacturer's policy in the world
/// (docs/model-platforms.md), judged on each device's own story.
@Suite struct AndroidWorldTests {
    static let stillAndroid = """
    "platform": "android", "signedIn": 1,
    "usage": {"appOpensPerDay": 0, "screenSessionsPerDay": 0},
    "android": {"motionEventsPerDay": 0},
    "network": {"offlineSpellsPerDay": 0, "failureRate": 0},
    "settings": {"lowPowerMode": 0, "notificationPermission": {"authorized": 1}}
    """

    /// Battery-not-low (`docs/platform-facts.md` E, 15 %): a phone at 14 %, unplugged and draining
    /// slowly, never uploads its steps in a day; one at 14 % on a small battery drains to
    /// 5 %, is plugged in (the `rarely` habit), and uploads only from then on.
    @Test func aLowBatteryAndroidPhoneUploadsOnlyOnceCharging() throws {
        let scenario = try Fixtures.decode("""
        {"name": "low-battery", "duration": "1d", "seed": 3,
         "fleet": [{"cohort": "huge", "count": 1, "features": ["stepSync"], \(Self.stillAndroid),
                    "battery": {"capacityMah": 1000000, "charging": "rarely", "initialPercent": 14}},
                   {"cohort": "small", "count": 1, "features": ["stepSync"], \(Self.stillAndroid),
                    "battery": {"capacityMah": 3300, "charging": "rarely", "initialPercent": 14}}]}
        """)
        var never = World(scenario: scenario, traceDevice: 0)
        never.runToEnd()
        #expect(never.trace.contains { $0.line.contains("waiting for its constraints") && $0.line.contains("battery low true") })
        #expect(!never.trace.contains { $0.line.contains("step sync -> httpRequest") })

        var charges = World(scenario: scenario, traceDevice: 1)
        charges.runToEnd()
        let plugged = try #require(charges.trace.first { $0.line.contains("battery: plugged in") }?.time)
        let uploads = charges.trace.filter { $0.line.contains("step sync -> httpRequest") }.map(\.time)
        #expect(!uploads.isEmpty)
        #expect(uploads.allSatisfy { $0 >= plugged })
        #expect(charges.trace.contains { $0.line.contains("WorkManager: stepSync due; waiting for its constraints") && $0.time < plugged })
        ReadableFailures.expectNoViolation(charges)
    }

    /// FCM in Doze (`docs/platform-facts.md` H, A): on a phone in deep idle, a normal-priority
    /// push waits for the next maintenance window; a high-priority one arrives at once
    /// and temp-allow-lists the app.
    @Test func aDozingPhoneGetsANormalPushAtItsMaintenanceWindowAndAHighOneAtOnce() throws {
        let noSources = #"{"assignmentDue": {"perDay": 0}, "teacherFeedback": {"perDay": 0}, "challenge": {"perDay": 0}, "announcement": {"perDay": 0}}"#
        let scenario = try Fixtures.decode("""
        {"name": "fcm-doze", "duration": "8h", "seed": 4,
         "fleet": [{"cohort": "still", "count": 1, "features": ["push"], \(Self.stillAndroid),
                    "battery": {"capacityMah": 1000000, "charging": "rarely", "initialPercent": 100},
                    "push": {"quietHours": {"none": 1}, "sources": \(noSources), "openProbability": 0}}],
         "broadcasts": [{"at": "150m", "priority": "high", "category": "announcements", "fraction": 1},
                        {"at": "151m", "priority": "normal", "category": "announcements", "fraction": 1}]}
        """)
        var world = World(scenario: scenario, traceDevice: 0)
        world.runToEnd()
        var lastDoze = "", shown: [(SimTime, String)] = []
        for (time, line) in world.trace {
            if line.contains("Doze: deep") { lastDoze = line }
            if line.contains("OS: push n"), line.hasSuffix(" shown") { shown.append((time, lastDoze)) }
        }
        try #require(shown.count == 2)
        // The high one: within seconds of 150 min, deep Doze still idle.
        #expect(shown[0].0 < SimTime.zero + .minutes(150) + .seconds(10))
        #expect(shown[0].1.hasSuffix("deep idle"))
        // The normal one: only at a maintenance window, long after it was sent.
        #expect(shown[1].0 > SimTime.zero + .minutes(160))
        #expect(shown[1].1.hasSuffix("deep idleMaintenance"))
        #expect(world.trace.contains { $0.line.contains("temp-allow-listed") })
        #expect(world.core.metrics.platform.fcmDeferrals >= 1)
        let report = try world.report().report
        #expect((report.lookup("scheduling.fcm.dozeDelay.p50")?.doubleValue ?? 0) > 600)
        ReadableFailures.expectNoViolation(world)
    }

    /// `android.oemPolicy` (**assumption**): after 10 min of screen off the app is
    /// force-stopped and runs no work until the user opens it; the stock policy never
    /// stops it and keeps running the work.
    @Test func anAggressiveOEMStopsTheAppUntilTheNextOpen() throws {
        func scenario(_ policy: String) throws -> Scenario {
            try Fixtures.decode("""
            {"name": "oem", "duration": "3d", "seed": 6,
             "fleet": [{"cohort": "oem", "count": 1, "features": ["refresh", "stepSync"], "platform": "android", "signedIn": 1,
                        "usage": {"appOpensPerDay": 1, "screenSessionsPerDay": 20},
                        "network": {"offlineSpellsPerDay": 0, "failureRate": 0},
                        "settings": {"lowPowerMode": 0},
                        "battery": {"capacityMah": 1000000, "charging": "rarely", "initialPercent": 100},
                        "android": {"oemPolicy": \(policy)}}]}
            """)
        }
        var killer = World(scenario: try scenario(#"{"killsBackgroundApps": "10m"}"#), traceDevice: 0)
        killer.runToEnd()
        var stopped = false, stops = 0, runsAfterReopen = 0
        for (_, line) in killer.trace {
            if line.contains("force-stops the app") { stopped = true; stops += 1 }
            if line.contains("user opens the app") { stopped = false }
            if line.contains("WorkManager: ") && line.contains(" runs as job") {
                #expect(!stopped, "\(line)")
                if stops > 0 { runsAfterReopen += 1 }
            }
        }
        #expect(stops >= 1)
        #expect(runsAfterReopen >= 1)
        #expect(killer.core.metrics.platform.oemForceStops == UInt64(stops))

        var stock = World(scenario: try scenario(#""stock""#), traceDevice: 0)
        stock.runToEnd()
        #expect(stock.core.metrics.platform.oemForceStops == 0)
        #expect(stock.features.stepSync.metrics.jobs > killer.features.stepSync.metrics.jobs)
    }
}

/// The key-value store in the world (iOS, ``KeyValueDurability``; seed `002`, issue 2): a write not yet
/// persisted is lost on termination; a synchronized one, or one past the 10 s persist
/// delay, is not.
@Suite struct KeyValueDurabilityWorldTests {
    static func world(_ variants: String) throws -> World {
        try World(scenario: Fixtures.decode("""
        {"name": "kv", "duration": "1h", "seed": 1, "logic": {"variants": [\(variants)]},
         "fleet": [{"cohort": "ios", "count": 1, "platform": "ios", "features": ["refresh"], "signedIn": 1,
                    "usage": {"appOpensPerDay": 0},
                    "ios": {"kvPersistDelay": "10s"}}]}
        """))
    }

    /// The open's `lastAppOpenAt` after a termination `after` the open.
    static func survives(_ variants: String, terminatedAfter after: SimDuration) throws -> Bool {
        var world = try world(variants)
        world.run(until: .zero + .minutes(1))
        world.resume(0)
        world.deliverRefresh(0, .appOpened)
        #expect(world.features.refresh.states[0].stored.lastAppOpenAt != nil)
        world.run(until: .zero + .minutes(1) + after)
        world.terminate(0)
        return world.features.refresh.states[0].stored.lastAppOpenAt != nil
    }

    @Test func anUnpersistedWriteIsLostAndASynchronizedOneIsNot() throws {
        // Synchronized at once: survives even an immediate termination.
        #expect(try Self.survives("", terminatedAfter: .zero))
        // Not synchronized: lost just before the 10 s persist delay, kept at it.
        #expect(try !Self.survives(#""refresh.noSynchronize""#, terminatedAfter: .seconds(10) - .microseconds(1)))
        #expect(try Self.survives(#""refresh.noSynchronize""#, terminatedAfter: .seconds(10) + .microseconds(1)))
    }
}
