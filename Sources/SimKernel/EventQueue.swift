import MemoryHints
/// The pending-event set of a world: plain values ordered by (time, order).
///
/// `order` is the schedule sequence number (first scheduled runs first among equal
/// times, as swift-nio's `EmbeddedEventLoop` does with `insertOrder`), or an order the
/// caller computed (``schedule(_:at:order:)``: the world's keyed ties, which explore
/// same-instant interleavings reproducibly).
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
/// - all of it lives in memory the queue owns (``State``, freed by ``Storage``), so that
///   a schedule or a pop makes one copy-on-write check (``unique()``) rather than one per
///   array it touches (a wheel append touched up to five, a heap push or pop two or three).
///
/// The order handed out is exactly (time, order) for any times, including equal
/// ones, times before the horizon and the ends of `Int64`: the heap orders
/// everything before the horizon and every wheel entry is at or after it.
/// Cancellation is mostly not done here: events carry a generation and stale ones are
/// dropped when popped (see ``GenerationCounter``), so nothing ever searches the set.
/// An entry still in the wheel slot ``schedule(_:at:)`` put it in can be taken back in
/// O(1) with ``retract(_:if:)`` (a job's stop deadline once the job has ended).
public struct EventQueue<Event> {
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
            Self.precedes(time, order, other.time, other.order)
        }
        /// Whether (`time`, `order`) comes before (`otherTime`, `otherOrder`): written as a
        /// select, so that a caller comparing keys it loaded gets no branch.
        @inlinable static func precedes(_ time: Int64, _ order: UInt64, _ otherTime: Int64, _ otherOrder: UInt64) -> Bool {
            time == otherTime ? order < otherOrder : time < otherTime
        }
        /// The time as an unsigned key in the same order (`Int64.min` is 0).
        @inlinable var key: UInt64 { UInt64(bitPattern: time) ^ (1 << 63) }
    }

    /// Bits of an entry's order: the schedule sequence (a world schedules nowhere near
    /// 2^48 events; ``schedule(_:at:)`` stops at it), or a caller's 48-bit key.
    @inlinable public static var orderBits: Int { 48 }

    /// log2 of a level-0 slot in µs: 2^20 µs, about one second.
    @inlinable static var slotShift: Int { 20 }
    /// log2 of the buckets per level.
    @inlinable static var digitBits: Int { 10 }
    @inlinable static var bucketsPerLevel: Int { 1 << digitBits }
    /// Levels enough for every key above the slot bits (44 bits: 5 levels of 10).
    @inlinable static var levels: Int { (64 - slotShift + digitBits - 1) / digitBits }
    @inlinable static var wordsPerLevel: Int { bucketsPerLevel / 64 }
    /// Entries per chunk of the wheel's storage.
    @inlinable static var chunkSize: Int { 32 }
    /// log2 of the chunks per segment.
    @inlinable static var segmentShift: Int { 12 }
    @inlinable static var segmentMask: Int { (1 << segmentShift) - 1 }
    @inlinable static var segmentEntries: Int { chunkSize << segmentShift }
    /// The time that marks a retracted wheel entry: no wheel entry is before time 0 (the
    /// horizon starts there and only advances).
    @inlinable static var retractedTime: Int64 { .min }

    /// A wheel bucket: its first and last chunk (-1 when empty) and the entries in its
    /// last chunk, side by side so that an append reads one cache line.
    @usableFromInline struct Bucket {
        @usableFromInline var head: Int32 = -1
        @usableFromInline var tail: Int32 = -1
        @usableFromInline var fill: Int32 = 0
        @inlinable init() {}
    }

    /// Every array of the queue, as pointers into memory the queue owns (``Storage``
    /// frees it), so that an operation reaches them without an array's copy-on-write
    /// check; ``unique()`` makes the one check an operation needs. An entry slot is
    /// initialized exactly while it holds a pending entry.
    @usableFromInline struct State {
        /// Every pending entry with a key at or below ``lastKey``: a 4-ary min-heap.
        @usableFromInline var heap: UnsafeMutablePointer<Entry>
        @usableFromInline var heapCount = 0
        @usableFromInline var heapCapacity: Int
        /// The heap's room at the start, below which it never shrinks (``sizeEmptyHeap(for:)``).
        @usableFromInline var heapFloor: Int
        /// The last key the heap covers; wheel entries are all after it. Starts just
        /// before time zero; advances a slot at a time.
        @usableFromInline var lastKey: UInt64 = (1 << 63) &- 1
        /// The wheel's entries: segments of chunks, chunk `c` at `segments[c >> segmentShift]`.
        @usableFromInline var segments: UnsafeMutablePointer<UnsafeMutablePointer<Entry>>
        @usableFromInline var segmentCount = 0
        @usableFromInline var segmentCapacity: Int
        /// Per chunk ever used: the next chunk of its bucket or of the free list; -1 ends a list.
        @usableFromInline var nextChunk: UnsafeMutablePointer<Int32>
        /// Per chunk ever used: the bucket whose list holds it, or -1 when it is free
        /// (``retract(_:if:)`` trusts a placement only while its chunk is still there).
        @usableFromInline var chunkBucket: UnsafeMutablePointer<Int32>
        @usableFromInline var chunkCount = 0
        @usableFromInline var chunkCapacity: Int
        /// The first free chunk, or -1.
        @usableFromInline var freeChunk: Int32 = -1
        /// Per bucket (`levels` × `bucketsPerLevel`, level-major).
        @usableFromInline let buckets: UnsafeMutablePointer<Bucket>
        /// One bit per bucket: set when the bucket holds entries.
        @usableFromInline let occupied: UnsafeMutablePointer<UInt64>
        @usableFromInline var wheelCount = 0

        @inlinable static var bucketCount: Int { EventQueue.levels &* EventQueue.bucketsPerLevel }
        @inlinable static var occupiedWords: Int { EventQueue.levels &* EventQueue.wordsPerLevel }

        @usableFromInline init(heapCapacity: Int) {
            self.heapCapacity = Swift.max(heapCapacity, 16)
            heapFloor = self.heapCapacity
            heap = .allocate(capacity: self.heapCapacity)
            segmentCapacity = 4
            segments = .allocate(capacity: segmentCapacity)
            chunkCapacity = 64
            nextChunk = .allocate(capacity: chunkCapacity)
            chunkBucket = .allocate(capacity: chunkCapacity)
            buckets = .allocate(capacity: Self.bucketCount)
            buckets.initialize(repeating: Bucket(), count: Self.bucketCount)
            occupied = .allocate(capacity: Self.occupiedWords)
            occupied.initialize(repeating: 0, count: Self.occupiedWords)
        }

        /// A copy of `other` with entries of its own (``Storage``'s copy on write).
        @usableFromInline init(copying other: State) {
            self.init(heapCapacity: other.heapCapacity)
            heapFloor = other.heapFloor
            heap.initialize(from: other.heap, count: other.heapCount)
            heapCount = other.heapCount
            lastKey = other.lastKey
            while segmentCount < other.segmentCount { addSegment() }
            growChunks(to: other.chunkCapacity)
            nextChunk.initialize(from: other.nextChunk, count: other.chunkCount)
            chunkBucket.initialize(from: other.chunkBucket, count: other.chunkCount)
            chunkCount = other.chunkCount
            freeChunk = other.freeChunk
            buckets.update(from: other.buckets, count: Self.bucketCount)
            occupied.update(from: other.occupied, count: Self.occupiedWords)
            wheelCount = other.wheelCount
            let copy = self
            other.forEachWheelRun { chunk, count in copy.entries(chunk).initialize(from: other.entries(chunk), count: count) }
        }

        /// Deinitializes every pending entry and frees every allocation.
        @usableFromInline func release() {
            heap.deinitialize(count: heapCount)
            forEachWheelRun { chunk, count in entries(chunk).deinitialize(count: count) }
            for s in 0 ..< segmentCount { segments[s].deallocate() }
            heap.deallocate(); segments.deallocate(); nextChunk.deallocate(); chunkBucket.deallocate()
            buckets.deallocate(); occupied.deallocate()
        }

        /// Calls `body` with each chunk holding pending entries and how many it holds.
        @usableFromInline func forEachWheelRun(_ body: (_ chunk: Int, _ count: Int) -> Void) {
            for bucket in 0 ..< Self.bucketCount {
                let list = buckets[bucket]
                var chunk = Int(list.head)
                while chunk >= 0 {
                    body(chunk, chunk == Int(list.tail) ? Int(list.fill) : EventQueue.chunkSize)
                    chunk = Int(nextChunk[chunk])
                }
            }
        }

        /// Starts loading `chunk`'s entries: a bucket's chunks lie anywhere in the segments,
        /// so emptying one (a refill, a cascade) waits on memory at each chunk unless the
        /// next is asked for while the current one is read.
        @inlinable func prefetchChunk(_ chunk: Int) {
            let first = UnsafeRawPointer(entries(chunk))
            var offset = 0
            while offset < EventQueue.chunkSize &* MemoryLayout<Entry>.stride {
                fleetsim_prefetch(first + offset)
                offset &+= 64
            }
        }

        /// The first slot of `chunk`.
        @inlinable func entries(_ chunk: Int) -> UnsafeMutablePointer<Entry> {
            segments[chunk >> EventQueue.segmentShift] + (chunk & EventQueue.segmentMask) &* EventQueue.chunkSize
        }

        @inlinable mutating func push(_ entry: Entry) {
            if heapCount == heapCapacity { growHeap(minimum: heapCount &+ 1) }
            let h = heap
            var hole = heapCount
            (h + hole).initialize(to: entry)
            heapCount &+= 1
            while hole > 0 {
                let parent = (hole &- 1) >> 2
                guard entry.precedes(h[parent]) else { break }
                h[hole] = h[parent]
                hole = parent
            }
            h[hole] = entry
        }

        /// Sizes the empty heap for a slot of `entries` (retracted ones included): room for
        /// them and a thirty-second more, for what their events schedule into the same slot
        /// (each pops before it schedules, so a slot's count seldom rises: the bench's
        /// 07:00 burst never passed its 104,886 entries), in one allocation rather than
        /// doublings. And the room of a burst (a fleet-wide
        /// instant: every phone of a zone unplugged at 07:00, a broadcast) is given back at
        /// the first slot that needs less than a quarter of it, rather than staying
        /// resident for the rest of the run: at a million devices a burst's doubled heap
        /// was 50 MB (docs/performance.md#memory-per-device). Nothing is copied: the heap is empty.
        @inlinable @inline(never) mutating func sizeEmptyHeap(for entries: Int) {
            assert(heapCount == 0, "EventQueue: the heap is sized only while empty")
            let wanted = Swift.max(entries &+ entries >> 5, heapFloor)
            guard wanted > heapCapacity || heapCapacity > wanted &* 4 else { return }
            heap.deallocate()
            heap = .allocate(capacity: wanted)
            heapCapacity = wanted
        }

        /// Room for at least `minimum` heap entries, doubling.
        @inlinable @inline(never) mutating func growHeap(minimum: Int) {
            let capacity = Swift.max(minimum, heapCapacity &* 2)
            let grown = UnsafeMutablePointer<Entry>.allocate(capacity: capacity)
            grown.moveInitialize(from: heap, count: heapCount)
            heap.deallocate()
            heap = grown
            heapCapacity = capacity
        }

        /// Appends a wheel entry (its key is after ``lastKey``) to the bucket of the lowest
        /// level at which its key and the horizon's differ; returns where.
        @inlinable @discardableResult mutating func place(_ entry: Entry) -> Placement {
            let key = entry.key, horizon = lastKey &+ 1
            let diff = (key >> UInt64(EventQueue.slotShift)) ^ (horizon >> UInt64(EventQueue.slotShift))
            let level = diff == 0 ? 0 : (63 &- diff.leadingZeroBitCount) / EventQueue.digitBits
            let digit = Int(truncatingIfNeeded: key >> UInt64(EventQueue.slotShift &+ level &* EventQueue.digitBits)) & (EventQueue.bucketsPerLevel &- 1)
            let bucket = level &* EventQueue.bucketsPerLevel &+ digit
            let b = buckets + bucket
            var tail = Int(truncatingIfNeeded: b.pointee.tail)
            var fill = Int(truncatingIfNeeded: b.pointee.fill)
            if tail < 0 || fill == EventQueue.chunkSize {
                let chunk = takeChunk()
                chunkBucket[chunk] = Int32(truncatingIfNeeded: bucket)
                if tail < 0 {
                    b.pointee.head = Int32(truncatingIfNeeded: chunk)
                    occupied[bucket >> 6] |= 1 << UInt64(bucket & 63)
                } else {
                    nextChunk[tail] = Int32(truncatingIfNeeded: chunk)
                }
                b.pointee.tail = Int32(truncatingIfNeeded: chunk)
                tail = chunk
                fill = 0
            }
            (entries(tail) + fill).initialize(to: entry)
            b.pointee.fill = Int32(truncatingIfNeeded: fill &+ 1)
            return Placement(bucket: Int32(truncatingIfNeeded: bucket), slot: UInt32(truncatingIfNeeded: tail &* EventQueue.chunkSize &+ fill))
        }

        /// A free chunk, the most recently freed first; else the next never used one, in a
        /// new segment when the last is full.
        @inlinable @inline(never) mutating func takeChunk() -> Int {
            if freeChunk >= 0 {
                let chunk = Int(freeChunk)
                freeChunk = nextChunk[chunk]
                nextChunk[chunk] = -1
                return chunk
            }
            if chunkCount == segmentCount << EventQueue.segmentShift { addSegment() }
            if chunkCount == chunkCapacity { growChunks(to: chunkCapacity &* 2) }
            nextChunk[chunkCount] = -1
            chunkCount &+= 1
            return chunkCount &- 1
        }

        /// A new segment of uninitialized slots; the segments never move.
        @usableFromInline mutating func addSegment() {
            if segmentCount == segmentCapacity {
                let grown = UnsafeMutablePointer<UnsafeMutablePointer<Entry>>.allocate(capacity: segmentCapacity &* 2)
                grown.moveInitialize(from: segments, count: segmentCount)
                segments.deallocate()
                segments = grown
                segmentCapacity &*= 2
            }
            // 3 MiB of entries from a 2 MiB boundary, advised onto huge pages (their first
            // 2 MiB; SimKernel/HugePageArrays): a bucket's appends land anywhere in them.
            let bytes = EventQueue.segmentEntries &* MemoryLayout<Entry>.stride
            let raw = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 2 << 20)
            fleetsim_advise_huge_pages(raw, bytes)
            segments[segmentCount] = raw.bindMemory(to: Entry.self, capacity: EventQueue.segmentEntries)
            segmentCount &+= 1
        }

        /// Room for `capacity` chunks' links.
        @usableFromInline mutating func growChunks(to capacity: Int) {
            guard capacity > chunkCapacity else { return }
            let grown = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
            grown.moveInitialize(from: nextChunk, count: chunkCount)
            nextChunk.deallocate()
            nextChunk = grown
            let owners = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
            owners.moveInitialize(from: chunkBucket, count: chunkCount)
            chunkBucket.deallocate()
            chunkBucket = owners
            chunkCapacity = capacity
        }

        /// Empties `bucket`, returning its chunk list (first, last, entries in the last).
        @inlinable mutating func detach(_ bucket: Int) -> (head: Int, tail: Int, fill: Int) {
            let list = buckets[bucket]
            buckets[bucket] = Bucket()
            occupied[bucket >> 6] &= ~(1 << UInt64(bucket & 63))
            return (Int(list.head), Int(list.tail), Int(list.fill))
        }

        /// Puts `chunk` first on the free list.
        @inlinable mutating func free(_ chunk: Int) {
            nextChunk[chunk] = freeChunk
            chunkBucket[chunk] = -1
            freeChunk = Int32(truncatingIfNeeded: chunk)
        }

        /// Removes and returns the heap's first entry (the heap is not empty).
        ///
        /// Floyd's bottom-up deletion: the hole left at the root sinks to a leaf along the
        /// smaller children without comparing against the displaced last element, which
        /// then rises from there. The last element usually belongs near the bottom, so
        /// this does about half the comparisons of a top-down sift.
        @inlinable mutating func removeFirst() -> Entry {
            heapCount &-= 1
            let count = heapCount, h = heap
            let tail = (h + count).move()
            guard count > 0 else { return tail }
            let top = h[0]
            var hole = 0
            while true {
                let first = (hole << 2) &+ 1
                if first >= count { break }
                var best = first
                if first &+ 3 < count {
                    // A full node: a tournament of the four children's keys, each round a
                    // select rather than a branch (which child wins is a coin toss that
                    // branches mispredicted); the winner's entry moves once.
                    let t0 = h[first].time, t1 = h[first &+ 1].time, t2 = h[first &+ 2].time, t3 = h[first &+ 3].time
                    let o0 = h[first].order, o1 = h[first &+ 1].order, o2 = h[first &+ 2].order, o3 = h[first &+ 3].order
                    let b1 = Entry.precedes(t1, o1, t0, o0)
                    let ia = b1 ? first &+ 1 : first, ta = b1 ? t1 : t0, oa = b1 ? o1 : o0
                    let b3 = Entry.precedes(t3, o3, t2, o2)
                    let ib = b3 ? first &+ 3 : first &+ 2, tb = b3 ? t3 : t2, ob = b3 ? o3 : o2
                    best = Entry.precedes(tb, ob, ta, oa) ? ib : ia
                } else {
                    var bestEntry = h[first]
                    var c = first &+ 1
                    while c < count {
                        if h[c].precedes(bestEntry) { best = c; bestEntry = h[c] }
                        c &+= 1
                    }
                }
                h[hole] = h[best]
                hole = best
            }
            while hole > 0 {
                let parent = (hole &- 1) >> 2
                guard tail.precedes(h[parent]) else { break }
                h[hole] = h[parent]
                hole = parent
            }
            h[hole] = tail
            return top
        }

        /// With the heap empty and the wheel not: moves the horizon to the earliest occupied
        /// level-0 slot, cascading higher buckets down as the horizon enters them, and makes
        /// that slot's bucket the heap, less its retracted entries (a slot of nothing else
        /// is passed over).
        @inlinable @inline(never) mutating func refill() {
            let shift = UInt64(EventQueue.slotShift), bits = UInt64(EventQueue.digitBits)
            let digitMask = UInt64(EventQueue.bucketsPerLevel - 1)
            while true {
                let horizon = lastKey &+ 1
                if let slot = firstOccupied(level: 0, from: Int(truncatingIfNeeded: (horizon >> shift) & digitMask)) {
                    // Every bucket of the horizon's digits above level 0 is empty (cascaded), so
                    // this slot holds the earliest entries.
                    let start = ((horizon >> (shift + bits)) << (shift + bits)) | (UInt64(slot) << shift)
                    lastKey = start &+ ((1 << shift) &- 1)
                    let list = detach(slot)
                    var chunks = 1, link = list.head
                    while link != list.tail { chunks &+= 1; link = Int(nextChunk[link]) }
                    sizeEmptyHeap(for: (chunks &- 1) &* EventQueue.chunkSize &+ list.fill)
                    var chunk = list.head
                    while chunk >= 0 {
                        let next = Int(nextChunk[chunk])
                        if next >= 0 { prefetchChunk(next) }
                        let count = chunk == list.tail ? list.fill : EventQueue.chunkSize
                        let slots = entries(chunk)
                        for i in 0 ..< count {
                            if slots[i].time == EventQueue.retractedTime {
                                (slots + i).deinitialize(count: 1)
                            } else {
                                (heap + heapCount).moveInitialize(from: slots + i, count: 1)
                                heapCount &+= 1
                            }
                        }
                        free(chunk)
                        chunk = next
                    }
                    wheelCount &-= heapCount
                    heapify()
                    if lastKey != .max { cascade(below: EventQueue.levels) }
                    // A slot of retracted entries only: on to the next one.
                    if heapCount > 0 || wheelCount == 0 { return }
                    continue
                }
                // Level 0 is empty: jump to the next occupied bucket of the lowest level
                // that has one after the horizon's digit.
                var level = 1
                while level < EventQueue.levels {
                    let levelShift = shift + bits * UInt64(level)
                    let digit = Int(truncatingIfNeeded: (horizon >> levelShift) & digitMask)
                    if digit &+ 1 < EventQueue.bucketsPerLevel, let next = firstOccupied(level: level, from: digit &+ 1) {
                        let above = levelShift + bits
                        let high = above >= 64 ? 0 : (horizon >> above) << above
                        lastKey = (high | (UInt64(next) << levelShift)) &- 1
                        cascade(below: level &+ 1)
                        break
                    }
                    level &+= 1
                }
                precondition(level < EventQueue.levels, "EventQueue: wheel count and buckets disagree")
            }
        }

        /// After the horizon moved: for each level from `top - 1` down to 1, moves the
        /// bucket of the horizon's digit (entries now in the same bucket as the horizon at
        /// that level) to lower levels. Top down, so an entry can fall several levels.
        @inlinable @inline(never) mutating func cascade(below top: Int) {
            let horizon = lastKey &+ 1
            var level = top &- 1
            while level >= 1 {
                let levelShift = UInt64(EventQueue.slotShift + EventQueue.digitBits * level)
                let digit = Int(truncatingIfNeeded: (horizon >> levelShift) & UInt64(EventQueue.bucketsPerLevel - 1))
                let bucket = level &* EventQueue.bucketsPerLevel &+ digit
                if buckets[bucket].head >= 0 {
                    // Each chunk is freed once read, so the entries it scatters can reuse it.
                    let list = detach(bucket)
                    var chunk = list.head
                    while chunk >= 0 {
                        let next = Int(nextChunk[chunk])
                        if next >= 0 { prefetchChunk(next) }
                        // The chunk's slots stay put while `place` adds segments.
                        let slots = entries(chunk)
                        for i in 0 ..< (chunk == list.tail ? list.fill : EventQueue.chunkSize) {
                            if slots[i].time == EventQueue.retractedTime { (slots + i).deinitialize(count: 1) } else { place((slots + i).move()) }
                        }
                        free(chunk)
                        chunk = next
                    }
                }
                level &-= 1
            }
        }

        /// The first occupied bucket of `level` at digit `from` or later.
        @inlinable func firstOccupied(level: Int, from: Int) -> Int? {
            var word = level &* EventQueue.wordsPerLevel &+ (from >> 6)
            let end = (level &+ 1) &* EventQueue.wordsPerLevel
            var bits = occupied[word] & (~0 << UInt64(from & 63))
            while true {
                if bits != 0 { return (word &- level &* EventQueue.wordsPerLevel) &* 64 &+ bits.trailingZeroBitCount }
                word &+= 1
                if word == end { return nil }
                bits = occupied[word]
            }
        }

        /// Floyd's bottom-up heap construction over the whole heap.
        @inlinable @inline(never) mutating func heapify() {
            let count = heapCount, h = heap
            guard count > 1 else { return }
            var start = (count &- 2) >> 2
            while start >= 0 {
                let entry = h[start]
                var hole = start
                while true {
                    let first = (hole << 2) &+ 1
                    if first >= count { break }
                    var best = first
                    var c = first &+ 1
                    let end = Swift.min(first &+ 4, count)
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

        /// Marks the entry at `placement` retracted if it is still there and `matches` its
        /// event. It stays in its slot, so every other placement stays true, and is
        /// dropped when its bucket is next emptied (``refill()``, ``cascade(below:)``).
        @inlinable mutating func retract(_ placement: Placement, if matches: (Event) -> Bool) -> Bool {
            let bucket = Int(placement.bucket), slot = Int(placement.slot)
            let chunk = slot / EventQueue.chunkSize, index = slot % EventQueue.chunkSize
            // A free chunk, or one another bucket took since, no longer holds the entry.
            guard bucket >= 0, chunk < chunkCount, Int(chunkBucket[chunk]) == bucket else { return false }
            guard chunk != Int(buckets[bucket].tail) || index < Int(buckets[bucket].fill) else { return false }
            let target = entries(chunk) + index
            guard target.pointee.time != EventQueue.retractedTime, matches(target.pointee.event) else { return false }
            target.pointee.time = EventQueue.retractedTime
            wheelCount &-= 1
            return true
        }

        /// Bytes of every allocation: capacities, not just what is in use.
        @usableFromInline var allocatedBytes: Int {
            (heapCapacity &+ segmentCount &* EventQueue.segmentEntries) &* MemoryLayout<Entry>.stride
                &+ segmentCapacity &* MemoryLayout<UnsafeMutablePointer<Entry>>.stride
                &+ chunkCapacity &* 2 &* MemoryLayout<Int32>.stride
                &+ Self.bucketCount &* MemoryLayout<Bucket>.stride &+ Self.occupiedWords &* MemoryLayout<UInt64>.stride
                &+ MemoryLayout<State>.stride
        }
    }

    /// The owner of a queue's ``State``: copies of a queue share it until one of them
    /// changes (``unique()``), and the last one frees it.
    @usableFromInline final class Storage {
        @usableFromInline let state: UnsafeMutablePointer<State>
        @usableFromInline init(_ state: State) {
            self.state = .allocate(capacity: 1)
            self.state.initialize(to: state)
        }
        deinit {
            state.pointee.release()
            state.deinitialize(count: 1)
            state.deallocate()
        }
    }

    /// Where ``schedule(_:at:)`` put an entry, for ``retract(_:if:)``: a wheel bucket and
    /// slot, or ``near`` for the near heap (whose entries move at every pop).
    public struct Placement: Sendable, Equatable {
        @usableFromInline var bucket: Int32
        @usableFromInline var slot: UInt32
        @inlinable init(bucket: Int32, slot: UInt32) { self.bucket = bucket; self.slot = slot }
        @inlinable public static var near: Placement { Placement(bucket: -1, slot: 0) }
    }

    @usableFromInline var storage: Storage
    @usableFromInline var sequence: UInt64 = 0

    /// - Parameter reserve: the pending entries expected; the near heap reserves room for
    ///   as many, at most ``nearReserveLimit`` (it only holds about a second's entries).
    public init(reserve: Int = 0) {
        storage = Storage(State(heapCapacity: min(reserve, Self.nearReserveLimit)))
    }

    /// The most the near heap reserves up front: about one slot's entries at a million
    /// devices.
    public static var nearReserveLimit: Int { 4_096 }

    /// The state, copied first if another queue shares it: the one copy-on-write check
    /// of an operation.
    @inlinable mutating func unique() -> UnsafeMutablePointer<State> {
        if !isKnownUniquelyReferenced(&storage) { storage = Self.copy(storage) }
        return storage.state
    }

    @inlinable @inline(never) static func copy(_ storage: Storage) -> Storage { Storage(State(copying: storage.state.pointee)) }

    @inlinable public var count: Int { storage.state.pointee.heapCount &+ storage.state.pointee.wheelCount }
    @inlinable public var isEmpty: Bool { count == 0 }
    /// The event that pops next when it is already in the near heap; nil when the heap is
    /// empty (no refill). For prefetching the state it will touch.
    @inlinable public var nextNearEvent: Event? {
        let s = storage.state
        return s.pointee.heapCount == 0 ? nil : s.pointee.heap[0].event
    }
    /// How many events have ever been scheduled.
    @inlinable public var scheduledCount: UInt64 { sequence }
    /// The time of the earliest pending event.
    @inlinable public var nextTime: SimTime? {
        mutating get {
            let s = unique()
            if s.pointee.heapCount == 0 { guard s.pointee.wheelCount > 0 else { return nil }; s.pointee.refill() }
            return SimTime(microseconds: s.pointee.heap[0].time)
        }
    }

    /// Adds an event; returns where it went, for ``retract(_:if:)``. - Complexity: O(1)
    /// when after the horizon; O(log₄ of the near heap) before it.
    @inlinable @discardableResult public mutating func schedule(_ event: Event, at time: SimTime) -> Placement {
        schedule(event, at: time, order: reserveOrder())
    }

    /// The order the next ``schedule(_:at:)`` would give its entry, taken now (the
    /// sequence advances exactly as a schedule's would).
    /// ``schedule(_:at:order:)`` can place an entry with it later: the entry then pops
    /// among those of its time exactly where one scheduled now would.
    @inlinable @inline(__always) public mutating func reserveOrder() -> UInt64 {
        sequence &+= 1
        precondition(sequence < 1 << Self.orderBits, "EventQueue: 2^48 events scheduled; the order would wrap")
        return sequence
    }

    /// Adds an event with an order taken earlier by ``reserveOrder()`` (each reserved
    /// order used once at most), or computed by the caller (below 2^48).
    @inlinable @discardableResult public mutating func schedule(_ event: Event, at time: SimTime, order: UInt64) -> Placement {
        let entry = Entry(time: time.microseconds, order: order, event: event)
        let s = unique()
        if entry.key <= s.pointee.lastKey { s.pointee.push(entry); return .near }
        s.pointee.wheelCount &+= 1
        return s.pointee.place(entry)
    }

    /// Takes back a pending event before it is due, so that it is never popped: when it
    /// is still where ``schedule(_:at:)`` put it and `matches` it (the caller's identity
    /// check: another entry may sit in a reused slot). Otherwise (it went to the near
    /// heap, a cascade moved it, or it was popped) returns false and changes nothing; a
    /// caller then drops it when popped, as any stale event (``GenerationCounter``).
    /// The other entries keep their (time, order). - Complexity: O(1).
    @inlinable public mutating func retract(_ placement: Placement, if matches: (Event) -> Bool) -> Bool {
        guard placement.bucket >= 0 else { return false }
        return unique().pointee.retract(placement, if: matches)
    }

    /// Removes and returns the earliest event.
    /// - Complexity: O(log₄ of the near heap), plus a refill when the heap is empty.
    @inlinable public mutating func pop() -> (time: SimTime, event: Event)? {
        let s = unique()
        if s.pointee.heapCount == 0 {
            guard s.pointee.wheelCount > 0 else { return nil }
            s.pointee.refill()
        }
        let entry = s.pointee.removeFirst()
        return (SimTime(microseconds: entry.time), entry.event)
    }

    /// Removes and returns the earliest event if it is due strictly before `limit`.
    /// - Complexity: that of ``pop()``.
    @inlinable public mutating func pop(before limit: SimTime) -> (time: SimTime, event: Event)? {
        let s = unique()
        if s.pointee.heapCount == 0 {
            guard s.pointee.wheelCount > 0 else { return nil }
            s.pointee.refill()
        }
        guard s.pointee.heap[0].time < limit.microseconds else { return nil }
        let entry = s.pointee.removeFirst()
        return (SimTime(microseconds: entry.time), entry.event)
    }

    /// Bytes the queue holds in heap allocations: every allocation's capacity (the heap,
    /// the wheel's segments, links, buckets and bitmap), for `fleetsim bench`'s memory
    /// breakdown.
    public var allocatedBytes: Int { storage.state.pointee.allocatedBytes }

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
