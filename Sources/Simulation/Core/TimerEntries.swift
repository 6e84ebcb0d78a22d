import SimKernel

/// Where a device's short-lived entries went in the queue, so that they leave it when
/// they become moot (``EventQueue/retract(_:if:)``) instead of popping as no-ops:
/// - the background task's expiration (iOS) or JobScheduler's stop deadline (Android),
///   moot when the task ends first;
/// - the entries of the two device timers that keep one (``DeviceTimer/keptEntry``),
///   moot when their feature cancels or replaces them.
/// In the default fleet, a day at 10,000 devices popped 38,733 expirations and 16,286
/// hard stops, every one a no-op, and 28,016 stale wake budgets. Kept in `Device`
/// (24 bytes), which the retracting handler has already read.
struct TimerEntries {
    var expiry = EventQueue<WorldEvent>.Placement.near
    /// The kept placements, by ``DeviceTimer/keptEntry``: two named fields, not an
    /// array, so that a write reaches the one field in place.
    var kept0 = EventQueue<WorldEvent>.Placement.near
    var kept1 = EventQueue<WorldEvent>.Placement.near
}

extension WorldCore {
    /// The running task of device `d` ended: its expiration leaves the queue if it still
    /// can (refused once it has popped: the task ended at it).
    mutating func retractTaskExpiry(_ d: UInt32) {
        let serial = devices[Int(d)].task.serial
        _ = clock.queue.retract(devices[Int(d)].timerEntries.expiry) { event in
            if case .taskExpires(d, serial) = event { return true }
            return false
        }
    }

    /// A new generation for device `d`'s `timer` (its pending entry is moot): a timer
    /// with a kept placement takes that entry out of the queue too.
    mutating func newGeneration(_ d: UInt32, _ timer: DeviceTimer) -> UInt32 {
        // Modified in place; reading the generation first through `devices[i]` copied the
        // whole `Device` (the table's `InlineArray` keeps the field from being projected).
        let generation = devices[Int(d)].timers.arm(timer)
        retractTimer(d, timer, generation: generation &- 1)
        return generation
    }

    /// Schedules `timer`'s entry for arm `generation` at `at`, keeping its placement
    /// when the timer has one.
    mutating func scheduleTimer(_ d: UInt32, _ timer: DeviceTimer, generation: UInt32, at: SimTime) {
        let placement = scheduleRetractably(.deviceTimer(device: d, generation: generation, timer: timer), at: at)
        switch timer.keptEntry {
        case 0?: devices[Int(d)].timerEntries.kept0 = placement
        case 1?: devices[Int(d)].timerEntries.kept1 = placement
        default: break
        }
    }

    /// `timer`'s current entry popped: its placement is forgotten, so that the next arm's
    /// retraction is refused at once instead of reading the queue's bookkeeping for a
    /// slot that may hold another entry by then (a wake's budget fires before almost
    /// every next wake re-arms it).
    mutating func timerFired(_ d: UInt32, _ timer: DeviceTimer) {
        switch timer.keptEntry {
        case 0?: devices[Int(d)].timerEntries.kept0 = .near
        case 1?: devices[Int(d)].timerEntries.kept1 = .near
        default: break
        }
    }

    /// Takes the entry of `timer`'s arm `generation` out of the queue if the timer keeps
    /// a placement and the entry is still where it was put.
    mutating func retractTimer(_ d: UInt32, _ timer: DeviceTimer, generation: UInt32) {
        let placement: EventQueue<WorldEvent>.Placement
        switch timer.keptEntry {
        case 0?: placement = devices[Int(d)].timerEntries.kept0
        case 1?: placement = devices[Int(d)].timerEntries.kept1
        default: return
        }
        _ = clock.queue.retract(placement) { event in
            if case .deviceTimer(d, generation, timer) = event { return true }
            return false
        }
    }
}
