import Testing
@testable import SimKernel

@Suite struct EventQueueTests {
    /// Property: with random schedules and pops interleaved, the queue hands events out
    /// in (time, schedule order), as a stable sort of everything scheduled would.
    @Test(arguments: 0..<50) func popsInTimeThenScheduleOrder(seed: UInt64) {
        var rng = RandomStream(splitMixSeed: seed)
        var queue = EventQueue<Int>()
        var reference: [(time: Int64, order: Int)] = []
        var nextID = 0
        var popped: [(Int64, Int)] = []
        var expected: [(Int64, Int)] = []
        for _ in 0..<400 {
            if rng.chance(0.6) || reference.isEmpty {
                let t = rng.int(in: 0...20)  // few distinct times: many ties
                queue.schedule(nextID, at: SimTime(microseconds: t))
                reference.append((t, nextID))
                nextID += 1
            } else {
                let (time, id) = queue.pop()!
                popped.append((time.microseconds, id))
                let best = reference.indices.min { a, b in
                    reference[a].time != reference[b].time ? reference[a].time < reference[b].time : reference[a].order < reference[b].order
                }!
                expected.append((reference[best].time, reference[best].order))
                reference.remove(at: best)
            }
        }
        #expect(popped.map(\.0) == expected.map(\.0))
        #expect(popped.map(\.1) == expected.map(\.1))
    }

    @Test func sameInstantIsFirstInFirstOut() {
        var queue = EventQueue<String>()
        for name in ["a", "b", "c", "d", "e"] { queue.schedule(name, at: SimTime(microseconds: 7)) }
        queue.schedule("early", at: SimTime(microseconds: 1))
        #expect((0..<6).map { _ in queue.pop()!.event } == ["early", "a", "b", "c", "d", "e"])
        #expect(queue.pop() == nil)
    }

    /// `tieBreak: "shuffle"`: same-instant events in a seeded random order, reproducible
    /// by seed, while different instants stay in time order.
    @Test func shuffleTieBreakIsSeededAndKeepsTimeOrder() {
        func order(seed: UInt64) -> [Int] {
            var queue = EventQueue<Int>(tieBreak: .shuffle, shuffleStream: RandomStream(splitMixSeed: seed))
            for i in 0..<20 { queue.schedule(i, at: SimTime(microseconds: 5)) }
            queue.schedule(-1, at: SimTime(microseconds: 9))
            return (0..<21).map { _ in queue.pop()!.event }
        }
        #expect(order(seed: 1) == order(seed: 1))
        #expect(order(seed: 1) != order(seed: 2))
        #expect(order(seed: 1).last == -1)
        #expect(order(seed: 1).dropLast().sorted() == Array(0..<20))
        #expect(Array(order(seed: 1).dropLast()) != Array(0..<20))
    }

    @Test func generationCancelsWithoutTouchingTheQueue() {
        var slot = GenerationCounter()
        let first = slot.arm()
        let second = slot.arm()
        #expect(!slot.isCurrent(first))
        #expect(slot.isCurrent(second))
        slot.cancel()
        #expect(!slot.isCurrent(second))
    }
}

@Suite struct SimClockTests {
    /// The no-time-travel rule (swift-nio's `testWeCantTimeTravelByAdvancingTimeToThePast`).
    @Test func weCantTimeTravel() {
        var clock = SimClock<String>()
        _ = clock.next(before: SimTime(microseconds: 100))
        #expect(clock.now == SimTime(microseconds: 100))
        // Advancing to the past leaves `now` alone.
        #expect(clock.next(before: SimTime(microseconds: 50)) == nil)
        #expect(clock.now == SimTime(microseconds: 100))
        // An event scheduled in the past runs at `now`, after what is already due now.
        clock.schedule("due", at: SimTime(microseconds: 100))
        clock.schedule("past", at: SimTime(microseconds: 10))
        #expect(clock.next(before: SimTime(microseconds: 200)) == "due")
        #expect(clock.next(before: SimTime(microseconds: 200)) == "past")
        #expect(clock.now == SimTime(microseconds: 100))
        #expect(clock.next(before: SimTime(microseconds: 200)) == nil)
        #expect(clock.now == SimTime(microseconds: 200))
    }

    @Test func runsOnlyEventsStrictlyBeforeTheLimit() {
        var clock = SimClock<Int>()
        clock.schedule(1, at: SimTime(microseconds: 10))
        clock.schedule(2, at: SimTime(microseconds: 20))
        #expect(clock.next(before: SimTime(microseconds: 20)) == 1)
        #expect(clock.next(before: SimTime(microseconds: 20)) == nil)
        #expect(clock.now == SimTime(microseconds: 20))
        #expect(clock.next(before: SimTime(microseconds: 21)) == 2)
        #expect(clock.processed == 2)
    }
}

@Suite struct SimDurationTests {
    @Test func parsesScenarioDurations() {
        #expect(SimDuration.parse("250ms") == .milliseconds(250))
        #expect(SimDuration.parse("30s") == .seconds(30))
        #expect(SimDuration.parse("15m") == .minutes(15))
        #expect(SimDuration.parse("4h") == .hours(4))
        #expect(SimDuration.parse("7d") == .days(7))
        #expect(SimDuration.parse("1.5h") == .minutes(90))
        #expect(SimDuration.parse("-3d") == -.days(3))
        #expect(SimDuration.parse("100us") == .microseconds(100))
        for bad in ["", "7", "7x", "h", "1e999h", "nans", "--1s", "1 s"] { #expect(SimDuration.parse(bad) == nil, "\(bad)") }
    }

    @Test func printsTheLargestExactUnit() {
        #expect(SimDuration.days(90).description == "90d")
        #expect(SimDuration.minutes(90).description == "90m")
        #expect(SimDuration.milliseconds(1500).description == "1500ms")
        #expect(SimDuration.microseconds(7).description == "7us")
    }
}
