import SimKernel

/// How iOS hands background (silent, `content-available`) pushes to the app
/// (`docs/platform-facts.md` F and G).
///
/// - Only priority 5 with `apns-push-type: background` (F); any other priority is not
///   delivered as a background push.
/// - Background App Refresh governs background launches for remote notifications too
///   (F: `UIApplication.h`): with it off, none wakes the app. Not in Low Power Mode either
///   (F: it turns Background App Refresh off), and not after a force-quit until the next
///   open (F: the system "does not automatically launch your app if the user has
///   force-quit it"). **Assumption**: such a push is dropped, not kept.
/// - "Don't try to send more than two or three per hour" (F). **Assumption**: the device
///   enforces it as a token bucket, 3 deliveries of burst refilled at 3 per hour.
/// - The system "may hold and delay the delivery" (F): a push that finds no token is held
///   until the next one, and a later push replaces the held one (F: "only holds the
///   newest one"; the count of pushes it replaced is kept for the trace). The held push is
///   delivered at once if the user launches the app first (``deliverHeldAtLaunch(state:)``)
///   and discarded if the app is force-quit or killed meanwhile (``discardHeld(state:)``).
/// - The handler has "up to 30 seconds of wall-clock time" (F).
public struct SilentPushThrottle: Sendable {
    /// `docs/platform-facts.md` F: two or three per hour; the bucket holds and refills 3.
    public var burst = 3.0
    public var perHour = 3.0
    /// `docs/platform-facts.md` F: "up to 30 seconds of wall-clock time".
    public var handlerRuntime: SimDuration = .seconds(30)

    public init() {}

    /// What the phone's settings and the user's last gesture allow when a push arrives or a
    /// held one is due.
    public struct Conditions: Sendable, Equatable {
        public var backgroundAppRefresh: Bool
        public var lowPowerMode: Bool
        /// The user force-quit the app and has not opened it since.
        public var forceQuit: Bool

        public init(backgroundAppRefresh: Bool, lowPowerMode: Bool, forceQuit: Bool) {
            self.backgroundAppRefresh = backgroundAppRefresh
            self.lowPowerMode = lowPowerMode
            self.forceQuit = forceQuit
        }
    }

    public enum Dropped: UInt8, Sendable, Equatable {
        case notPriority5, backgroundAppRefreshOff, lowPowerMode, forceQuit
    }

    public enum Decision: Sendable, Equatable {
        /// Wake the app now; its handler may run for `runtime`.
        case deliver(runtime: SimDuration)
        /// Held; the held push is due at `at` (``SilentPushThrottle/deliverWaiting(now:conditions:state:)``).
        /// `newlyScheduled` is false when the push replaced one already held.
        case coalesced(at: SimTime, newlyScheduled: Bool)
        case dropped(Dropped)
    }

    /// A silent push reaches the device at `now`. The reasons to drop it are checked in
    /// the order of ``Dropped``.
    public func receive(priority: UInt8, now: SimTime, conditions: Conditions, state: inout SilentPushState) -> Decision {
        guard priority == 5 else { return .dropped(.notPriority5) }
        if let reason = Self.blocked(conditions) { return .dropped(reason) }
        if conditions.forceQuit { return .dropped(.forceQuit) }
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

    /// The held push's time has come: deliver it (one wake) or drop it (Background App
    /// Refresh or Low Power Mode went off or on meanwhile). Nil when nothing is held or the
    /// hold is not due (``SilentPushState/isDue(at:)``): the hold the caller's event was
    /// scheduled for ended earlier, and a later one has its own event. A force-quit is not
    /// looked at: it discarded the hold when it happened.
    public func deliverWaiting(now: SimTime, conditions: Conditions, state: inout SilentPushState) -> Decision? {
        guard state.isDue(at: now) else { return nil }
        state.waiting = false
        if let reason = Self.blocked(conditions) { return .dropped(reason) }
        refill(&state, now: now)
        state.tokens = max(0, state.tokens - 1)
        return .deliver(runtime: handlerRuntime)
    }

    /// The user launches the app: "the system immediately delivers the held notification"
    /// (F). Returns the count of pushes the held one replaced and itself (nil: nothing
    /// held). **Assumption**: the delivery takes no token (the app is in the foreground;
    /// the bucket rations background wakes) and ignores Background App Refresh and Low
    /// Power Mode (Apple calls the handler for a foreground app as well).
    public func deliverHeldAtLaunch(state: inout SilentPushState) -> UInt16? {
        endHold(&state)
    }

    /// The app is force-quit or killed (jetsam, the watchdog, an expired background task,
    /// an uninstall): "the system discards the held notification" (F). Returns the count
    /// as ``deliverHeldAtLaunch(state:)`` does (nil: nothing held).
    public func discardHeld(state: inout SilentPushState) -> UInt16? {
        endHold(&state)
    }

    private func endHold(_ state: inout SilentPushState) -> UInt16? {
        guard state.waiting else { return nil }
        state.waiting = false
        return state.merged
    }

    /// Background App Refresh off, then Low Power Mode: what stops a background wake.
    private static func blocked(_ c: Conditions) -> Dropped? {
        if !c.backgroundAppRefresh { return .backgroundAppRefreshOff }
        if c.lowPowerMode { return .lowPowerMode }
        return nil
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
    /// Pushes merged into the held one (it replaced them).
    public var merged: UInt16 = 0
    /// A full bucket at `now`.
    public init(throttle: SilentPushThrottle, now: SimTime) {
        tokens = throttle.burst
        refilledAt = now
    }

    /// Whether a push is held and due at `now`. A hold's due time is fixed when it begins
    /// and an event is scheduled for it then; an event left by a hold that ended earlier
    /// finds nothing held, or a later hold that is due only if its time is the same (the
    /// bucket's refill gives that hold the same due time): either way one delivery, at the
    /// held push's own time.
    @inline(__always) public func isDue(at now: SimTime) -> Bool { waiting && now >= waitingUntil }
}
