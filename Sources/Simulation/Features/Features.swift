import SimKernel
import AppLogic
import Reports

/// The features' background works, one case per declared work (OS/BackgroundWork.swift):
/// the OS models handle a work by its id (its raw value) and never name one; the feature
/// that declared it runs it (``World/featureWorkRuns(_:_:_:)``). The OS keeps one slot,
/// one request id, one job serial and stop and one WorkManager timer per id (``AndroidDevice/works``,
/// ``AndroidTimer/work(_:)``; DeviceLayoutTests checks their room).
enum WorkID: UInt8, CaseIterable {
    /// Seed `000`'s refresh (Features/Refresh/World+Refresh).
    case refresh
    /// Seed `003`'s step sync (Features/StepSync/World+StepSync).
    case stepSync

    /// Its name in the trace's prose (`periodic step-sync work enqueued`); the trace's
    /// other lines print the case's name (`WorkManager: stepSync due`).
    var proseName: String {
        switch self {
        case .refresh: "refresh"
        case .stepSync: "step-sync"
        }
    }
}

/// A feature's own events, one case per feature, each a small enum in the feature's
/// folder that knows its identity for the event hashes, its device for the prefetch,
/// its staleness and its load cause (as ``PushEvent`` does). Nested, ``WorldEvent``
/// stays 10 bytes (``DeviceLayoutTests``).
enum FeatureEvent {
    case push(PushEvent)
    case stepSync(StepSyncEvent)
    case continuation(ContinuationEvent)

    /// What a request sent while it is handled was caused by (``LoadCause``).
    var loadCause: LoadCause {
        switch self {
        case .push(let e): return e.loadCause
        case .stepSync(let e): return e.loadCause
        case .continuation(let e): return e.loadCause
        }
    }
}

/// The list of features (docs/architecture.md, "Where each kind of change goes"): the one place
/// the core's event switch, process lifecycle and user code reach the feature hosts, one
/// line per host in each fan-out, in the order the hosts hear of it. The core calls
/// these, never a host by name; a new feature adds its line to each fan-out it takes
/// part in.
extension World {
    // MARK: - Events

    /// A feature's own event (``World/step(_:)``).
    mutating func featureEvent(_ event: FeatureEvent) {
        switch event {
        case .push(let e): pushEvent(e)
        case .stepSync(let e): stepSyncEvent(e)
        case .continuation(let e): continuationEvent(e)
        }
    }

    /// The event hashes' kind code, payload and device (nil: fleet-wide; Core/EventHashes).
    @inline(__always) func featureEventIdentity(_ event: FeatureEvent) -> (UInt8, UInt32, UInt32?) {
        switch event {
        case .push(let e): return push.eventIdentity(e)
        case .stepSync(let e): return e.identity
        case .continuation(let e): return e.identity
        }
    }

    /// Whether its guard will drop it (Core/QueueStats).
    @inline(__always) func featureEventIsSuperseded(_ event: FeatureEvent) -> Bool {
        switch event {
        case .push(let e): return push.isSuperseded(e)
        case .stepSync: return false
        case .continuation(let e): return e.isSuperseded(core.devices)
        }
    }

    /// The local device it works on, or nil (Core/World+Prefetch).
    @inline(__always) func featureEventDevice(_ event: FeatureEvent) -> UInt32? {
        switch event {
        case .push(let e): return e.device
        case .stepSync(let e): return e.device
        case .continuation(let e): return e.device
        }
    }

    /// Starts loading the state it will read (Core/World+Prefetch): a HealthKit delivery
    /// reads the whole device and the step sync's entries; the others the device's hot part.
    @inline(__always) mutating func prefetchState(of event: FeatureEvent) {
        switch event {
        case .stepSync(let e):
            let indices = prefetch(e.device, device: Device.wholeBytes, android: AndroidDevice.wholeBytes)
            prefetchStepSync(Int(e.device), android: indices.android)
        case .push, .continuation:
            guard let d = featureEventDevice(event) else { return }
            prefetch(d, device: Device.hotBytes, android: AndroidDevice.wholeBytes)
        }
    }

    // MARK: - Requests (Core/World+Network keeps the transport)

    /// The server answers request `job` of `user` (its token valid) from the backend's
    /// ground truth at this instant: the endpoint's feature serves it.
    mutating func featureServes(_ job: UInt32, user: Int, serverTime: Instant) -> HTTPResult {
        switch core.jobs[Int(job)].endpoint {
        case .testHistory, .activeSession: return refreshServes(job, user: user, serverTime: serverTime)
        case .analysis: return .ok(.analysis)
        case .syncSteps(let upload): return stepSync.applyUpload(job, upload, core: &core)
        }
    }

    /// The client side of request `job` ended with `result` (its radio energy
    /// `radioJoules`): every host lets go of it if it was theirs, then the endpoint's
    /// feature hears the answer.
    mutating func featureReceives(_ job: UInt32, _ result: HTTPResult, radioJoules: Double) {
        let i = Int(core.jobs[Int(job)].device)
        refresh.requestEnded(i, job: job)
        continuation.requestEnded(i, job: job)
        switch core.jobs[Int(job)].endpoint {
        case .testHistory, .activeSession: refreshReceives(job, result, radioJoules: radioJoules)
        case .analysis: continuationReceives(job, result, radioJoules: radioJoules)
        case .syncSteps: stepSyncReceives(job, result, radioJoules: radioJoules)
        }
    }

    // MARK: - Background work (OS/BackgroundWork.swift)

    /// JobScheduler started `work`'s job on device `d` (OS/Android/World+WorkManager): the
    /// feature that declared the work runs it.
    @inline(__always) mutating func featureWorkRuns(_ work: WorkID, _ d: UInt32, _ job: AndroidJobStart) {
        switch work {
        case .refresh: refreshRunsAsJob(d, job)
        case .stepSync: stepSyncRunsAsJob(d, job)
        }
    }

    /// JobScheduler stopped `work`'s job `serial` at its deadline: the feature that declared
    /// it hears (the OS then ends the job, if the feature has not).
    mutating func featureWorkStopped(_ work: WorkID, _ d: UInt32, serial: UInt32) {
        switch work {
        case .refresh: refreshJobStopped(d, serial: serial)
        case .stepSync: stepSyncJobStopped(d, serial: serial)
        }
    }

    /// The app's background task launched (iOS `BGAppRefreshTask`, Android the refresh
    /// work's job): every feature that handles the task hears. The step sync owns the
    /// task where there is no refresh, and otherwise rides its launch on iOS (Android
    /// runs it as its own periodic work).
    mutating func featuresHearTaskLaunched(_ d: UInt32) {
        let i = Int(d)
        refreshTaskLaunched(d)
        if stepSyncOwnsRefreshTask(i) { stepSyncTaskLaunched(d) }
        if core.cohorts[Int(core.devices[i].cohort)].stepSync, !runsPeriodicWork(i), core.devices[i].process == .running {
            let context = stepContext(i)
            deliverStepSync(d, .refreshTaskLaunched(context))
        }
    }

    /// The app's `BGAppRefreshTask` expired (iOS's expiration handler runs): every feature
    /// that handles the task hears (Android's stop of the refresh work's job is
    /// ``featureWorkStopped(_:_:serial:)``).
    mutating func featuresHearTaskExpired(_ d: UInt32) {
        deliverRefresh(d, .taskExpired)
        if stepSyncOwnsRefreshTask(Int(d)) { stepSyncTaskExpired(d) }
    }

    // MARK: - The process and the user

    /// The user opened the app (after ground truth, the token, the process and the OS).
    mutating func featuresHearAppOpened(_ d: UInt32) {
        deliverRefresh(d, .appOpened)
        badge.appOpened(d, core: &core)
        continuationOnOpen(d)
        pushOnOpen(d)
        stepSyncOnOpen(d)
    }

    /// The foreground session ended, before the app may be suspended.
    mutating func featuresHearLeftForeground(_ d: UInt32) {
        continuationLeavesForeground(d)
    }

    /// iOS suspends the app (before its process is marked suspended).
    mutating func featuresHearSuspended(_ d: UInt32) {
        failStepUploadOnSuspension(d)
    }

    /// The process was terminated: each host drops what lived in memory and comes back
    /// from what reached the disk. The continuation goes first: the request slots it
    /// frees are reused in this order.
    mutating func featuresHearTerminated(_ d: UInt32) {
        continuation.terminate(d, core: &core)
        refresh.terminate(d, core: &core)
        terminateStepSync(d)
    }

    /// UserDefaults wrote every feature's state to disk.
    mutating func featuresPersist(_ i: Int) {
        refresh.persist(i)
        continuation.persist(i)
        stepSync.persist(i)
    }

    /// Whether a feature's background work keeps the app's process from being suspended.
    @inline(__always) func featuresHoldProcess(_ i: Int) -> Bool {
        continuation.holdsBackgroundTask(i) || workHoldsProcess(i)
    }

    /// Memory of one device's entries in the hosts' arrays (``World/bytesPerDevice``).
    static var featuresBytesPerDevice: Int {
        RefreshHost.bytesPerDevice + ContinuationHost.bytesPerDevice + StepSyncHost.bytesPerDevice
    }

    /// The features' own sections of report.json, by key: each host returns its own.
    func featureSections() -> [(key: String, value: ReportValue)] {
        [("continuation", continuation.section()),
         ("push", push.section(duration: scenario.duration)),
         ("stepSync", stepSync.section())]
    }
}
