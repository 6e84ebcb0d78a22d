import Testing
import SimKernel
import Scenario
@testable import Simulation

/// Battery Saver's automatic schedule (`docs/platform-facts.md` E) and the stale-sync notification
/// as a while-idle alarm (C) in the world, judged on one device's story.
@Suite struct BatterySaverAlarmTests {
    /// A phone nobody touches: no screen, no motion, always online.
    static let still = """
    "platform": "android", "usage": {"appOpensPerDay": 0, "screenSessionsPerDay": 0},
    "network": {"offlineSpellsPerDay": 0, "failureRate": 0},
    "settings": {"lowPowerMode": 0, "notificationPermission": {"authorized": 1}}
    """

    static func world(_ fleet: String, duration: String = "1d", seed: Int = 3, device: Int = 0) throws -> World {
        World(scenario: try Fixtures.decode("""
        {"name": "saver", "duration": "\(duration)", "seed": \(seed), "fleet": [\(fleet)]}
        """), traceDevice: device)
    }

    static func times(_ world: World, _ text: String) -> [SimTime] {
        world.trace.filter { $0.line.contains(text) }.map(\.time)
    }

    /// 16 % unplugged on 3300 mAh at 130 mA (1 % in 913.85 s): Battery Saver turns on when
    /// the level reaches 15 %, Quick Doze follows, and it turns off when the `rarely` habit
    /// plugs in at 5 %. A phone already at 15 % is on from time zero; a user without the
    /// schedule never gets it.
    @Test func batterySaverTurnsOnAt15PercentUnpluggedAndOffPluggedIn() throws {
        func cohort(_ name: String, percent: Int, auto: Double) -> String {
            """
            {"cohort": "\(name)", "count": 1, "features": ["refresh"], "signedIn": 1, \(Self.still),
             "battery": {"capacityMah": 3300, "charging": "rarely", "initialPercent": \(percent)},
             "android": {"motionEventsPerDay": 0, "batterySaverAuto": \(auto)}}
            """
        }
        var world = try Self.world(cohort("at16", percent: 16, auto: 1), duration: "6h")
        world.runToEnd()
        let on = Self.times(world, "OS: Battery Saver on (automatic schedule")
        try #require(on.count == 1)
        #expect(on[0] >= SimTime.zero + .milliseconds(913_846) && on[0] <= SimTime.zero + .milliseconds(913_847))
        let plugged = try #require(Self.times(world, "battery: plugged in").first)
        #expect(Self.times(world, "Battery Saver's automatic schedule off (plugged in)") == [plugged])
        #expect(Self.times(world, "Doze: deep quickDozeDelay").contains { $0 == on[0] })
        #expect(world.core.metrics.platform.batterySaverActivations == 1)
        #expect(try world.report().report.lookup("scheduling.batterySaverActivations")?.doubleValue == 1)

        var atFifteen = try Self.world(cohort("at15", percent: 15, auto: 1), duration: "1h")
        atFifteen.runToEnd()
        #expect(Self.times(atFifteen, "OS: Battery Saver on (automatic schedule") == [.zero])

        var manual = try Self.world(cohort("manual", percent: 16, auto: 0), duration: "6h")
        manual.runToEnd()
        #expect(Self.times(manual, "Battery Saver").isEmpty)
        #expect(manual.core.metrics.platform.batterySaverActivations == 0)
    }

    /// A still phone, never synced (signed out), in deep idle when its 24 h stale-sync
    /// alarm is due: a `setAndAllowWhileIdle` alarm fires at its time, not at the next
    /// maintenance window. With the app's 72 while-idle alarms of the hour used up 50 min
    /// before (Android 12, `docs/platform-facts.md` C), it fires 10 min late, when the oldest leaves
    /// the hour, as the idle lasts longer; plugged in meanwhile, it fires when deep idle ends.
    @Test func aDozingPhonesAlarmFiresAtTheLimitersTime() throws {
        let fleet = """
        {"cohort": "still", "count": 1, "features": ["stepSync"], \(Self.still), "signedIn": 0,
         "android": {"motionEventsPerDay": 0},
         "battery": {"capacityMah": 1000000, "charging": "rarely", "initialPercent": 100}}
        """
        var free = try Self.world(fleet, duration: "2d")
        free.run(until: SimTime.zero + .hours(20))
        let due = try #require(free.android.devices[0].alarmDue)
        free.runToEnd()
        let fired = Self.times(free, "AlarmManager: while-idle alarm fires")
        #expect(fired.first == due)
        let deep = free.trace.last { $0.line.contains("Doze: deep") && $0.time <= due }?.line ?? ""
        #expect(deep.hasSuffix("deep idle"))
        #expect(Self.times(free, "notification shown: steps not synced").first == due)
        #expect(free.core.metrics.platform.alarmsFired == 1 && free.core.metrics.platform.alarmsDelayedByDoze == 0)

        var limited = try Self.world(fleet, duration: "2d")
        limited.run(until: SimTime.zero + .hours(20))
        var log = limited.core.androidModels(0).whileIdleAlarms.makeLog()
        for _ in 0..<72 { log.record(due - .minutes(50)) }
        limited.android.devices[0].whileIdleLog = log
        limited.runToEnd()
        #expect(Self.times(limited, "AlarmManager: while-idle alarm due; held by Doze").first == due)
        #expect(Self.times(limited, "AlarmManager: while-idle alarm fires").first == due + .minutes(10))
        #expect(Self.times(limited, "notification shown: steps not synced").first == due + .minutes(10))
        #expect(!limited.trace.contains { $0.line.contains("Doze: deep") && $0.time > due && $0.time < due + .minutes(10) })
        #expect(limited.core.metrics.platform.alarmsDelayedByDoze == 1)
        let report = try limited.report().report
        #expect(report.lookup("scheduling.alarms.dozeDelay.max")?.doubleValue == 600)
        ReadableFailures.expectNoViolation(limited)

        // Plugged in 4 min into the hold: deep idle ends, and the held alarm fires then.
        var plugged = try Self.world(fleet, duration: "2d")
        plugged.run(until: SimTime.zero + .hours(20))
        plugged.android.devices[0].whileIdleLog = log
        plugged.core.clock.schedule(.batterySwitch(device: 0), at: due + .minutes(4))
        plugged.runToEnd()
        #expect(Self.times(plugged, "battery: plugged in").first == due + .minutes(4))
        #expect(Self.times(plugged, "AlarmManager: while-idle alarm fires").first == due + .minutes(4))
        #expect(plugged.core.metrics.platform.alarmsDelayedByDoze == 1 && plugged.core.metrics.platform.alarmsFired == 1)
    }
}
