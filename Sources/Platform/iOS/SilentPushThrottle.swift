import SimKernel

/// How iOS hands background (silent, `content-available`) pushes to the app
/// (`docs/platform-facts.md` F and G).
///
/// - Only priority 5 with `apns-push-type: background` (F); any other priority is not
///   delivered as a background push.
/// - "Don't try to send more than two or three per hour" (F). **Assumption**: the device
///   enforces it as a token bucket, 3 deliveries of burst refilled at 3 per hour.
/// - Coalesced: a push that finds no token waits for the next one, and later pushes
///   merge into that one waiting delivery (G: priority 5 may be "delivered in bursts,
///   throttled, or dropped"; offline storage keeps one per app, usually the latest).
/// - The handler has "up to 30 seconds of wall-clock time" (F).
/// - Not delivered in Low Power Mode (F: background networking paused) or after a
///   force-quit (until the next open); **assumption**: dropped, not kept.
public struct SilentPushThrottle: Sendable {
    /// `docs/platform-facts.md` F: two or three per hour; the bucket holds and refills 3.
    public var burst = 3.0
    public var perHour = 3.0
    /// `docs/platform-facts.md` F: "up to 30 seconds of wall-clock time".
    public var handlerRuntime: SimDuration = .seconds(30)

    public init() {}

    public enum Dropped: UInt8, Sendable, Equatable {
        case notPriority5, lowPowerMode, forceQuit
    }

    public enum Decision: Sendable, Equatable {
        /// Wake the app now; its handler may run for `runtime`.
        case deliver(runtime: SimDuration)
        /// Held; the single waiting delivery is due at `at`
        /// (``SilentPushThrottle/deliverWaiting(now:lowPowerMode:forceQuit:state:)``).
        /// `newlyScheduled` is false when the push merged into an already waiting one.
        case coalesced(at: SimTime, newlyScheduled: Bool)
        case dropped(Dropped)
    }

    /// A silent push reaches the device at `now`.
    public func receive(priority: UInt8, now: SimTime, lowPowerMode: Bool, forceQuit: Bool, state: inout SilentPushState) -> Decision {
        guard priority == 5 else { return .dropped(.notPriority5) }
        if lowPowerMode { return .dropped(.lowPowerMode) }
        if forceQuit { return .dropped(.forceQuit) }
        if state.waiting {
            state.merged &+= 1
            return .coalesced(at: state.waitingUntil, newlyScheduled: false)
        }
        refill(&state, now: now)
        if state.tokens >= 1 {
            state.tokens -= 1
            return .deliver(runtime: handlerRuntime)
        }
        state.waiting = true
        state.merged = 1
        state.waitingUntil = now + .fromSeconds((1 - state.tokens) * 3_600 / perHour)
        return .coalesced(at: state.waitingUntil, newlyScheduled: true)
    }

    /// The waiting delivery's time has come: deliver it (one wake for every push merged
    /// into it) or drop it. Nil when nothing waits (a stale event); still `coalesced`
    /// when called before its time.
    public func deliverWaiting(now: SimTime, lowPowerMode: Bool, forceQuit: Bool, state: inout SilentPushState) -> Decision? {
        guard state.waiting else { return nil }
        if now < state.waitingUntil { return .coalesced(at: state.waitingUntil, newlyScheduled: false) }
        state.waiting = false
        if lowPowerMode { return .dropped(.lowPowerMode) }
        if forceQuit { return .dropped(.forceQuit) }
        refill(&state, now: now)
        state.tokens = max(0, state.tokens - 1)
        return .deliver(runtime: handlerRuntime)
    }

    private func refill(_ state: inout SilentPushState, now: SimTime) {
        let elapsed = (now - state.refilledAt).seconds
        if elapsed > 0 { state.tokens = min(burst, state.tokens + elapsed * perHour / 3_600) }
        state.refilledAt = now
    }
}

/// One device's silent-push throttle: 28 bytes, no allocation.
public struct SilentPushState: Sendable {
    public var tokens: Double
    public var refilledAt: SimTime
    public var waitingUntil = SimTime.zero
    public var waiting = false
    /// Pushes merged into the waiting delivery.
    public var merged: UInt16 = 0
    /// A full bucket at `now`.
    public init(throttle: SilentPushThrottle, now: SimTime) {
        tokens = throttle.burst
        refilledAt = now
    }
}
