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

    /// The reference: every pending entry in one array sorted by (time, order), the
    /// order the queue's sequence gives, or with `keys` the one the test drew for it.
    struct SortedReference {
        var entries: [(time: Int64, order: UInt64, id: Int)] = []
        var sequence: UInt64 = 0
        var keys: RandomStream?

        mutating func schedule(_ id: Int, at time: Int64) {
            sequence &+= 1
            let order = keys != nil ? keys!.next() >> UInt64(64 - EventQueue<Int>.orderBits) : sequence
            var low = 0, high = entries.count
            while low < high {
                let mid = (low + high) / 2
                let e = entries[mid]
                if e.time < time || (e.time == time && e.order < order) { low = mid + 1 } else { high = mid }
            }
            entries.insert((time, order, id), at: low)
        }

        mutating func popFirst() -> (Int64, Int)? {
            guard !entries.isEmpty else { return nil }
            let first = entries.removeFirst()
            return (first.time, first.id)
        }

        mutating func pop(before limit: Int64) -> (Int64, Int)? {
            guard let first = entries.first, first.time < limit else { return nil }
            entries.removeFirst()
            return (first.time, first.id)
        }
    }

    /// A time near `cursor` at one of the scales the queue distinguishes (the same slot,
    /// the slot and level boundaries, hours, years) or at the ends of `Int64`, many of
    /// them equal.
    static func draw(near cursor: Int64, _ rng: inout RandomStream) -> Int64 {
        let scales: [Int64] = [0, 3, 1 << 20, 1 << 30, 3_600_000_000, 1 << 40, 1 << 50, 1 << 60]
        switch rng.int(in: 0...9) {
        case 0: return [Int64.max, Int64.max - 1, Int64.min, -1, 0][Int(rng.int(in: 0...4))]
        case 1:
            // Just before, on and after a slot or level boundary ahead of the cursor.
            let boundary = Int64(1) << [20, 30, 40, 50, 60][Int(rng.int(in: 0...4))]
            let (next, overflow) = (cursor / boundary + 1).multipliedReportingOverflow(by: boundary)
            return overflow ? Int64.max : next &+ rng.int(in: -1...1)
        case 2: return cursor &- rng.int(in: 0...(1 << 22))  // in the past
        default:
            let scale = scales[Int(rng.int(in: 0...Int64(scales.count - 1)))]
            let (t, overflow) = cursor.addingReportingOverflow(rng.int(in: 0...scale))
            return overflow ? Int64.max : t
        }
    }

    /// Property: over thousands of seeded random sequences of schedules and pops (plain
    /// and bounded), in both tie-break modes, the queue hands out exactly what a sorted
    /// array does, and agrees on the count and the next time throughout.
    @Test(arguments: [false, true]) func matchesASortedReference(keyed: Bool) {
        var mismatches = 0
        for seed in UInt64(0)..<1_500 {
            var rng = RandomStream(splitMixSeed: seed)
            var queue = EventQueue<Int>()
            var keys: RandomStream? = keyed ? RandomStream(splitMixSeed: seed &+ 7) : nil
            var reference = SortedReference(keys: keys)
            var cursor = Int64(0)
            var id = 0
            for _ in 0..<Int(rng.int(in: 1...300)) {
                if rng.chance(0.55) {
                    let time = rng.chance(0.3) ? cursor : Self.draw(near: cursor, &rng)
                    queue.schedule(id, at: SimTime(microseconds: time), keys: &keys)
                    reference.schedule(id, at: time)
                    id += 1
                } else {
                    let got: (time: SimTime, event: Int)?
                    let want: (Int64, Int)?
                    if rng.chance(0.5) {
                        got = queue.pop()
                        want = reference.popFirst()
                    } else {
                        let limit = Self.draw(near: cursor, &rng)
                        got = queue.pop(before: SimTime(microseconds: limit))
                        want = reference.pop(before: limit)
                    }
                    if got?.time.microseconds != want?.0 || got?.event != want?.1 { mismatches += 1 }
                    if let t = got?.time.microseconds { cursor = max(cursor, t) }
                }
                if queue.count != reference.entries.count || queue.nextTime?.microseconds != reference.entries.first?.time {
                    mismatches += 1
                }
            }
            // Drain: everything left comes out in reference order.
            while let (time, event) = queue.pop() {
                let first = reference.entries.removeFirst()
                if time.microseconds != first.time || event != first.id { mismatches += 1 }
            }
            if !reference.entries.isEmpty { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    /// A fleet-like load: many entries hours ahead re-armed as they pop, so the horizon
    /// crosses thousands of slots and level-1 buckets cascade, against the reference.
    @Test func timersHoursAheadComeOutInOrder() {
        var rng = RandomStream(splitMixSeed: 99)
        var queue = EventQueue<Int>()
        var reference = SortedReference()
        for d in 0..<2_000 {
            let t = rng.int(in: 0...(6 * 3_600_000_000))
            queue.schedule(d, at: SimTime(microseconds: t))
            reference.schedule(d, at: t)
        }
        var mismatches = 0
        for _ in 0..<40_000 {
            let (time, d) = queue.pop()!
            let want = reference.pop(before: .max)!  // no time here reaches Int64.max
            if time.microseconds != want.0 || d != want.1 { mismatches += 1 }
            // Re-arm hours ahead, or a few milliseconds ahead (inside the current slot).
            let next = time.microseconds + (rng.chance(0.3) ? rng.int(in: 0...5_000) : rng.int(in: 0...(8 * 3_600_000_000)))
            queue.schedule(d, at: SimTime(microseconds: next))
            reference.schedule(d, at: next)
        }
        #expect(mismatches == 0)
        #expect(queue.count == 2_000)
    }

    /// More entries than one segment of the wheel's storage holds (32,768), on few
    /// distinct times, come out in (time, schedule order), chunks reused as they drain.
    @Test func pendingSetLargerThanASegment() {
        var rng = RandomStream(splitMixSeed: 5)
        var queue = EventQueue<Int>()
        var expected: [(time: Int64, id: Int)] = []
        for round in 0..<2 {
            for id in 0..<70_000 {
                let t = Int64(round) * 200_000_000_000 + rng.int(in: 0...5_000) * 30_000_000
                queue.schedule(id, at: SimTime(microseconds: t))
                expected.append((t, round * 70_000 + id))
            }
            expected.sort { $0.time != $1.time ? $0.time < $1.time : $0.id < $1.id }
            var mismatches = 0
            for want in expected {
                let (time, id) = queue.pop()!
                if time.microseconds != want.time || id != want.id % 70_000 { mismatches += 1 }
            }
            expected.removeAll()
            #expect(mismatches == 0)
            #expect(queue.isEmpty)
        }
    }

    /// A burst (every phone of a zone unplugged at 07:00:00: 100,000 entries at one
    /// instant) is taken into the heap in one allocation with a thirty-second to spare, not
    /// doubled to 131,072 (or 2^21 at a million), and its room is given back at the first
    /// slot that needs less than a quarter of it; every entry pops in (time, order).
    @Test func aBurstsRoomIsGivenBack() {
        var queue = EventQueue<Int>()
        func heapRoom() -> Int { queue.storage.state.pointee.heapCapacity }
        let floor = heapRoom()
        let burst = SimTime(microseconds: 25_200_000_000), after = burst + .seconds(10)
        for id in 0..<100_000 { queue.schedule(id, at: burst) }
        for id in 0..<3 { queue.schedule(100_000 + id, at: after) }
        var popped: [Int] = []
        let (first, id) = queue.pop()!
        popped.append(id)
        #expect(first == burst)
        #expect(heapRoom() == 103_125)
        // What the burst's events schedule into their own slot fits the room spared.
        for k in 0..<3_000 { queue.schedule(200_000 + k, at: burst + .microseconds(1)) }
        for _ in 1..<103_000 {
            let (time, id) = queue.pop()!
            #expect(time == (id < 100_000 ? burst : burst + .microseconds(1)))
            popped.append(id)
        }
        #expect(heapRoom() == 103_125)
        #expect(popped == Array(0..<100_000) + Array(200_000..<203_000))
        // The next slot needs 3: the room goes back to the floor.
        #expect(queue.pop()! == (after, 100_000))
        #expect(heapRoom() == floor)
        #expect(queue.pop()! == (after, 100_001) && queue.pop()! == (after, 100_002) && queue.isEmpty)
    }

    /// Property: an order reserved at one moment and used by a schedule later puts the
    /// entry exactly where a schedule at that moment would: two queues, one scheduling
    /// eagerly and one reserving and scheduling after some other schedules and pops,
    /// pop the same (time, id) sequence (both tie-breaks, many ties).
    @Test(arguments: [false, true]) func aReservedOrderPopsAsAnEagerSchedule(keyed: Bool) {
        for seed in UInt64(0)..<100 {
            var rng = RandomStream(splitMixSeed: seed)
            var eager = EventQueue<Int>(), late = EventQueue<Int>()
            var eagerKeys: RandomStream? = keyed ? RandomStream(splitMixSeed: seed &+ 5) : nil, lateKeys = eagerKeys
            var held: [(id: Int, time: Int64, order: UInt64)] = []
            var eagerPops: [Int] = [], latePops: [Int] = []
            var now: Int64 = 0
            for id in 0 ..< 300 {
                let t = now + rng.int(in: 0...5)
                if rng.chance(0.3) {
                    eager.schedule(id, at: SimTime(microseconds: t), keys: &eagerKeys)
                    held.append((id, t, late.reserveOrder(keys: &lateKeys)))
                } else {
                    eager.schedule(id, at: SimTime(microseconds: t), keys: &eagerKeys)
                    late.schedule(id, at: SimTime(microseconds: t), keys: &lateKeys)
                }
                // Held entries go in before anything at or after their time pops.
                if rng.chance(0.4) || id == 299 {
                    for h in held { late.schedule(h.id, at: SimTime(microseconds: h.time), order: h.order) }
                    held = []
                    for _ in 0 ..< rng.int(in: 0...3) {
                        guard let e = eager.pop(), let l = late.pop() else { break }
                        eagerPops.append(e.event); latePops.append(l.event); now = e.time.microseconds
                    }
                }
            }
            while let e = eager.pop(), let l = late.pop() { eagerPops.append(e.event); latePops.append(l.event) }
            #expect(latePops == eagerPops, "seed \(seed)")
            #expect(eager.isEmpty && late.isEmpty)
        }
    }

    /// An event of up to 10 bytes (two 32-bit ids and a tag, as the world's) fits beside
    /// the time and the 48-bit order in 24 bytes; one byte more takes the entry to 32.
    @Test func entriesOfEventsUpToTenBytesAreTwentyFourBytes() {
        enum TenBytes { case ids(UInt32, UInt32, UInt8), one(UInt32) }
        enum ElevenBytes { case ids(UInt32, UInt32, UInt16), one(UInt32) }
        #expect(MemoryLayout<TenBytes>.size == 10 && MemoryLayout<ElevenBytes>.size == 11)
        #expect(EventQueue<TenBytes>.entryStride == 24)
        #expect(EventQueue<Int>.entryStride == 24)
        #expect(EventQueue<ElevenBytes>.entryStride == 32)
    }

    /// Property: with retractions mixed into random schedules and pops (both tie-breaks),
    /// a retraction succeeds only for a pending entry, that entry never pops, and
    /// everything else comes out exactly as from a sorted array without it.
    @Test(arguments: [false, true]) func retractedEntriesNeverPop(keyed: Bool) {
        var mismatches = 0, retracted = 0, refused = 0
        for seed in UInt64(0)..<400 {
            var rng = RandomStream(splitMixSeed: seed)
            var queue = EventQueue<Int>()
            var keys: RandomStream? = keyed ? RandomStream(splitMixSeed: seed &+ 3) : nil
            var reference = SortedReference(keys: keys)
            var placements: [EventQueue<Int>.Placement] = []
            var cursor = Int64(0)
            for _ in 0..<Int(rng.int(in: 1...400)) {
                let roll = rng.int(in: 0...9)
                if roll < 5 {
                    // Mostly seconds to hours ahead, as a job's stop deadline.
                    let (ahead, overflow) = cursor.addingReportingOverflow(rng.int(in: 0...(2 * 3_600_000_000)))
                    let time = rng.chance(0.7) ? (overflow ? .max : ahead) : Self.draw(near: cursor, &rng)
                    placements.append(queue.schedule(placements.count, at: SimTime(microseconds: time), keys: &keys))
                    reference.schedule(placements.count - 1, at: time)
                } else if roll < 8, !placements.isEmpty {
                    let id = Int(rng.int(in: 0...Int64(placements.count - 1)))
                    if queue.retract(placements[id], if: { $0 == id }) {
                        retracted += 1
                        if let k = reference.entries.firstIndex(where: { $0.id == id }) { reference.entries.remove(at: k) } else { mismatches += 1 }
                    } else {
                        refused += 1
                    }
                } else if let (time, id) = queue.pop() {
                    let want = reference.popFirst()
                    if time.microseconds != want?.0 || id != want?.1 { mismatches += 1 }
                    cursor = max(cursor, time.microseconds)
                }
                if queue.count != reference.entries.count { mismatches += 1 }
            }
            while let (time, id) = queue.pop() {
                let want = reference.popFirst()
                if time.microseconds != want?.0 || id != want?.1 { mismatches += 1 }
            }
            if !reference.entries.isEmpty { mismatches += 1 }
        }
        #expect(mismatches == 0)
        // Both outcomes happen: retractions from the wheel, refusals (popped, near, moved).
        #expect(retracted > 1_000 && refused > 1_000)
    }

    /// A retraction checks the entry it finds (the event, not retracted already, its
    /// chunk still in the bucket); a retracted entry keeps its slot, so the bucket's
    /// next entry goes beside it and the queue's count and next time leave it out.
    @Test func retractionChecksTheEntryItFinds() {
        var queue = EventQueue<Int>()
        let hour = Int64(3_600_000_000)
        let first = queue.schedule(1, at: SimTime(microseconds: hour))
        let wrongEvent = queue.retract(first, if: { $0 == 2 })
        let rightEvent = queue.retract(first, if: { $0 == 1 })
        let again = queue.retract(first, if: { $0 == 1 })
        let emptied = queue.nextTime
        #expect(first != .near && !wrongEvent && rightEvent && !again)
        #expect(queue.isEmpty && emptied == nil)
        let second = queue.schedule(2, at: SimTime(microseconds: hour + 1))
        queue.schedule(3, at: SimTime(microseconds: 5))
        let next = queue.nextTime
        #expect(second != first && queue.count == 2 && next == SimTime(microseconds: 5))
        let popped = [queue.pop()?.event, queue.pop()?.event, queue.pop()?.event]
        #expect(popped == [3, 2, nil])
        // Popped: nothing left to retract; a placement in a freed chunk is refused
        // whatever the caller's check says.
        let afterPop = queue.retract(second, if: { $0 == 2 })
        let third = queue.schedule(4, at: SimTime(microseconds: 2 * hour))
        let otherBucket = queue.retract(first, if: { $0 == 4 })
        #expect(!afterPop && !otherBucket && queue.count == 1)
        let last = queue.retract(third, if: { $0 == 4 })
        let drained = queue.pop()
        #expect(last && drained == nil)
    }

    /// In a bucket of several chunks, retractions in any order take out exactly the
    /// entries asked for (an emptied last chunk hands the end of the list to the chunk
    /// before it), and the rest, with entries added after, pop in order.
    @Test func retractionsAcrossTheChunksOfABucket() {
        var rng = RandomStream(splitMixSeed: 11)
        var queue = EventQueue<Int>()
        let hour = Int64(3_600_000_000)
        // 100 entries in one level-1 bucket: four chunks.
        let placements = (0..<100).map { queue.schedule($0, at: SimTime(microseconds: hour + Int64($0) * 1_000)) }
        var order = Array(0..<100)
        for i in stride(from: 99, to: 0, by: -1) { order.swapAt(i, Int(rng.int(in: 0...Int64(i)))) }
        var refused = 0
        for id in order.prefix(70) where !queue.retract(placements[id], if: { $0 == id }) { refused += 1 }
        for id in 100..<110 { queue.schedule(id, at: SimTime(microseconds: hour + Int64(id) * 1_000)) }
        var popped: [Int] = []
        while let (_, id) = queue.pop() { popped.append(id) }
        let retracted = Set(order.prefix(70))
        #expect(refused == 0)
        #expect(popped == (0..<110).filter { !retracted.contains($0) })
    }

    /// A queue is a value: a copy taken with entries in the heap and in two wheel levels,
    /// drained and refilled, leaves the original's entries (non-trivial ones, to exercise
    /// the copy's own storage) and order as they were, and the other way round.
    @Test func aCopyIsIndependentOfTheOriginal() {
        var original = EventQueue<String>()
        // Up to 90 minutes ahead: the near heap, level 0 and level 1 of the wheel.
        for i in 0..<100 { original.schedule("e\(i)", at: SimTime(microseconds: Int64(i % 10) * 600_000_000 + Int64(i))) }
        #expect(original.pop()?.event == "e0")
        var copy = original
        var drained: [String] = []
        while let (_, event) = copy.pop() { drained.append(event) }
        copy.schedule("copy only", at: SimTime(microseconds: 1))
        var copyOfCopy = copy
        copyOfCopy.schedule("copy of copy only", at: SimTime(microseconds: 0))
        var rest: [String] = []
        while let (_, event) = original.pop() { rest.append(event) }
        #expect(drained.count == 99)
        #expect(rest == drained)
        #expect(copy.count == 1 && copy.pop()?.event == "copy only")
        #expect(copyOfCopy.count == 2 && copyOfCopy.pop()?.event == "copy of copy only")
    }

    @Test func sameInstantIsFirstInFirstOut() {
        var queue = EventQueue<String>()
        for name in ["a", "b", "c", "d", "e"] { queue.schedule(name, at: SimTime(microseconds: 7)) }
        queue.schedule("early", at: SimTime(microseconds: 1))
        #expect((0..<6).map { _ in queue.pop()!.event } == ["early", "a", "b", "c", "d", "e"])
        #expect(queue.pop() == nil)
    }

    /// Orders the caller computes (the world's keyed ties): same-instant events pop by
    /// them, while different instants stay in time order.
    @Test func callerOrdersBreakTiesAndKeepTimeOrder() {
        var queue = EventQueue<Int>()
        for i in 0..<20 { queue.schedule(i, at: SimTime(microseconds: 5), order: UInt64((i * 7) % 20)) }
        queue.schedule(-1, at: SimTime(microseconds: 9), order: 0)
        let popped = (0..<21).map { _ in queue.pop()!.event }
        #expect(popped.last == -1)
        #expect(popped.dropLast().map { (($0 * 7) % 20) } == Array(0..<20))
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

    /// Property: a clock driven like a world (schedules after pops, many of them in the
    /// past, bounded steps) runs the events a sorted reference with the same clamping
    /// runs, at the same `now`.
    @Test func clampedPastSchedulesMatchASortedReference() {
        var mismatches = 0
        for seed in UInt64(0)..<1_000 {
            var rng = RandomStream(splitMixSeed: seed)
            var clock = SimClock<Int>()
            var keys: RandomStream? = seed % 2 == 0 ? nil : RandomStream(splitMixSeed: seed)
            var reference = EventQueueTests.SortedReference(keys: keys)
            var now = Int64(0)
            var id = 0
            for _ in 0..<200 {
                if rng.chance(0.5) {
                    let time = EventQueueTests.draw(near: now, &rng)
                    if keys != nil {
                        clock.schedule(id, at: SimTime(microseconds: time), order: keys!.next() >> UInt64(64 - EventQueue<Int>.orderBits))
                    } else {
                        clock.schedule(id, at: SimTime(microseconds: time))
                    }
                    reference.schedule(id, at: max(time, now))
                    id += 1
                } else {
                    let end = EventQueueTests.draw(near: now, &rng)
                    let got = clock.next(before: SimTime(microseconds: end))
                    let want = reference.pop(before: end)
                    now = max(now, want?.0 ?? end)
                    if got != want?.1 || clock.now.microseconds != now { mismatches += 1 }
                }
            }
        }
        #expect(mismatches == 0)
    }

    /// An event at the clock's end or after it is not kept; one a microsecond before is.
    @Test func keepsNothingAtOrAfterTheEnd() {
        let end = SimTime(microseconds: 1_000)
        var clock = SimClock<Int>(end: end)
        clock.schedule(1, at: SimTime(microseconds: 999))
        clock.schedule(2, at: end)
        clock.schedule(3, after: .days(7))
        clock.schedule(4, at: SimTime(microseconds: .max))
        #expect(clock.scheduleRetractably(5, at: end) == .near)
        clock.schedule(6, at: end, order: clock.reserveOrder())
        #expect(clock.queue.count == 1)
        #expect(clock.next(before: end) == 1)
        #expect(clock.next(before: end) == nil)
        #expect(clock.now == end)
    }

    /// A schedule past the end still takes its order: the events before the end run in
    /// the order a clock without an end gives them, first-scheduled-first.
    @Test func anEventNotKeptStillTakesItsOrder() {
        let end = SimTime(microseconds: 100)
        do {
            var bounded = SimClock<Int>(end: end)
            var unbounded = SimClock<Int>()
            var rng = RandomStream(splitMixSeed: 3)
            for id in 0..<400 {
                // Five instants, the last two at and past the end: many ties.
                let time = SimTime(microseconds: [10, 20, 50, 100, 150][Int(rng.int(in: 0...4))])
                if id % 3 == 0 {
                    bounded.schedule(id, at: time, order: bounded.reserveOrder())
                    unbounded.schedule(id, at: time, order: unbounded.reserveOrder())
                } else {
                    bounded.schedule(id, at: time)
                    unbounded.schedule(id, at: time)
                }
            }
            var got: [Int] = [], want: [Int] = []
            while let e = bounded.next(before: end) { got.append(e) }
            while let e = unbounded.next(before: end) { want.append(e) }
            #expect(got == want)
            #expect(got.count > 200)
            #expect(bounded.queue.isEmpty)
            #expect(unbounded.queue.count == 400 - got.count)
        }
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

@Suite struct PackedTimeTests {
    /// Every time a deadline can hold comes back as it went in, the extremes included, and
    /// nil stays nil: the packing is invisible to the state that uses it.
    @Test func holdsEveryTimeButItsSentinel() {
        for t in [SimTime.zero, SimTime(microseconds: -1), SimTime(microseconds: .min + 1), SimTime(microseconds: .max)] {
            #expect(PackedTime(t).value == t)
        }
        #expect(PackedTime(nil).value == nil && PackedTime.none == PackedTime(nil))
        var p = PackedTime(.zero)
        p.value = nil
        #expect(p == .none)
        #expect(MemoryLayout<PackedTime>.stride == 8 && MemoryLayout<SimTime?>.stride == 16)
    }
}

extension EventQueue {
    /// A schedule as the tests make it: the queue's own sequence, or with `keys` an order
    /// the caller draws (as the world's keyed ties give one), as ``SortedReference`` does.
    @discardableResult mutating func schedule(_ event: Event, at time: SimTime, keys: inout RandomStream?) -> Placement {
        guard keys != nil else { return schedule(event, at: time) }
        return schedule(event, at: time, order: keys!.next() >> UInt64(64 - Self.orderBits))
    }

    /// ``reserveOrder()``, or with `keys` the caller's next order.
    mutating func reserveOrder(keys: inout RandomStream?) -> UInt64 {
        keys != nil ? keys!.next() >> UInt64(64 - Self.orderBits) : reserveOrder()
    }
}
