/// The pending-event set of a world: plain values ordered by (time, order).
///
/// `order` is the schedule sequence number (first scheduled runs first among equal
/// times, as swift-nio's `EmbeddedEventLoop` does with `insertOrder`), or with
/// ``TieBreak/shuffle`` a seeded random key so that same-instant events are explored
/// in reproducible random interleavings.
///
/// Two levels, so that the cost of an event does not grow with the fleet:
/// - the near future, every entry up to the horizon (``lastKey``), is a 4-ary
///   min-heap in one contiguous array; sifting moves a hole instead of swapping (HeapModule's
///   technique). It holds one slot of about a second, so it stays in cache.
/// - the far future is a hierarchical timing wheel (Varghese and Lauck's scheme 7): per
///   level, 1,024 unsorted buckets, a slot of 2^20 µs (about 1 s) at level 0 and 1,024
///   times wider at each level above. An entry goes to the lowest level whose bucket
///   tells it apart from the horizon, by appending (a sequential write); when the
///   horizon reaches a bucket, its entries move down a level, and a level-0 bucket's
///   entries become the heap. An entry hours ahead is copied three times; none is
///   ever compared against the millions of others pending.
/// - the buckets' entries live in chunks of 32, a bucket being a list of chunks and
///   emptied chunks reused first, so the wheel holds about its pending entries plus one
///   part-filled chunk per bucket. Chunks come in segments of 32,768 entries (768 KiB of
///   the world's 24-byte entries) that are never moved: growing copies nothing, so the peak resident set is the pending set's.
///
/// The order handed out is exactly (time, order) for any times, including equal
/// ones, times before the horizon and the ends of `Int64`: the heap orders
/// everything before the horizon and every wheel entry is at or after it.
/// Cancellation is not done here: events carry a generation and stale ones are
/// dropped when popped (see ``GenerationCounter``), so nothing ever searches the set.
public struct EventQueue<Event> {
    public enum TieBreak: Sendable { case fifo, shuffle }

    /// An entry: its time, its event, then its 48-bit order in two fields. The event goes
    /// before the order so that an event of up to 10 bytes (the world's) fills the gap
    /// and the entry is 24 bytes; a 64-bit order after the time would pad it to 32.
    @usableFromInline struct Entry {
        @usableFromInline var time: Int64
        @usableFromInline var event: Event
        @usableFromInline var orderHigh: UInt16
        @usableFromInline var orderLow: UInt32
        @inlinable init(time: Int64, order: UInt64, event: Event) {
            self.time = time; self.event = event
            orderHigh = UInt16(truncatingIfNeeded: order >> 32); orderLow = UInt32(truncatingIfNeeded: order)
        }
        @inlinable var order: UInt64 { UInt64(orderHigh) << 32 | UInt64(orderLow) }
        @inlinable func precedes(_ other: Entry) -> Bool {
            time < other.time || (time == other.time && order < other.order)
        }
        /// The time as an unsigned key in the same order (`Int64.min` is 0).
        @inlinable var key: UInt64 { UInt64(bitPattern: time) ^ (1 << 63) }
    }

    /// Bits of an entry's order: the schedule sequence (a world schedules nowhere near
    /// 2^48 events; ``schedule(_:at:)`` stops at it), or the top bits of a shuffle draw.
    @inlinable public static var orderBits: Int { 48 }

    /// log2 of a level-0 slot in µs: 2^20 µs, about one second.
    @inlinable static var slotShift: Int { 20 }
    /// log2 of the buckets per level.
    @inlinable static var digitBits: Int { 10 }
    @inlinable static var bucketsPerLevel: Int { 1 << digitBits }
    /// Levels enough for every key above the slot bits (44 bits: 5 levels of 10).
    @inlinable static var levels: Int { (64 - slotShift + digitBits - 1) / digitBits }
    @inlinable static var wordsPerLevel: Int { bucketsPerLevel / 64 }

    /// Every pending entry with a key at or below ``lastKey``.
    @usableFromInline var heap: [Entry] = []
    /// The last key the heap covers; wheel entries are all after it. Starts just before
    /// time zero; advances a slot at a time.
    @usableFromInline var lastKey: UInt64 = (1 << 63) &- 1
    /// Entries per chunk of the wheel's storage.
    @inlinable static var chunkSize: Int { 32 }
    /// log2 of the chunks per segment.
    @inlinable static var segmentShift: Int { 10 }
    /// The wheel's entries: segments of chunks, chunk `c` at `segments[c >> segmentShift]`.
    @usableFromInline var segments: [[Entry]] = []
    /// Per chunk: the next chunk of its bucket or of the free list; -1 ends a list.
    @usableFromInline var nextChunk: [Int32] = []
    /// The first free chunk, or -1.
    @usableFromInline var freeChunk: Int32 = -1
    /// Per bucket (`levels` × `bucketsPerLevel`, level-major): its first and last chunk
    /// (-1 when empty) and the entries in its last chunk.
    @usableFromInline var bucketHead: [Int32]
    @usableFromInline var bucketTail: [Int32]
    @usableFromInline var tailFill: [Int32]
    /// One bit per bucket: set when the bucket holds entries.
    @usableFromInline var occupied: [UInt64]
    @usableFromInline var wheelCount = 0
    @usableFromInline var sequence: UInt64 = 0
    @usableFromInline var shuffle: RandomStream?

    /// - Parameters:
    ///   - shuffleStream: with `.shuffle`, the stream that draws tie keys.
    ///   - reserve: the pending entries expected; the near heap reserves room for as
    ///     many, at most ``nearReserveLimit`` (it only holds about a second's entries).
    public init(tieBreak: TieBreak = .fifo, shuffleStream: RandomStream? = nil, reserve: Int = 0) {
        if tieBreak == .shuffle { shuffle = shuffleStream ?? RandomStream(seed: 0, entity: 0, purpose: "tieBreak") }
        bucketHead = Array(repeating: -1, count: Self.levels * Self.bucketsPerLevel)
        bucketTail = bucketHead
        tailFill = Array(repeating: 0, count: Self.levels * Self.bucketsPerLevel)
        occupied = Array(repeating: 0, count: Self.levels * Self.wordsPerLevel)
        heap.reserveCapacity(min(reserve, Self.nearReserveLimit))
    }

    /// The most the near heap reserves up front: about one slot's entries at a million
    /// devices.
    public static var nearReserveLimit: Int { 4_096 }

    @inlinable public var count: Int { heap.count &+ wheelCount }
    @inlinable public var isEmpty: Bool { count == 0 }
    /// How many events have ever been scheduled.
    @inlinable public var scheduledCount: UInt64 { sequence }
    /// The time of the earliest pending event.
    @inlinable public var nextTime: SimTime? {
        mutating get {
            if heap.isEmpty { guard wheelCount > 0 else { return nil }; refill() }
            return SimTime(microseconds: heap[0].time)
        }
    }

    /// The event that pops next when it is already in the near heap; nil when the heap is
    /// empty (no refill). For prefetching the state it will touch.
    @inlinable public var nextNearEvent: Event? { heap.isEmpty ? nil : heap[0].event }

    /// Adds an event. - Complexity: O(1) when after the horizon; O(log₄ of the near
    /// heap) before it.
    @inlinable public mutating func schedule(_ event: Event, at time: SimTime) {
        sequence &+= 1
        precondition(sequence < 1 << Self.orderBits, "EventQueue: 2^48 events scheduled; the order would wrap")
        let order: UInt64
        if shuffle != nil { order = shuffle!.next() >> UInt64(64 - Self.orderBits) } else { order = sequence }
        let entry = Entry(time: time.microseconds, order: order, event: event)
        if entry.key <= lastKey { push(entry) } else { place(entry); wheelCount &+= 1 }
    }

    @inlinable mutating func push(_ entry: Entry) {
        heap.append(entry)
        let count = heap.count
        heap.withUnsafeMutableBufferPointer { h in
            var hole = count - 1
            while hole > 0 {
                let parent = (hole &- 1) >> 2
                guard entry.precedes(h[parent]) else { break }
                h[hole] = h[parent]
                hole = parent
            }
            h[hole] = entry
        }
    }

    /// Appends a wheel entry (its key is after ``lastKey``) to the bucket of the lowest
    /// level at which its key and the horizon's differ.
    @inlinable mutating func place(_ entry: Entry) {
        let key = entry.key, horizon = lastKey &+ 1
        let diff = (key >> UInt64(Self.slotShift)) ^ (horizon >> UInt64(Self.slotShift))
        let level = diff == 0 ? 0 : (63 &- diff.leadingZeroBitCount) / Self.digitBits
        let digit = Int(truncatingIfNeeded: key >> UInt64(Self.slotShift &+ level &* Self.digitBits)) & (Self.bucketsPerLevel &- 1)
        let bucket = level &* Self.bucketsPerLevel &+ digit
        var tail = Int(truncatingIfNeeded: bucketTail[bucket])
        var fill = Int(truncatingIfNeeded: tailFill[bucket])
        if tail < 0 || fill == Self.chunkSize {
            let chunk = takeChunk(filler: entry)
            if tail < 0 {
                bucketHead[bucket] = Int32(truncatingIfNeeded: chunk)
                occupied[bucket >> 6] |= 1 << UInt64(bucket & 63)
            } else {
                nextChunk[tail] = Int32(truncatingIfNeeded: chunk)
            }
            bucketTail[bucket] = Int32(truncatingIfNeeded: chunk)
            tail = chunk
            fill = 0
        }
        segments[tail >> Self.segmentShift][(tail & Self.segmentMask) &* Self.chunkSize &+ fill] = entry
        tailFill[bucket] = Int32(truncatingIfNeeded: fill &+ 1)
    }

    @inlinable static var segmentMask: Int { (1 << segmentShift) - 1 }

    /// A free chunk, the most recently freed first; else the next never used one, in a
    /// new segment (`filler` fills it until written) when the last is full.
    @inlinable @inline(never) mutating func takeChunk(filler: Entry) -> Int {
        if freeChunk >= 0 {
            let chunk = Int(freeChunk)
            freeChunk = nextChunk[chunk]
            nextChunk[chunk] = -1
            return chunk
        }
        if nextChunk.count == segments.count << Self.segmentShift {
            segments.append(Array(repeating: filler, count: Self.chunkSize << Self.segmentShift))
        }
        nextChunk.append(-1)
        return nextChunk.count &- 1
    }

    /// Empties `bucket`, returning its chunk list (first, last, entries in the last).
    @inlinable mutating func detach(_ bucket: Int) -> (head: Int, tail: Int, fill: Int) {
        let list = (Int(bucketHead[bucket]), Int(bucketTail[bucket]), Int(tailFill[bucket]))
        bucketHead[bucket] = -1
        bucketTail[bucket] = -1
        tailFill[bucket] = 0
        occupied[bucket >> 6] &= ~(1 << UInt64(bucket & 63))
        return list
    }

    /// Puts `chunk` first on the free list.
    @inlinable mutating func free(_ chunk: Int) {
        nextChunk[chunk] = freeChunk
        freeChunk = Int32(truncatingIfNeeded: chunk)
    }

    /// Removes and returns the earliest event.
    ///
    /// Floyd's bottom-up deletion: the hole left at the root sinks to a leaf along the
    /// smaller children without comparing against the displaced last element, which
    /// then rises from there. The last element usually belongs near the bottom, so
    /// this does about half the comparisons of a top-down sift.
    /// - Complexity: O(log₄ of the near heap), plus a refill when the heap is empty.
    @inlinable public mutating func pop() -> (time: SimTime, event: Event)? {
        if heap.isEmpty {
            guard wheelCount > 0 else { return nil }
            refill()
        }
        let tail = heap.removeLast()
        guard !heap.isEmpty else { return (SimTime(microseconds: tail.time), tail.event) }
        let top = heap[0]
        let count = heap.count
        heap.withUnsafeMutableBufferPointer { h in
            var hole = 0
            while true {
                let first = (hole << 2) &+ 1
                if first >= count { break }
                var best = first
                var bestEntry = h[first]
                if first &+ 3 < count {
                    // A full node: four children, the smallest kept in registers.
                    let e1 = h[first &+ 1], e2 = h[first &+ 2], e3 = h[first &+ 3]
                    if e1.precedes(bestEntry) { best = first &+ 1; bestEntry = e1 }
                    if e2.precedes(bestEntry) { best = first &+ 2; bestEntry = e2 }
                    if e3.precedes(bestEntry) { best = first &+ 3; bestEntry = e3 }
                } else {
                    var c = first &+ 1
                    while c < count {
                        if h[c].precedes(bestEntry) { best = c; bestEntry = h[c] }
                        c &+= 1
                    }
                }
                h[hole] = bestEntry
                hole = best
            }
            while hole > 0 {
                let parent = (hole &- 1) >> 2
                guard tail.precedes(h[parent]) else { break }
                h[hole] = h[parent]
                hole = parent
            }
            h[hole] = tail
        }
        return (SimTime(microseconds: top.time), top.event)
    }

    /// Removes and returns the earliest event if it is due strictly before `limit`.
    /// - Complexity: that of ``pop()``.
    @inlinable public mutating func pop(before limit: SimTime) -> (time: SimTime, event: Event)? {
        if heap.isEmpty {
            guard wheelCount > 0 else { return nil }
            refill()
        }
        guard heap[0].time < limit.microseconds else { return nil }
        return pop()
    }

    /// With the heap empty and the wheel not: moves the horizon to the earliest occupied
    /// level-0 slot, cascading higher buckets down as the horizon enters them, and makes
    /// that slot's bucket the heap.
    @inlinable @inline(never) mutating func refill() {
        let shift = UInt64(Self.slotShift), bits = UInt64(Self.digitBits)
        let digitMask = UInt64(Self.bucketsPerLevel - 1)
        while true {
            let horizon = lastKey &+ 1
            if let slot = firstOccupied(level: 0, from: Int(truncatingIfNeeded: (horizon >> shift) & digitMask)) {
                // Every bucket of the horizon's digits above level 0 is empty (cascaded), so
                // this slot holds the earliest entries.
                let start = ((horizon >> (shift + bits)) << (shift + bits)) | (UInt64(slot) << shift)
                lastKey = start &+ ((1 << shift) &- 1)
                let list = detach(slot)
                var chunk = list.head
                while chunk >= 0 {
                    let next = Int(nextChunk[chunk])
                    let base = (chunk & Self.segmentMask) &* Self.chunkSize
                    heap.append(contentsOf: segments[chunk >> Self.segmentShift][base ..< base &+ (chunk == list.tail ? list.fill : Self.chunkSize)])
                    free(chunk)
                    chunk = next
                }
                wheelCount &-= heap.count
                heapify()
                if lastKey != .max { cascade(below: Self.levels) }
                return
            }
            // Level 0 is empty: jump to the next occupied bucket of the lowest level
            // that has one after the horizon's digit.
            var level = 1
            while level < Self.levels {
                let levelShift = shift + bits * UInt64(level)
                let digit = Int(truncatingIfNeeded: (horizon >> levelShift) & digitMask)
                if digit &+ 1 < Self.bucketsPerLevel, let next = firstOccupied(level: level, from: digit &+ 1) {
                    let above = levelShift + bits
                    let high = above >= 64 ? 0 : (horizon >> above) << above
                    lastKey = (high | (UInt64(next) << levelShift)) &- 1
                    cascade(below: level &+ 1)
                    break
                }
                level &+= 1
            }
            precondition(level < Self.levels, "EventQueue: wheel count and buckets disagree")
        }
    }

    /// After the horizon moved: for each level from `top - 1` down to 1, moves the
    /// bucket of the horizon's digit (entries now in the same bucket as the horizon at
    /// that level) to lower levels. Top down, so an entry can fall several levels.
    @inlinable @inline(never) mutating func cascade(below top: Int) {
        let horizon = lastKey &+ 1
        var level = top &- 1
        while level >= 1 {
            let levelShift = UInt64(Self.slotShift + Self.digitBits * level)
            let digit = Int(truncatingIfNeeded: (horizon >> levelShift) & UInt64(Self.bucketsPerLevel - 1))
            let bucket = level &* Self.bucketsPerLevel &+ digit
            if bucketHead[bucket] >= 0 {
                // Each chunk is freed once read, so the entries it scatters can reuse it.
                let list = detach(bucket)
                var chunk = list.head
                while chunk >= 0 {
                    let next = Int(nextChunk[chunk])
                    let segment = chunk >> Self.segmentShift, base = (chunk & Self.segmentMask) &* Self.chunkSize
                    for i in base ..< base &+ (chunk == list.tail ? list.fill : Self.chunkSize) { place(segments[segment][i]) }
                    free(chunk)
                    chunk = next
                }
            }
            level &-= 1
        }
    }

    /// The first occupied bucket of `level` at digit `from` or later.
    @inlinable func firstOccupied(level: Int, from: Int) -> Int? {
        var word = level &* Self.wordsPerLevel &+ (from >> 6)
        let end = (level &+ 1) &* Self.wordsPerLevel
        var bits = occupied[word] & (~0 << UInt64(from & 63))
        while true {
            if bits != 0 { return (word &- level &* Self.wordsPerLevel) &* 64 &+ bits.trailingZeroBitCount }
            word &+= 1
            if word == end { return nil }
            bits = occupied[word]
        }
    }

    /// Floyd's bottom-up heap construction over the whole array.
    @inlinable @inline(never) mutating func heapify() {
        let count = heap.count
        guard count > 1 else { return }
        heap.withUnsafeMutableBufferPointer { h in
            var start = (count &- 2) >> 2
            while start >= 0 {
                let entry = h[start]
                var hole = start
                while true {
                    let first = (hole << 2) &+ 1
                    if first >= count { break }
                    var best = first
                    var c = first &+ 1
                    let end = min(first &+ 4, count)
                    while c < end {
                        if h[c].precedes(h[best]) { best = c }
                        c &+= 1
                    }
                    guard h[best].precedes(entry) else { break }
                    h[hole] = h[best]
                    hole = best
                }
                h[hole] = entry
                start &-= 1
            }
        }
    }

    /// Bytes the queue holds in heap allocations: every array's capacity (the heap, the
    /// wheel's chunks, lists and bitmap), for `fleetsim bench`'s memory breakdown.
    public var allocatedBytes: Int {
        var entries = heap.capacity
        for segment in segments { entries &+= segment.capacity }
        return entries &* MemoryLayout<Entry>.stride &+ segments.capacity &* MemoryLayout<[Entry]>.stride
            &+ (nextChunk.capacity &+ bucketHead.capacity &+ bucketTail.capacity &+ tailFill.capacity) &* MemoryLayout<Int32>.stride
            &+ occupied.capacity &* MemoryLayout<UInt64>.stride
    }

    /// The size of one pending entry in its arrays: time, order and the event.
    public static var entryStride: Int { MemoryLayout<Entry>.stride }
}

/// Cancellation without searching the heap: a slot (a device's timer, a task) keeps a
/// generation; an event carries the generation it was armed with and is ignored when
/// popped if the slot has moved on.
public struct GenerationCounter: Sendable, Equatable {
    public var current: UInt32 = 0
    public init() {}
    /// Invalidates every event armed before and returns the generation for a new one.
    @inlinable public mutating func arm() -> UInt32 { bump(); return current }
    /// Invalidates every armed event.
    @inlinable public mutating func cancel() { bump() }
    @inlinable public func isCurrent(_ generation: UInt32) -> Bool { generation == current }
    @usableFromInline mutating func bump() { current &+= 1 }
}

extension SimClock {
    /// Bytes the pending set holds in heap allocations (`fleetsim bench`'s memory split).
    public var pendingSetBytes: Int { queue.allocatedBytes }
    /// Bytes of one pending entry.
    public var pendingEntryStride: Int { EventQueue<Event>.entryStride }
}
