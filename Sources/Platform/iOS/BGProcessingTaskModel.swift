import SimKernel

/// BGTaskScheduler's handling of a `BGProcessingTaskRequest` (`docs/platform-facts.md` F).
///
/// - Work that "can take minutes": **assumption** ``runLimit`` 5 min before the
///   expiration handler.
/// - `requiresExternalPower`, `requiresNetworkConnectivity` (both default false): never
///   started, and expired if running, without them.
/// - Apple DTS: runs only when the device is unlikely to be in use, and never after the
///   user force-quits the app. **Assumption** (``idleAfterScreenOff``): "unlikely to be
///   in use" is the screen off for 10 min; the screen turning on expires a running task.
/// - Attempted "within the next two days as long as the user has used your app within
///   the past week" (``recentUse``, 7 days): not started for an app unused that long.
/// - Low Power Mode: **assumption**: deferred, as refresh is (F: it pauses background
///   activity).
/// - Background App Refresh off: `submit` fails as `unavailable` (F).
///
/// Decisions are made when a condition changes (screen off, plug-in, network, open); a
/// decision to wait names its deadline, or none when only a condition change can help.
public struct BGProcessingTaskModel: Sendable {
    public var runLimit: SimDuration = .minutes(5)
    public var idleAfterScreenOff: SimDuration = .minutes(10)
    /// `docs/platform-facts.md` F: "used your app within the past week".
    public var recentUse: SimDuration = .days(7)

    public init() {}

    public struct Request: Sendable, Equatable {
        public var earliestBegin: SimTime
        public var requiresExternalPower: Bool
        public var requiresNetworkConnectivity: Bool
        public init(earliestBegin: SimTime, requiresExternalPower: Bool = false, requiresNetworkConnectivity: Bool = false) {
            self.earliestBegin = earliestBegin
            self.requiresExternalPower = requiresExternalPower
            self.requiresNetworkConnectivity = requiresNetworkConnectivity
        }
    }

    public struct Conditions: Sendable, Equatable {
        public var charging: Bool
        public var online: Bool
        public var lowPowerMode: Bool
        public var forceQuit: Bool
        public var screenOn: Bool
        /// How long the screen has been off (zero while on).
        public var screenOffFor: SimDuration
        /// When the user last opened the app.
        public var lastAppUse: SimTime
        public init(charging: Bool, online: Bool, lowPowerMode: Bool, forceQuit: Bool, screenOn: Bool, screenOffFor: SimDuration, lastAppUse: SimTime) {
            self.charging = charging
            self.online = online
            self.lowPowerMode = lowPowerMode
            self.forceQuit = forceQuit
            self.screenOn = screenOn
            self.screenOffFor = screenOffFor
            self.lastAppUse = lastAppUse
        }
    }

    public enum Waiting: UInt8, Sendable, Equatable {
        case forceQuit, notUsedRecently, lowPowerMode, externalPower, network, inUse
    }

    public enum Decision: Sendable, Equatable {
        /// Start now; the expiration handler is due after the given time.
        case run(expiresAfter: SimDuration)
        /// Decide again at this time (earliest begin, or the idle delay running out).
        case waitUntil(SimTime)
        /// Decide again only when the named condition changes.
        case waitFor(Waiting)
    }

    public enum SubmitResult: Sendable, Equatable {
        case pending
        /// `BGTaskScheduler.Error.unavailable`: Background App Refresh is off.
        case unavailable
    }

    public func submit(backgroundAppRefresh: Bool) -> SubmitResult {
        backgroundAppRefresh ? .pending : .unavailable
    }

    /// Whether a pending request may start at `now`.
    public func decide(_ request: Request, now: SimTime, conditions c: Conditions) -> Decision {
        if c.forceQuit { return .waitFor(.forceQuit) }
        if now - c.lastAppUse > recentUse { return .waitFor(.notUsedRecently) }
        if c.lowPowerMode { return .waitFor(.lowPowerMode) }
        if request.requiresExternalPower, !c.charging { return .waitFor(.externalPower) }
        if request.requiresNetworkConnectivity, !c.online { return .waitFor(.network) }
        if now < request.earliestBegin { return .waitUntil(request.earliestBegin) }
        if c.screenOn { return .waitFor(.inUse) }
        if c.screenOffFor < idleAfterScreenOff { return .waitUntil(now + (idleAfterScreenOff - c.screenOffFor)) }
        return .run(expiresAfter: runLimit)
    }

    /// Whether a running task must be expired now because a condition it needs is gone
    /// (the user picked up the phone, the charger or the network went away, Low Power Mode).
    public func mustExpire(_ request: Request, conditions c: Conditions) -> Bool {
        c.screenOn || c.lowPowerMode
            || (request.requiresExternalPower && !c.charging)
            || (request.requiresNetworkConnectivity && !c.online)
    }
}
