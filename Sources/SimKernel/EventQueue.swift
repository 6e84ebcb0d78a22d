/// The pending-event set of a world: plain values ordered by (time, order).
///
/// `order` is the schedule sequence number (first scheduled runs first among equal
/// times, as swift-nio's `EmbeddedEventLoop` does with `insertOrder`), or with
/// ``TieBreak/shuffle`` a seeded random key so that same-instant events are explored
/// in reproducible random interleavings.
///
/// Implemented as a 4-ary min-heap in one contiguous array; sifting moves a hole
/// instead of swapping (HeapModule's technique). Cancellation is not done here:
/// events carry a generation and stale ones are dropped when popped (see
/// ``GenerationCounter``), so nothing ever searches the heap.
public struct EventQueue<Event> {
    public enum TieBreak: Sendable { case fifo, shuffle }

    @usableFromInline struct Entry {
        @usableFromInline var time: Int64
        @usableFromInline var order: UInt64
        @usableFromInline var event: Event
        @inlinable init(time: Int64, order: UInt64, event: Event) {
            self.time = time; self.order = order; self.event = event
        }
        @inlinable func precedes(_ other: Entry) -> Bool {
            time < other.time || (time == other.time && order < other.order)
        }
    }

    @usableFromInline var heap: [Entry] = []
    @usableFromInline var sequence: UInt64 = 0
    @usableFromInline var shuffle: RandomStream?

    /// - Parameter shuffleStream: with `.shuffle`, the stream that draws tie keys.
    public init(tieBreak: TieBreak = .fifo, shuffleStream: RandomStream? = nil, reserve: Int = 0) {
        if tieBreak == .shuffle { shuffle = shuffleStream ?? RandomStream(seed: 0, entity: 0, purpose: "tieBreak") }
        heap.reserveCapacity(reserve)
    }

    @inlinable public var count: Int { heap.count }
    @inlinable public var isEmpty: Bool { heap.isEmpty }
    /// How many events have ever been scheduled.
    @inlinable public var scheduledCount: UInt64 { sequence }
    /// The time of the earliest pending event.
    @inlinable public var nextTime: SimTime? { heap.isEmpty ? nil : SimTime(microseconds: heap[0].time) }

    /// Adds an event. - Complexity: O(log₄ count)
    @inlinable public mutating func schedule(_ event: Event, at time: SimTime) {
        sequence &+= 1
        let order: UInt64
        if shuffle != nil { order = shuffle!.next() } else { order = sequence }
        let entry = Entry(time: time.microseconds, order: order, event: event)
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

    /// Removes and returns the earliest event.
    ///
    /// Floyd's bottom-up deletion: the hole left at the root sinks to a leaf along the
    /// smaller children without comparing against the displaced last element, which
    /// then rises from there. The last element usually belongs near the bottom, so
    /// this does about half the comparisons of a top-down sift.
    /// - Complexity: O(log₄ count)
    @inlinable public mutating func pop() -> (time: SimTime, event: Event)? {
        guard let last = heap.popLast() else { return nil }
        guard !heap.isEmpty else { return (SimTime(microseconds: last.time), last.event) }
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
                guard last.precedes(h[parent]) else { break }
                h[hole] = h[parent]
                hole = parent
            }
            h[hole] = last
        }
        return (SimTime(microseconds: top.time), top.event)
    }

    /// Removes and returns the earliest event if it is due strictly before `limit`.
    /// - Complexity: O(log₄ count)
    @inlinable public mutating func pop(before limit: SimTime) -> (time: SimTime, event: Event)? {
        guard let first = heap.first, first.time < limit.microseconds else { return nil }
        return pop()
    }
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
