/// Simulated time plus the pending-event set: the part of a world that says what
/// happens next. A world drives it with a `while let` loop and a `switch` over its
/// own event enum; no closures are stored.
///
/// The no-time-travel rule (after swift-nio's `EmbeddedEventLoop.advanceTime`): `now`
/// never decreases. An event scheduled in the past runs at `now`, after the events
/// already due at `now`.
///
/// The end: ``next(before:)`` hands out only events before ``end``, so an event
/// scheduled at or after it would never run. Its schedule still takes its order (the
/// sequence advances), so every other event's order is
/// the one it has without an end, and nothing is stored: kept, such entries sat in the
/// queue to the end of the run (most of a day's push sources, due days later).
public struct SimClock<Event> {
    @usableFromInline var current: SimTime = .zero
    /// The current simulated time; never decreases.
    @inlinable public var now: SimTime { current }
    public var queue: EventQueue<Event>
    /// Events at or after it are not kept (the type's notes); `SimTime.max` by default.
    public let end: SimTime
    /// Events handed out by ``next(before:)``.
    @usableFromInline var handedOut: UInt64 = 0
    @inlinable public var processed: UInt64 { handedOut }

    public init(reserve: Int = 0, end: SimTime = SimTime(microseconds: .max)) {
        queue = EventQueue(reserve: reserve)
        self.end = end
    }

    @inlinable public mutating func schedule(_ event: Event, at time: SimTime) {
        scheduleRetractably(event, at: time)
    }

    @inlinable public mutating func schedule(_ event: Event, after delay: SimDuration) {
        schedule(event, at: now + delay)
    }

    /// ``schedule(_:at:)``, returning where the event went, to take it back with
    /// ``EventQueue/retract(_:if:)`` if it turns out to be moot before it is due.
    /// An event at or after ``end`` is placed nowhere (``EventQueue/Placement/near``:
    /// nothing to retract).
    @inlinable @discardableResult public mutating func scheduleRetractably(_ event: Event, at time: SimTime) -> EventQueue<Event>.Placement {
        guard time < end else { return takeOrderOnly() }
        return queue.schedule(event, at: time < now ? now : time)
    }

    /// ``scheduleRetractably(_:at:)`` with an order the caller computed (keyed ties): an
    /// event at or after ``end`` is placed nowhere.
    @inlinable @discardableResult public mutating func scheduleRetractably(_ event: Event, at time: SimTime, order: UInt64) -> EventQueue<Event>.Placement {
        guard time < end else { return .near }
        return queue.schedule(event, at: time < now ? now : time, order: order)
    }

    /// An event past the end: its order taken, nothing stored. Out of line, so that the
    /// schedules the world makes stay as small as they were.
    @usableFromInline @inline(never) mutating func takeOrderOnly() -> EventQueue<Event>.Placement {
        _ = queue.reserveOrder()
        return .near
    }

    /// Takes the order the next schedule would give, for ``schedule(_:at:order:)``.
    @inlinable public mutating func reserveOrder() -> UInt64 { queue.reserveOrder() }

    /// Schedules `event` with an order taken earlier by ``reserveOrder()``, so that it
    /// pops among the events of its time as if it had been scheduled then.
    @inlinable public mutating func schedule(_ event: Event, at time: SimTime, order: UInt64) {
        guard time < end else { return }
        queue.schedule(event, at: time < now ? now : time, order: order)
    }

    /// The next event strictly before `end`, with `now` advanced to its time; nil when
    /// none is left before `end`, with `now` advanced to `end` (never backwards).
    /// `end` is at most the clock's ``end`` (past it, the events not kept would be missing).
    @inlinable public mutating func next(before end: SimTime) -> Event? {
        assert(end <= self.end, "SimClock: asked for events past its end")
        if let (time, event) = queue.pop(before: end) {
            if current < time { current = time }
            handedOut &+= 1
            return event
        }
        if current < end { current = end }
        return nil
    }
}
