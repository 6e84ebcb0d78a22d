/// Simulated time plus the pending-event set: the part of a world that says what
/// happens next. A world drives it with a `while let` loop and a `switch` over its
/// own event enum; no closures are stored.
///
/// The no-time-travel rule (after swift-nio's `EmbeddedEventLoop.advanceTime`): `now`
/// never decreases. An event scheduled in the past runs at `now`, after the events
/// already due at `now`.
public struct SimClock<Event> {
    @usableFromInline var current: SimTime = .zero
    /// The current simulated time; never decreases.
    @inlinable public var now: SimTime { current }
    public var queue: EventQueue<Event>
    /// Events handed out by ``next(before:)``.
    @usableFromInline var handedOut: UInt64 = 0
    @inlinable public var processed: UInt64 { handedOut }

    public init(tieBreak: EventQueue<Event>.TieBreak = .fifo, shuffleStream: RandomStream? = nil, reserve: Int = 0) {
        queue = EventQueue(tieBreak: tieBreak, shuffleStream: shuffleStream, reserve: reserve)
    }

    @inlinable public mutating func schedule(_ event: Event, at time: SimTime) {
        scheduleRetractably(event, at: time)
    }

    @inlinable public mutating func schedule(_ event: Event, after delay: SimDuration) {
        schedule(event, at: now + delay)
    }

    /// ``schedule(_:at:)``, returning where the event went, to take it back with
    /// ``EventQueue/retract(_:if:)`` if it turns out to be moot before it is due.
    @inlinable @discardableResult public mutating func scheduleRetractably(_ event: Event, at time: SimTime) -> EventQueue<Event>.Placement {
        queue.schedule(event, at: time < now ? now : time)
    }

    /// Takes the order the next schedule would give, for ``schedule(_:at:order:)``.
    @inlinable public mutating func reserveOrder() -> UInt64 { queue.reserveOrder() }

    /// Schedules `event` with an order taken earlier by ``reserveOrder()``, so that it
    /// pops among the events of its time as if it had been scheduled then.
    @inlinable public mutating func schedule(_ event: Event, at time: SimTime, order: UInt64) {
        queue.schedule(event, at: time < now ? now : time, order: order)
    }

    /// The next event strictly before `end`, with `now` advanced to its time; nil when
    /// none is left before `end`, with `now` advanced to `end` (never backwards).
    @inlinable public mutating func next(before end: SimTime) -> Event? {
        if let (time, event) = queue.pop(before: end) {
            if current < time { current = time }
            handedOut &+= 1
            return event
        }
        if current < end { current = end }
        return nil
    }
}
