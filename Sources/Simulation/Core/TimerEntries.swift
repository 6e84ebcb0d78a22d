import SimKernel

/// Where a device's short-lived entries went in the queue, so that they leave it when
/// they become moot (``EventQueue/retract(_:if:)``) instead of popping as no-ops:
/// - the refresh task's expiration (iOS) or JobScheduler's stop deadline (Android),
///   moot when the task ends first;
/// - the refresh logic's hard stop (``DeviceTimer/hardStop``), moot when the logic
///   cancels it;
/// - the step sync's wake timer (``DeviceTimer/stepWake``): a HealthKit wake's budget,
///   moot when the work finishes and the suspension delay is armed instead.
/// In the default fleet, a day at 10,000 devices popped 38,733 expirations and 16,286
/// hard stops, every one a no-op, and 28,016 stale wake budgets. Kept in `Device`
/// (24 bytes), which the retracting handler has already read.
struct TimerEntries {
    var expiry = EventQueue<WorldEvent>.Placement.near
    var hardStop = EventQueue<WorldEvent>.Placement.near
    var stepWake = EventQueue<WorldEvent>.Placement.near
}

extension WorldCore {
    /// The running task of device `d` ended: its expiration leaves the queue if it still
    /// can (refused once it has popped: the task ended at it).
    mutating func retractTaskExpiry(_ d: UInt32) {
        let serial = devices[Int(d)].task.serial
        _ = clock.queue.retract(devices[Int(d)].timerEntries.expiry) { event in
            if case .refreshExpires(d, serial) = event { return true }
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
        let placement = clock.scheduleRetractably(.deviceTimer(device: d, generation: generation, timer: timer), at: at)
        switch timer {
        case .hardStop: devices[Int(d)].timerEntries.hardStop = placement
        case .stepWake: devices[Int(d)].timerEntries.stepWake = placement
        default: break
        }
    }

    /// `timer`'s current entry popped: its placement is forgotten, so that the next arm's
    /// retraction is refused at once instead of reading the queue's bookkeeping for a
    /// slot that may hold another entry by then (a HealthKit wake's suspension timer fires
    /// before almost every next delivery re-arms it).
    mutating func timerFired(_ d: UInt32, _ timer: DeviceTimer) {
        switch timer {
        case .hardStop: devices[Int(d)].timerEntries.hardStop = .near
        case .stepWake: devices[Int(d)].timerEntries.stepWake = .near
        default: break
        }
    }

    /// Takes the entry of `timer`'s arm `generation` out of the queue if the timer keeps
    /// a placement and the entry is still where it was put.
    mutating func retractTimer(_ d: UInt32, _ timer: DeviceTimer, generation: UInt32) {
        let placement: EventQueue<WorldEvent>.Placement
        switch timer {
        case .hardStop: placement = devices[Int(d)].timerEntries.hardStop
        case .stepWake: placement = devices[Int(d)].timerEntries.stepWake
        default: return
        }
        _ = clock.queue.retract(placement) { event in
            if case .deviceTimer(d, generation, timer) = event { return true }
            return false
        }
    }
}
