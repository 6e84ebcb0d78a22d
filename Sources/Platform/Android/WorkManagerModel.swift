import SimKernel

/// WorkManager's limits (`docs/platform-facts.md` D, [WM] `WorkRequest.kt`, `PeriodicWorkRequest.kt`).
public struct WorkManagerConfig: Sendable, Equatable {
    /// `MIN_PERIODIC_INTERVAL_MILLIS`: 15 min.
    public var minPeriodicInterval = SimDuration.minutes(15)
    /// `MIN_PERIODIC_FLEX_MILLIS`: 5 min; an explicit flex is clamped to [5 min, interval]
    /// (`WorkSpec.setPeriodic(interval, flex)`). Without one (`setPeriodic(interval)`),
    /// flex is the interval, so at least 15 min: see `periodicRequest`.
    public var minPeriodicFlex = SimDuration.minutes(5)
    /// `MIN_BACKOFF_MILLIS` / `MAX_BACKOFF_MILLIS`: 10 s / 5 h.
    public var minBackoff = SimDuration.seconds(10)
    public var maxBackoff = SimDuration.hours(5)
    public init() {}
}

/// `BackoffPolicy`.
public enum WorkBackoffPolicy: UInt8, Sendable, Equatable { case exponential, linear }

/// `NetworkType` (the ones a phone fleet tells apart).
public enum WorkNetworkType: UInt8, Sendable, Equatable { case notRequired, connected, unmetered }

/// A work request's constraints (`docs/platform-facts.md` D).
public struct WorkConstraints: Sendable, Equatable {
    public var network: WorkNetworkType
    public var requiresCharging: Bool
    /// Follows BatteryService's "battery low" with its 15 % / 20 % hysteresis (`BatteryLowMonitor`).
    public var requiresBatteryNotLow: Bool
    public init(network: WorkNetworkType = .notRequired, requiresCharging: Bool = false, requiresBatteryNotLow: Bool = false) {
        self.network = network
        self.requiresCharging = requiresCharging
        self.requiresBatteryNotLow = requiresBatteryNotLow
    }
}

/// What the device offers at a moment, to test constraints against.
public struct DeviceConditions: Sendable, Equatable {
    public var network: WorkNetworkType
    public var charging: Bool
    public var batteryLow: Bool
    public init(network: WorkNetworkType, charging: Bool, batteryLow: Bool) {
        self.network = network
        self.charging = charging
        self.batteryLow = batteryLow
    }
}

/// A `OneTimeWorkRequest` or `PeriodicWorkRequest`, as built (clamped by `WorkManagerModel.request`).
public struct WorkRequest: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case oneTime
        case periodic(interval: SimDuration, flex: SimDuration)
    }
    public var kind: Kind
    public var initialDelay: SimDuration
    public var constraints: WorkConstraints
    public var backoffPolicy: WorkBackoffPolicy
    public var backoffDelay: SimDuration
}

/// How a run ended (`ListenableWorker.Result`).
public enum WorkResult: UInt8, Sendable, Equatable { case success, retry, failure }

/// One work request's schedule state (`WorkSpec`'s `lastEnqueueTime`, `periodCount`,
/// `runAttemptCount`), 15 bytes, so that a device's work slot with its flag and two
/// times takes 32 (docs/performance.md#memory-per-device).
public struct WorkSpecState: Sendable, Equatable {
    public internal(set) var lastEnqueueTime: SimTime
    public internal(set) var periodCount: UInt32 = 0
    /// Saturates at 65,535: the backoff reaches its cap long before (a request's
    /// cap over its delay is at most 65,535: ``WorkManagerModel/request(_:initialDelay:constraints:backoffPolicy:backoffDelay:)``),
    /// and every later attempt backs off by the cap alike.
    public internal(set) var runAttemptCount: UInt16 = 0
    /// Finished for good: a one-time request that succeeded or failed.
    public internal(set) var finished = false
    public init(enqueuedAt: SimTime) { lastEnqueueTime = enqueuedAt }

    /// One more attempt, saturating (see ``runAttemptCount``).
    mutating func countAttempt() {
        if runAttemptCount < .max { runAttemptCount += 1 }
    }
}

/// WorkManager's scheduling rules (`docs/platform-facts.md` D, [WM] `WorkSpec.calculateNextRunTime`).
///
/// - Periodic: interval ≥ 15 min, flex clamped to [5 min, interval]. Unflexed, the first
///   run is due at enqueue + initial delay; flexed, at enqueue + initial delay +
///   (interval − flex), the start of the first flex window. Later runs are due one
///   interval after the previous run ended (its re-enqueue, docs/platform-facts.md D), not on a
///   fixed grid: a run that ended at its window's start puts the next at the next
///   window's start, but a run held back (by Doze, quota, constraints) or running long
///   pushes every later run back by as much; nothing catches up.
/// - Backoff after `retry`: exponential delay × 2^(attempt − 1) or linear delay × attempt,
///   delay clamped to [10 s, 5 h] when built and the result capped at 5 h.
/// - The run itself goes through JobScheduler (API 23+), so it also waits for Doze's
///   maintenance windows and the app's quota: `mayRun` combines those gates.
public struct WorkManagerModel: Sendable {
    public var config: WorkManagerConfig
    public init(config: WorkManagerConfig = .init()) { self.config = config }

    /// Builds a request as the builders do: periodic interval and flex clamped, the
    /// backoff delay clamped (docs/platform-facts.md D). Refuses a configuration whose
    /// backoff would reach its cap only after more than 65,535 attempts (the defaults:
    /// 1,800 at most, 5 h over 10 s), past what ``WorkSpecState/runAttemptCount`` counts.
    public func request(_ kind: WorkRequest.Kind, initialDelay: SimDuration = .zero, constraints: WorkConstraints = .init(),
                        backoffPolicy: WorkBackoffPolicy = .exponential, backoffDelay: SimDuration = .seconds(30)) -> WorkRequest {
        var k = kind
        if case .periodic(let interval, let flex) = kind {
            let i = max(interval, config.minPeriodicInterval)
            k = .periodic(interval: i, flex: min(max(flex, config.minPeriodicFlex), i))
        }
        let delay = min(max(backoffDelay, config.minBackoff), config.maxBackoff)
        // A linear backoff (the slower) reaches its cap by attempt cap / delay.
        let (reach, overflow) = delay.microseconds.multipliedReportingOverflow(by: Int64(UInt16.max))
        precondition(overflow || reach >= config.maxBackoff.microseconds,
                     "WorkManagerConfig: the backoff reaches its cap after more than 65,535 attempts (minBackoff too small for maxBackoff)")
        return WorkRequest(kind: k, initialDelay: initialDelay, constraints: constraints, backoffPolicy: backoffPolicy, backoffDelay: delay)
    }

    /// `PeriodicWorkRequest.Builder(repeatInterval)` with no flex: `WorkSpec.setPeriodic(interval)`
    /// sets interval and flex both to `max(interval, 15 min)` ([WM] `impl/model/WorkSpec.kt`),
    /// so the work is unflexed and its first run is due at enqueue + initial delay.
    public func periodicRequest(interval: SimDuration, initialDelay: SimDuration = .zero, constraints: WorkConstraints = .init(),
                                backoffPolicy: WorkBackoffPolicy = .exponential, backoffDelay: SimDuration = .seconds(30)) -> WorkRequest {
        let i = max(interval, config.minPeriodicInterval)
        return request(.periodic(interval: i, flex: i), initialDelay: initialDelay, constraints: constraints,
                       backoffPolicy: backoffPolicy, backoffDelay: backoffDelay)
    }

    /// The retry delay after the `attempt`-th failed run (1 is the first), capped at 5 h.
    @inlinable public func backoff(_ request: WorkRequest, attempt: UInt32) -> SimDuration {
        let d = request.backoffDelay.microseconds
        let cap = config.maxBackoff.microseconds
        switch request.backoffPolicy {
        case .linear:
            let (v, o) = d.multipliedReportingOverflow(by: Int64(attempt))
            return SimDuration(microseconds: o ? cap : min(v, cap))
        case .exponential:
            let shift = attempt == 0 ? 0 : attempt - 1
            guard shift < 62, d <= cap >> Int64(shift) else { return config.maxBackoff }
            return SimDuration(microseconds: min(d << Int64(shift), cap))
        }
    }

    /// When the request is next due (`calculateNextRunTime`); nil once finished.
    /// Always inlined (`@inlinable` alone left it a call): the world asks at every Doze
    /// input that releases work, and a call across the module packed the request and the
    /// state first.
    @inlinable @inline(__always) public func nextRunTime(_ request: WorkRequest, _ s: WorkSpecState) -> SimTime? {
        guard !s.finished else { return nil }
        if s.runAttemptCount > 0 { return s.lastEnqueueTime + backoff(request, attempt: UInt32(s.runAttemptCount)) }
        switch request.kind {
        case .oneTime:
            return s.lastEnqueueTime + request.initialDelay
        case .periodic(let interval, let flex):
            if s.periodCount == 0 {
                let start = s.lastEnqueueTime + request.initialDelay
                return flex == interval ? start : start + (interval - flex)
            }
            return s.lastEnqueueTime + interval
        }
    }

    /// Records a run's end: success or failure finishes a one-time request and starts a
    /// periodic one's next period; retry backs off from `now`.
    public func runFinished(_ request: WorkRequest, _ s: inout WorkSpecState, result: WorkResult, now: SimTime) {
        s.lastEnqueueTime = now
        switch (result, request.kind) {
        case (.retry, _):
            s.countAttempt()
        case (_, .oneTime):
            s.finished = true
        case (_, .periodic):
            s.runAttemptCount = 0
            s.periodCount += 1
        }
    }

    /// A run the system stopped before the worker returned: JobScheduler's `onStopJob`
    /// (quota used up, Doze, the job's run-time limit, a constraint lost).
    /// `WorkerWrapper.resetWorkerStatus` sets the work ENQUEUED again and keeps
    /// `lastEnqueueTime` ("we want to preserve time when work was enqueued"), and the
    /// attempt was already counted when the run started (`runAttemptCount`), so
    /// `calculateNextRunTime` takes the backoff branch from the *original* enqueue time:
    /// usually due again at once ([WM] `impl/WorkerWrapper.kt`, `impl/model/WorkSpec.kt`;
    /// `backOffOnSystemInterruptions` defaults to false, the behaviour modelled).
    ///
    /// JobScheduler would reschedule the stopped job itself (`onStopJob` returns true:
    /// `JobSchedulerService.getRescheduleJobForFailureLocked`, backoff from the stop time),
    /// but WorkManager reschedules the same job id at once (`markWorkSpecScheduled(…,
    /// SCHEDULE_NOT_REQUESTED_YET)`, then `SystemJobScheduler` with the WorkSpec's
    /// `SystemIdInfo`), which replaces it: the time above is the one that holds.
    /// **Assumption**: that replacement is immediate (both run in the app's process
    /// right after the stop).
    public func runStoppedBySystem(_ s: inout WorkSpecState) {
        guard !s.finished else { return }
        s.countAttempt()
    }

    /// Whether the device meets the constraints (docs/platform-facts.md D, E).
    @inlinable public func constraintsMet(_ c: WorkConstraints, _ d: DeviceConditions) -> Bool {
        if c.requiresCharging && !d.charging { return false }
        if c.requiresBatteryNotLow && d.batteryLow { return false }
        switch c.network {
        case .notRequired: return true
        case .connected: return d.network != .notRequired
        case .unmetered: return d.network == .unmetered
        }
    }

    /// Whether a due request may start now: constraints met, Doze not holding background
    /// work back (docs/platform-facts.md A: jobs run in maintenance windows), and the app within
    /// its JobScheduler quota (docs/platform-facts.md B). `DeviceConditions.network` is
    /// `.notRequired` for "no network".
    public func mayRun(_ request: WorkRequest, _ s: WorkSpecState, now: SimTime, conditions: DeviceConditions,
                       doze: DozeState, quotaAllows: Bool) -> Bool {
        guard let due = nextRunTime(request, s), due <= now else { return false }
        return constraintsMet(request.constraints, conditions) && !doze.restrictsBackgroundWork && quotaAllows
    }
}
