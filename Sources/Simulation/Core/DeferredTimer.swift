import SimKernel

/// A device timer that is mostly re-armed *later* than it is due: the stale-sync
/// notification's trigger, set 24 h after every sync (seed `003`), so several times a
/// day per device. Armed eagerly, each re-arm left an entry in the queue to pop as a
/// no-op a day later (8 pending entries per device at the end of a day, 7 of them
/// stale). Here a re-arm for a time at or after the pending entry's keeps that entry
/// and records the new deadline; when the entry pops, it moves on to the deadline.
///
/// Every arm still bumps the timer's generation and takes a queue order
/// (``SimClock/reserveOrder()``) as an eager schedule would, and the entry moved on
/// carries both, so delivered events pop in exactly the eager order, with the same
/// generations: only the count of no-op pops changes.
///
/// Layout (28 bytes, one per device, where 8-byte fields padded it to 32): the two times
/// in 32-bit halves (their whole range) and the order's 48 bits (``EventQueue/orderBits``)
/// in two fields, so that the struct aligns to 4; accessors of the fields' names.
struct DeferredTimer {
    /// The time of the timer's entry in the queue; `Int64.max`: none.
    var entryAt: Int64 {
        get { Int64(entryAtHigh) << 32 | Int64(entryAtLow) }
        set { (entryAtHigh, entryAtLow) = Self.halves(newValue) }
    }
    /// The deadline of the last arm; `Int64.max`: cancelled since.
    var due: Int64 {
        get { Int64(dueHigh) << 32 | Int64(dueLow) }
        set { (dueHigh, dueLow) = Self.halves(newValue) }
    }
    /// The queue order the last arm took (below 2^48).
    var order: UInt64 {
        get { UInt64(orderHigh) << 32 | UInt64(orderLow) }
        set {
            precondition(newValue >> 48 == 0, "DeferredTimer: an order of more than 48 bits")
            orderHigh = UInt16(truncatingIfNeeded: newValue >> 32)
            orderLow = UInt32(truncatingIfNeeded: newValue)
        }
    }
    private var entryAtLow = UInt32.max
    private var entryAtHigh = Int32.max
    private var dueLow = UInt32.max
    private var dueHigh = Int32.max
    private var orderLow: UInt32 = 0
    /// The generation the entry in the queue carries.
    var entryGeneration: UInt32 = 0
    private var orderHigh: UInt16 = 0

    @inline(__always) private static func halves(_ t: Int64) -> (Int32, UInt32) {
        (Int32(truncatingIfNeeded: t >> 32), UInt32(truncatingIfNeeded: t))
    }
}

extension WorldCore {
    /// Arms device `d`'s deferred `timer` (only ``DeviceTimer/staleNotification``) for
    /// `at`: a new entry when none is pending or the pending one is later, otherwise
    /// only the new deadline.
    mutating func armDeferred(_ d: UInt32, _ timer: DeviceTimer, at requested: SimTime) {
        let at = requested < now ? now.microseconds : requested.microseconds
        let generation = devices[Int(d)].timers.arm(timer)
        // Keyed ties: the arm's serial, keyed with the time the entry is placed at.
        let order = ties.isKeyed ? UInt64(ties.nextSerial(d)) : clock.reserveOrder()
        let i = Int(d)
        staleTriggers[i].due = at
        staleTriggers[i].order = order
        guard staleTriggers[i].entryAt > at else { return }
        staleTriggers[i].entryAt = at
        staleTriggers[i].entryGeneration = generation
        clock.schedule(.deviceTimer(device: d, generation: generation, timer: timer), at: SimTime(microseconds: at), order: deferredOrder(order, d, timer, at: at))
    }

    /// The queue order of the deferred timer's entry at `at`: the arm's reserved order
    /// (fifo), or the key an eager schedule at `at` with the arm's serial had (keyed).
    @inline(__always) func deferredOrder(_ order: UInt64, _ d: UInt32, _ timer: DeviceTimer, at: Int64) -> UInt64 {
        guard ties.isKeyed else { return order }
        return ties.order(code: 20, payload: UInt32(timer.rawValue), global: globalID(Int(d)), at: SimTime(microseconds: at), serial: UInt16(truncatingIfNeeded: order))
    }

    /// The deferred timer's pending entry popped with `generation`. Current: it fires
    /// (true). Otherwise, if it is the timer's entry and the timer is armed, the entry
    /// moves on to the deadline with the last arm's generation and order (false, as for
    /// any no-op pop).
    mutating func deferredTimerPops(_ d: UInt32, _ timer: DeviceTimer, generation: UInt32) -> Bool {
        let i = Int(d)
        if isCurrent(d, timer, generation) {
            staleTriggers[i].entryAt = .max
            return true
        }
        guard staleTriggers[i].entryGeneration == generation, staleTriggers[i].entryAt == now.microseconds else { return false }
        let due = staleTriggers[i].due
        guard due != .max else {
            staleTriggers[i].entryAt = .max
            return false
        }
        let current = self.generation(d, timer)
        staleTriggers[i].entryAt = due
        staleTriggers[i].entryGeneration = current
        clock.schedule(.deviceTimer(device: d, generation: current, timer: timer), at: SimTime(microseconds: due), order: deferredOrder(staleTriggers[i].order, d, timer, at: due))
        return false
    }

    /// Cancels the deferred timer: its entry, when it pops, moves on to nothing.
    mutating func cancelDeferred(_ d: UInt32, _ timer: DeviceTimer) {
        devices[Int(d)].timers.cancel(timer)
        staleTriggers[Int(d)].due = .max
    }
}
