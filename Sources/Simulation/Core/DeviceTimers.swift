import SimKernel
import AppLogic

/// The per-device timers the features arm (after quinn-proto's `TimerTable`): one
/// generation per timer in one small table per device, and one event case,
/// `WorldEvent.deviceTimer`, for all of them. An event carries the generation its
/// timer was armed with; re-arming or cancelling bumps it, so the older entry is a no-op
/// when popped. docs/performance.md#the-pending-event-set describes the next step:
/// one queue entry per device, for the earliest of its table. The timers themselves
/// (``DeviceTimer``) are the features' list's (Features/Features.swift).

/// A timer table: the current generation of each timer of one device. `DeviceTimers`
/// holds the features' timers; Android's OS timers have their own (`AndroidTimers`), so
/// iOS devices stay small.
struct TimerTable<Timer: RawRepresentable, let count: Int> where Timer.RawValue == UInt8 {
    private var generations = InlineArray<count, UInt32>(repeating: 0)

    /// Invalidates the timer's pending event and returns the generation for a new one.
    @inline(__always) mutating func arm(_ timer: Timer) -> UInt32 {
        generations[Int(timer.rawValue)] &+= 1
        return generations[Int(timer.rawValue)]
    }

    /// Invalidates the timer's pending event; returns the generation it carried.
    @inline(__always) @discardableResult mutating func cancel(_ timer: Timer) -> UInt32 {
        generations[Int(timer.rawValue)] &+= 1
        return generations[Int(timer.rawValue)] &- 1
    }

    @inline(__always) func isCurrent(_ timer: Timer, _ generation: UInt32) -> Bool {
        generations[Int(timer.rawValue)] == generation
    }

    /// The generation the timer's last arm or cancel gave it.
    @inline(__always) func generation(_ timer: Timer) -> UInt32 { generations[Int(timer.rawValue)] }

}

typealias DeviceTimers = TimerTable<DeviceTimer, 7>

extension WorldCore {
    /// Whether `generation` is the current one of device `d`'s `timer`. Read in place in
    /// the array's storage: `devices[d].timers.isCurrent(...)` copied the whole `Device`
    /// first (about 560 bytes; the table's `InlineArray` keeps the optimiser from
    /// projecting the one field), once per timer event.
    @inline(__always) func isCurrent(_ d: UInt32, _ timer: DeviceTimer, _ generation: UInt32) -> Bool {
        devices.withUnsafeBufferPointer { $0[Int(d)].timers.isCurrent(timer, generation) }
    }

    /// The generation device `d`'s `timer` was last armed or cancelled with, read in place
    /// (see ``isCurrent(_:_:_:)``).
    @inline(__always) func generation(_ d: UInt32, _ timer: DeviceTimer) -> UInt32 {
        devices.withUnsafeBufferPointer { $0[Int(d)].timers.generation(timer) }
    }
}
