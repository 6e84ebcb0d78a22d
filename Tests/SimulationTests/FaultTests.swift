import Testing
import SimKernel
import Scenario
@testable import Simulation

@Suite struct FaultTests {
    static func scenario(faults: String, duration: String = "3d", extra: String = "") throws -> Scenario {
        try Fixtures.decode("""
        {"name": "faults", "duration": "\(duration)", "seed": 3,
         "fleet": [{"cohort": "a", "count": 60, "platform": "ios", "signedIn": 1,
                    "settings": {"backgroundAppRefresh": 1, "lowPowerMode": 0}\(extra)}],
         "faults": [\(faults)]}
        """)
    }

    /// Overlapping faults: an inner outage ending does not end the outer one.
    @Test func nestedOutagesEachUndoOnlyThemselves() throws {
        var world = World(scenario: try Self.scenario(faults: """
        {"kind": "backendOutage", "at": "1d", "duration": "20h"},
        {"kind": "backendOutage", "at": "25h", "duration": "1h"},
        {"kind": "backendSlowdown", "at": "1d", "duration": "20h", "factor": 2},
        {"kind": "backendSlowdown", "at": "25h", "duration": "1h", "factor": 3}
        """))
        world.run(until: SimTime.zero + .hours(25) + .minutes(30))
        #expect(world.server.outage)
        #expect(world.server.slowdown == 6)
        world.run(until: SimTime.zero + .hours(27))
        #expect(world.server.outage)
        #expect(world.server.slowdown == 2)
        world.run(until: SimTime.zero + .hours(45))
        #expect(!world.server.outage)
        #expect(world.server.slowdown == 1)
    }

    @Test func skewsAddUpAndTripsReturnHomeOnlyFromTheirOwnZone() throws {
        var world = World(scenario: try Self.scenario(faults: """
        {"kind": "clockSkew", "at": "1h", "duration": "10h", "offset": "2h"},
        {"kind": "clockSkew", "at": "2h", "duration": "1h", "offset": "-30m"},
        {"kind": "timeZoneChange", "at": "1h", "duration": "10h", "to": "Asia/Tokyo"},
        {"kind": "timeZoneChange", "at": "2h", "duration": "20h", "to": "Europe/Berlin"}
        """, extra: #", "timeZones": {"America/New_York": 1}"#))
        world.run(until: SimTime.zero + .minutes(150))
        #expect(world.core.devices[0].clock.skew == .minutes(90))
        world.run(until: SimTime.zero + .hours(4))
        #expect(world.core.devices[0].clock.skew == .hours(2))
        world.run(until: SimTime.zero + .hours(12))
        #expect(world.core.devices[0].clock.skew == .zero)
        // The Tokyo trip ended while the user was in Berlin: still in Berlin.
        #expect(world.core.timeZones[Int(world.core.devices[0].clock.timeZone)] == "Europe/Berlin")
        world.run(until: SimTime.zero + .hours(23))
        #expect(world.core.timeZones[Int(world.core.devices[0].clock.timeZone)] == "America/New_York")
    }

    /// A fault starting after the run (or ending far beyond it) never wraps time.
    @Test func faultsBeyondTheRunAreHarmless() throws {
        var world = World(scenario: try Self.scenario(faults: """
        {"kind": "networkOutage", "at": "100000000d", "duration": "1h"},
        {"kind": "networkOutage", "at": "1h", "duration": "100000000d"}
        """))
        world.runToEnd()
        #expect(world.core.devices.allSatisfy { $0.outageFaults <= 1 })
    }

    /// Request slots are recycled once client and server are both done, whatever
    /// ended the request first (a cancel before it reached a dead server, a kill).
    @Test func requestSlotsAreNeverLeaked() throws {
        var world = World(scenario: try Self.scenario(faults: """
        {"kind": "backendOutage", "at": "0s", "duration": "2d"},
        {"kind": "networkLatency", "at": "0s", "duration": "2d", "extra": "50s"},
        {"kind": "appTermination", "at": "0s", "rate": 24}
        """))
        world.runToEnd()
        let free = Set(world.core.freeJobs.map(Int.init))
        let leaked = world.core.jobs.indices.filter { world.core.jobs[$0].clientDone && world.core.jobs[$0].serverDone && !free.contains($0) }
        #expect(leaked.isEmpty)
        #expect(world.core.jobs.count - free.count <= world.core.devices.count)
    }
}
