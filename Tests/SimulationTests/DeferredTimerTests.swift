import Testing
@testable import Simulation
import SimKernel

/// The stale-sync trigger re-armed later keeps its one queue entry (``DeferredTimer``),
/// and what pops, and in which order, is what eager re-arming popped.
@Suite struct DeferredTimerTests {
    /// A one-device world whose queue is emptied, so only the test's entries pop.
    static func emptyWorld() throws -> World {
        let scenario = try Fixtures.decode("""
        {"name": "deferred", "seed": 7, "duration": "3d",
         "fleet": [{"cohort": "ios", "count": 1, "platform": "ios"}]}
        """)
        var world = World(scenario: scenario)
        while world.core.clock.queue.pop() != nil {}
        world.core.staleTriggers[0] = DeferredTimer()  // its set-up entry went with the rest
        return world
    }

    static func at(_ hours: Int64) -> SimTime { SimTime.zero + .seconds(hours * 3_600) }

    /// Runs to `end`, returning each pop: its time in hours, its description, and whether
    /// it was delivered (not superseded).
    static func pops(_ world: inout World, until end: SimTime) -> [(hours: Double, event: String, delivered: Bool)] {
        var seen: [(Double, String, Bool)] = []
        while let event = world.core.clock.next(before: end) {
            seen.append((world.now.seconds / 3_600, event.described, !event.isSuperseded(in: world)))
            world.step(event)
        }
        return seen
    }

    static func staleTrigger(_ pops: [(hours: Double, event: String, delivered: Bool)]) -> [(hours: Double, delivered: Bool)] {
        pops.filter { $0.event.contains("staleNotification") }.map { ($0.hours, $0.delivered) }
    }

    @Test func reArmingLaterKeepsOneEntryThatFiresOnceAtTheLastDeadline() throws {
        var world = try Self.emptyWorld()
        for hours: Int64 in [10, 20, 30] { world.core.armTimer(0, .staleNotification, at: Self.at(hours)) }
        #expect(world.core.clock.queue.count == 1)
        let fired = Self.staleTrigger(Self.pops(&world, until: Self.at(48)))
        // The entry moves on once, straight to the last deadline.
        #expect(fired.map(\.hours) == [10, 30])
        #expect(fired.map(\.delivered) == [false, true])
    }

    @Test func anEarlierArmTakesANewEntryAndTheLaterOneIsDropped() throws {
        var world = try Self.emptyWorld()
        world.core.armTimer(0, .staleNotification, at: Self.at(30))
        world.core.armTimer(0, .staleNotification, at: Self.at(10))
        #expect(world.core.clock.queue.count == 2)
        let fired = Self.staleTrigger(Self.pops(&world, until: Self.at(48)))
        #expect(fired.map(\.hours) == [10, 30])
        #expect(fired.map(\.delivered) == [true, false])
    }

    @Test func aCancelledTriggerNeverFiresAndAnArmAfterItReusesTheEntry() throws {
        var world = try Self.emptyWorld()
        world.core.armTimer(0, .staleNotification, at: Self.at(10))
        world.core.cancelTimer(0, .staleNotification)
        #expect(Self.staleTrigger(Self.pops(&world, until: Self.at(24))).map(\.delivered) == [false])

        world.core.armTimer(0, .staleNotification, at: Self.at(30))
        world.core.cancelTimer(0, .staleNotification)
        world.core.armTimer(0, .staleNotification, at: Self.at(40))
        #expect(world.core.clock.queue.count == 1)
        let fired = Self.staleTrigger(Self.pops(&world, until: Self.at(48)))
        #expect(fired.map(\.hours) == [30, 40])
        #expect(fired.map(\.delivered) == [false, true])
    }

    /// An event scheduled for the same time between two arms pops after the first
    /// arm's entry would and before the second's: as if each arm had its own entry.
    @Test func aMovedEntryPopsAmongSameTimeEventsInTheOrderOfItsLastArm() throws {
        // A marker: a hard-stop timer event of a generation never armed (popped, not delivered).
        let marker = WorldEvent.deviceTimer(device: 0, generation: 9_999, timer: .hardStop)
        for markerFirst in [true, false] {
            var world = try Self.emptyWorld()
            world.core.armTimer(0, .staleNotification, at: Self.at(10))
            if markerFirst { world.core.clock.schedule(marker, at: Self.at(20)) }
            world.core.armTimer(0, .staleNotification, at: Self.at(20))
            if !markerFirst { world.core.clock.schedule(marker, at: Self.at(20)) }
            let atTwenty = Self.pops(&world, until: Self.at(48)).filter { $0.hours == 20 }.map(\.event)
            #expect(atTwenty.count == 2)
            #expect(atTwenty.first?.contains(markerFirst ? "hardStop" : "staleNotification") == true, "\(atTwenty)")
        }
    }

    /// Its fields in 28 bytes: both times over `Int64`'s whole range, the order's 48 bits,
    /// each on its own.
    @Test func packedFieldsRoundTrip() {
        #expect(MemoryLayout<DeferredTimer>.stride == 28)
        var t = DeferredTimer()
        #expect(t.entryAt == .max && t.due == .max && t.order == 0 && t.entryGeneration == 0)
        for v: Int64 in [.min, -1, 0, 1, Int64(UInt32.max), 1 << 32, 31_622_400_000_000, .max - 1, .max] {
            t.entryAt = v
            t.due = ~v
            #expect(t.entryAt == v && t.due == ~v && t.order == 0)
        }
        t.entryGeneration = .max
        for o: UInt64 in [1, UInt64(UInt32.max), 1 << 32, (1 << 48) - 1, 0] {
            t.order = o
            #expect(t.order == o && t.entryAt == .max && t.due == .min && t.entryGeneration == .max)
        }
    }
}
