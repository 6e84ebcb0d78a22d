import SimKernel

/// BGTaskScheduler's handling of the app's task requests, one pending request per
/// identifier (`docs/platform-facts.md` F).
///
/// - One pending request per identifier: a new submit replaces that identifier's pending
///   request, and no other's.
/// - At most 1 refresh request and 10 processing requests pending at once, across the
///   app's identifiers: one more is refused with `tooManyPendingTaskRequests`.
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
        /// `BGTaskScheduler.Error.tooManyPendingTaskRequests`: the app's other identifiers
        /// already hold as many pending requests of this kind as the system keeps.
        case tooManyPendingTaskRequests
    }

    /// Submits a request of `kind` while the app's other identifiers hold `othersPending`
    /// pending requests of that kind (`docs/platform-facts.md` F: `unavailable` with
    /// Background App Refresh off, at most ``BGTaskKind/pendingLimit`` pending).
    public func submit(backgroundAppRefresh: Bool, kind: BGTaskKind = .bgAppRefreshTask, othersPending: Int = 0) -> SubmitResult {
        guard backgroundAppRefresh else { return .unavailable }
        return othersPending < kind.pendingLimit ? .accepted : .tooManyPendingTaskRequests
    }

    /// How long a launched task runs before its expiration handler is called.
    public func runTimeBeforeExpiration(rng: inout RandomStream) -> SimDuration {
        guard rng.chance(earlyExpirationRate) else { return runLimit }
        let e = Self.earlyExpiration
        return SimDuration(microseconds: rng.int(in: e.min.microseconds...e.max.microseconds))
    }
}

/// The class of a task request (`BGAppRefreshTaskRequest` or `BGProcessingTaskRequest`):
/// BGTaskScheduler counts its pending requests per class (`docs/platform-facts.md` F).
public enum BGTaskKind: UInt8, Sendable {
    case bgAppRefreshTask, bgProcessingTask

    /// "There can be a total of 1 refresh task and 10 processing tasks scheduled at any
    /// time" (Apple, `BGTaskScheduler.submit(_:)`).
    public var pendingLimit: Int {
        switch self {
        case .bgAppRefreshTask: 1
        case .bgProcessingTask: 10
        }
    }
}

/// One device's bookkeeping of the app's running background task (its `BGTask` on iOS,
/// the job run as the task on Android), as the OS sees it (ground truth for the oracle).
/// The pending requests are kept per identifier beside it (iOS: one per work id, the
/// simulation's `BGTaskRequests`); one task runs at a time, and ``holder`` says whose.
public struct BackgroundTaskSlot: Sendable {
    // Widest fields first: 19 bytes, not 24 with padding.
    public var launchedAt = SimTime.zero
    /// Issues each submitted request's generation, unique on the device across
    /// identifiers, which its launch events carry; bumped again at a cancel.
    public var pending = GenerationCounter()
    /// Serial of the task now or last running; events carry it.
    public var serial: UInt32 = 0
    public var running = false
    /// How often the app called `setTaskCompleted` for the current task.
    public var completions: UInt8 = 0
    /// The raw id of the work whose request launched the task now or last running: its
    /// feature hears the task, and its time and energy are booked to that work.
    public var holder: UInt8 = 0
    public init() {}
}
