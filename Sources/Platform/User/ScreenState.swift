import SimKernel

/// Whether a phone's screen is on: overlapping sessions (a pick-up, an app open, a
/// notification tap) merge into one on-period that ends when the last one does. Screen
/// on/off drives Doze (`docs/platform-facts.md` A: Doze starts only with the screen off) and the
/// screen-on time of App Standby Buckets (`docs/platform-facts.md` B).
public struct ScreenState: Sendable {
    /// When the current on-period ends (meaningful while on).
    public private(set) var onUntil = SimTime.zero
    /// Generation of the pending screen-off event.
    public var offTimer = GenerationCounter()
    /// Last, in the generation's padding (16 bytes, not 24).
    public private(set) var isOn = false
    // The screen-on clock (time on, since when on or off) is the standby bucket's
    // (`StandbyBucketState`, fed at the same instants), its only reader: 24 bytes a
    // phone not kept twice.
    public init() {}

    public enum Change: Equatable, Sendable {
        /// The screen went on; schedule the off event at `offAt` with `generation`.
        case turnedOn(offAt: SimTime, generation: UInt32)
        /// It was on; its off event moved to `offAt` with `generation`.
        case extended(offAt: SimTime, generation: UInt32)
        /// It was on until later anyway; nothing to schedule.
        case unchanged
    }

    /// A session of `length` starts at `now`.
    public mutating func sessionStarts(now: SimTime, length: SimDuration) -> Change {
        let end = now + length
        if !isOn {
            isOn = true
            onUntil = end
            return .turnedOn(offAt: end, generation: offTimer.arm())
        }
        guard end > onUntil else { return .unchanged }
        onUntil = end
        return .extended(offAt: end, generation: offTimer.arm())
    }

    /// The off event fires; true when the screen turned off (a stale event does nothing).
    public mutating func offTimerFires(generation: UInt32) -> Bool {
        guard isOn, offTimer.isCurrent(generation) else { return false }
        isOn = false
        return true
    }
}
