import SimKernel

/// Whether a phone's screen is on: overlapping sessions (a pick-up, an app open, a
/// notification tap) merge into one on-period that ends when the last one does. Screen
/// on/off drives Doze (`docs/platform-facts.md` A: Doze starts only with the screen off) and the
/// screen-on time of App Standby Buckets (`docs/platform-facts.md` B).
public struct ScreenState: Sendable {
    /// When the current on-period ends (meaningful while on).
    public private(set) var onUntil = SimTime.zero
    public private(set) var onSince = SimTime.zero
    /// When the screen last went off; ``SimTime/zero`` before the first session.
    public private(set) var offSince = SimTime.zero
    /// Screen-on time of finished on-periods.
    public private(set) var onTimeCompleted = SimDuration.zero
    /// Generation of the pending screen-off event.
    public var offTimer = GenerationCounter()
    /// Last, in the generation's padding (40 bytes, not 48).
    public private(set) var isOn = false
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
            onSince = now
            onUntil = end
            return .turnedOn(offAt: end, generation: offTimer.arm())
        }
        guard end > onUntil else { return .unchanged }
        onUntil = end
        return .extended(offAt: end, generation: offTimer.arm())
    }

    /// The off event fires; true when the screen turned off (a stale event does nothing).
    public mutating func offTimerFires(now: SimTime, generation: UInt32) -> Bool {
        guard isOn, offTimer.isCurrent(generation) else { return false }
        isOn = false
        offSince = now
        onTimeCompleted = onTimeCompleted + (now - onSince)
        return true
    }

    /// Total screen-on time up to `now`, the current on-period included.
    public func onTime(at now: SimTime) -> SimDuration {
        isOn ? onTimeCompleted + (now - onSince) : onTimeCompleted
    }

    /// How long the screen has been off at `now`; zero while on.
    public func offFor(at now: SimTime) -> SimDuration { isOn ? .zero : now - offSince }
}
