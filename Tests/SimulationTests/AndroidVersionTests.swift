import Testing
import SimKernel
import Scenario
@testable import Simulation

/// `fleet[].android.version` reaches the device's Doze (docs/android.md): a still phone
/// whose screen is off from time zero goes light idle after 1 min on Android 14 and
/// after 4 min on Android 15; its first light maintenance window opens at the end of
/// the non-waking 6–7 min window on 14, at the start of the waking 9–10 min one on 15.
@Suite struct AndroidVersionTests {
    static func lightTimes(version: Int) throws -> [SimTime] {
        var world = try BatterySaverAlarmTests.world("""
        {"cohort": "v\(version)", "count": 1, "features": ["refresh"], "signedIn": 1, \(BatterySaverAlarmTests.still),
         "battery": {"charging": "rarely", "initialPercent": 90},
         "android": {"motionEventsPerDay": 0, "batterySaverAuto": 0, "screenOffBeforeStart": {"constant": "0s"}, "version": \(version)}}
        """, duration: "11m")
        world.runToEnd()
        return world.trace.filter { $0.line.contains("Doze: light") }.map(\.time)
    }

    @Test func android14And15DozeOnTheirOwnConstants() throws {
        #expect(try Self.lightTimes(version: 14).prefix(3) == [.zero, SimTime.zero + .seconds(60), SimTime.zero + .seconds(420)])
        #expect(try Self.lightTimes(version: 15).prefix(3) == [.zero, SimTime.zero + .seconds(240), SimTime.zero + .seconds(540)])
    }
}
