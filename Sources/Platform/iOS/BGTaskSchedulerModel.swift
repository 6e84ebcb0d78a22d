import SimKernel

/// BGTaskScheduler's handling of one `BGAppRefreshTaskRequest` identifier
/// (`docs/platform-facts.md` F).
///
/// - One pending request per identifier: a new submit replaces the pending one.
/// - `earliestBeginDate`: the task "won't begin sooner"; when it does begin is the
///   system's choice, modelled by ``LaunchPolicyModel`` (which also holds the Low Power
///   Mode and force-quit rules).
/// - Background App Refresh off: `submit` fails with `.unavailable`.
/// - Run time "up to 30 seconds", then the expiration handler. Field reports of
///   tasks expiring after 2-5 s become `earlyExpirationRate`.
/// - **Assumption** (`watchdogGrace`): a task still not completed that long after
///   its expiration is killed by the watchdog, terminating the app.
public struct BGTaskSchedulerModel: Sendable {
    public var runLimit: SimDuration
    public var earlyExpirationRate: Double
    public var watchdogGrace: SimDuration

    /// `docs/platform-facts.md` F: tasks expiring after 2-5 s in the field.
    public static let earlyExpiration = (min: SimDuration.seconds(2), max: SimDuration.seconds(5))

    public init(runLimit: SimDuration, earlyExpirationRate: Double, watchdogGrace: SimDuration) {
        self.runLimit = runLimit
        self.earlyExpirationRate = earlyExpirationRate
        self.watchdogGrace = watchdogGrace
    }

    public enum SubmitResult: Equatable, Sendable {
        /// The request is pending; the launch policy decides when it runs.
        case accepted
        /// `BGTaskScheduler.Error.unavailable`: Background App Refresh is off.
        case unavailable
    }

    /// Submits a request (`docs/platform-facts.md` F: `unavailable` with Background App Refresh off).
    public func submit(backgroundAppRefresh: Bool) -> SubmitResult {
        backgroundAppRefresh ? .accepted : .unavailable
    }

    /// How long a launched task runs before its expiration handler is called.
    public func runTimeBeforeExpiration(rng: inout RandomStream) -> SimDuration {
        guard rng.chance(earlyExpirationRate) else { return runLimit }
        let e = Self.earlyExpiration
        return SimDuration(microseconds: rng.int(in: e.min.microseconds...e.max.microseconds))
    }
}

/// One device's bookkeeping of the app's background task (its `BGAppRefreshTask` on iOS, the
/// job run as the task on Android), as the OS sees it (ground truth for the oracle).
public struct BackgroundTaskSlot: Sendable {
    // Widest fields first: 20 bytes, not 25 with padding.
    public var launchedAt = SimTime.zero
    /// Generation of the pending request's launch event (cancels a replaced request).
    public var pending = GenerationCounter()
    /// Serial of the task now or last running; events carry it.
    public var serial: UInt32 = 0
    public var hasPending = false
    /// The launch policy blocked the request (Low Power Mode, force-quit); the world
    /// looks again when that condition ends.
    public var heldBack = false
    public var running = false
    /// How often the app called `setTaskCompleted` for the current task.
    public var completions: UInt8 = 0
    public init() {}
}
