import SimKernel
import AppLogic
import Reports
import Scenario

/// The feature hosts, one stored property each (``World/features``): a host owns its
/// logic, per-device state, effect buffer and metrics (Features/<F>/<F>Host.swift) and is
/// lent beside the world's core (``FeatureHost/lend(_:_:)``). The fan-outs below reach
/// them in the order they hear of a thing; a new feature adds its host here.
struct FeatureHosts<Logics: LogicSet> {
    /// Each host built for `scenario`'s fleet with its logic of `logics`
    /// (``World/init(scenario:traceDevice:shard:)``).
    init(scenario: Scenario, logics: Logics, core: WorldCore, fleet: FleetBuilder.Fleet) {
        badge = BadgeHost(manager: logics.badge)
        continuation = ContinuationHost(scenario: scenario, logic: logics.continuation, core: core)
        refresh = RefreshHost(scenario: scenario, logic: logics.refresh, lastCompleted: fleet.lastCompleted, capacities: fleet.cohorts.map(\.capacityMah))
        stepSync = StepSyncHost(scenario: scenario, logic: logics.stepSync, core: core)
        push = PushHost(scenario: scenario, router: logics.push, core: core)
        diagnostics = DiagnosticsHost(logic: logics.diagnostics, core: core)
    }

    var badge: BadgeHost<Logics>
    /// Seed `004`'s background continuation.
    var continuation: ContinuationHost<Logics>
    /// Seed `000`'s background refresh.
    var refresh: RefreshHost<Logics>
    /// Seed `003`'s step sync.
    var stepSync: StepSyncHost<Logics>
    /// Seed `001`'s push pipeline; `push.active` when a cohort runs `push`.
    var push: PushHost<Logics>
    /// The nightly diagnostics upload (opt-in).
    var diagnostics: DiagnosticsHost<Logics>
}

extension FeatureHosts {
    /// The one list of the features, in the order they hear of a thing (it fixes the
    /// order of their draws and of the request slots they take): a new feature adds its
    /// host's line here and in ``read(_:in:)``.
    @inline(__always) static func walk<V: FeatureVisitor>(_ visitor: inout V, in world: inout World<Logics>) where V.Logics == Logics {
        visitor.visit(RefreshHost<Logics>.self, in: &world)
        visitor.visit(BadgeHost<Logics>.self, in: &world)
        visitor.visit(ContinuationHost<Logics>.self, in: &world)
        visitor.visit(PushHost<Logics>.self, in: &world)
        visitor.visit(StepSyncHost<Logics>.self, in: &world)
        visitor.visit(DiagnosticsHost<Logics>.self, in: &world)
    }

    /// ``walk(_:in:)``'s list, for a fan-out that only reads.
    @inline(__always) static func read<V: FeatureReader>(_ visitor: inout V, in world: borrowing World<Logics>) where V.Logics == Logics {
        visitor.visit(RefreshHost<Logics>.self, in: world)
        visitor.visit(BadgeHost<Logics>.self, in: world)
        visitor.visit(ContinuationHost<Logics>.self, in: world)
        visitor.visit(PushHost<Logics>.self, in: world)
        visitor.visit(StepSyncHost<Logics>.self, in: world)
        visitor.visit(DiagnosticsHost<Logics>.self, in: world)
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
        case .refresh(let e): refreshEvent(e)
        case .push(let e): pushEvent(e)
        case .stepSync(let e): stepSyncEvent(e)
        case .continuation(let e): continuationEvent(e)
        }
    }

    /// The event hashes' kind code, payload and device (nil: fleet-wide; Core/EventHashes).
    @inline(__always) func featureEventIdentity(_ event: FeatureEvent) -> (UInt8, UInt32, UInt32?) {
        switch event {
        case .refresh(let e): return e.identity
        case .push(let e): return features.push.eventIdentity(e)
        case .stepSync(let e): return e.identity
        case .continuation(let e): return e.identity
        }
    }

    /// Whether its guard will drop it (Core/QueueStats).
    @inline(__always) func featureEventIsSuperseded(_ event: FeatureEvent) -> Bool {
        switch event {
        case .push(let e): return features.push.isSuperseded(e, now: core.now)
        case .refresh, .stepSync: return false
        case .continuation(let e): return e.isSuperseded(core.devices)
        }
    }

    /// The local device it works on, or nil (Core/Prefetch).
    @inline(__always) func featureEventDevice(_ event: FeatureEvent) -> UInt32? {
        switch event {
        case .refresh(let e): return e.device
        case .push(let e): return e.device
        case .stepSync(let e): return e.device
        case .continuation(let e): return e.device
        }
    }

    /// Starts loading the state it will read (Core/Prefetch): a HealthKit delivery
    /// reads the whole device and the step sync's entries; the others the device's hot part.
    @inline(__always) mutating func prefetchState(of event: FeatureEvent) {
        switch event {
        case .stepSync(let e):
            let indices = Prefetch.device(e.device, device: Device.wholeBytes, android: AndroidDevice.wholeBytes, in: &self)
            prefetchStepSync(Int(e.device), android: indices.android)
        case .refresh, .push, .continuation:
            guard let d = featureEventDevice(event) else { return }
            Prefetch.device(d, device: Device.hotBytes, android: AndroidDevice.wholeBytes, in: &self)
        }
    }

    /// Starts loading what an open reads of every feature (Core/Prefetch).
    @inline(__always) mutating func prefetchOpening(_ i: Int, android a: Int) {
        var fanOut = FeatureFanOut<Logics>.PrefetchOpening(i: i, a: a)
        FeatureHosts.walk(&fanOut, in: &self)
    }

    /// Starts loading what the end of a foreground session reads: the continuation's state
    /// (whether an analysis goes on).
    @inline(__always) mutating func prefetchLeavingForeground(_ i: Int) {
        features.continuation.states.prefetch(i)
    }

    /// Starts loading what the app's background task's launch reads of the features that
    /// handle it (Core/Prefetch; `a`: the device's Android index, or -1).
    @inline(__always) mutating func prefetchTaskLaunch(_ i: Int, android a: Int) {
        prefetchRefresh(i)
        prefetchStepSync(i, android: a)
    }

    /// Starts loading what running `work` on device `i` reads of the feature that declared it (Core/Prefetch).
    @inline(__always) mutating func prefetchWorkRun(_ work: WorkID, _ i: Int, android a: Int) {
        switch work {
        case .refresh: prefetchRefresh(i)
        case .stepSync: prefetchStepSync(i, android: a)
        case .diagnostics: break
        }
    }

    /// Starts loading what device `d`'s `timer` reads, its device's lines included (Core/Prefetch).
    @inline(__always) mutating func prefetchTimer(_ d: UInt32, _ timer: DeviceTimer) {
        switch timer {
        case .stepWake:
            Prefetch.device(d, device: Device.hotBytes, android: AndroidDevice.stepJobBytes, in: &self)
            prefetchHoldsProcess(Int(d))
        case .staleNotification:
            Prefetch.device(d, device: Device.hotBytes, android: AndroidDevice.wholeBytes, in: &self)
            core.staleTriggers.prefetch(Int(d))
        case .hardStop:
            Prefetch.device(d, device: Device.wholeBytes, android: AndroidDevice.wholeBytes, in: &self)
        default:
            Prefetch.device(d, device: Device.hotBytes, android: AndroidDevice.wholeBytes, in: &self)
        }
    }

    /// Starts loading what ``featuresHoldProcess(_:)`` reads first: the step sync's slot.
    @inline(__always) mutating func prefetchHoldsProcess(_ i: Int) {
        features.stepSync.slots.prefetch(i)
    }

    // MARK: - Timers (Core/DeviceTimers drops the stale ones)

    /// Device `d`'s current `timer` fired: the feature that armed it hears it.
    @inline(__always) mutating func featureTimerFires(_ d: UInt32, _ timer: DeviceTimer) {
        switch timer {
        case .hardStop: deliverRefresh(d, .hardStopFired)
        case .stepRetry: stepRetryTimerFires(d)
        case .staleNotification: staleNotificationFires(d)
        case .stepWake: stepWakeEnds(d)
        case .continuationOffer: continuationTimerFires(d, .offer)
        case .continuationDeadline: continuationTimerFires(d, .deadline)
        case .backgroundTask: backgroundTimeExpires(d)
        }
    }

    // MARK: - Requests (Core/World+Network keeps the transport)

    /// Starts loading what the server's answer to request `job` reads of its owner's
    /// backend (Core/Prefetch): the tests' truth, or the steps' row and the steps
    /// oracle's entry.
    @inline(__always) mutating func prefetchServing(_ job: UInt32, user i: Int) {
        let j = Int(job)
        switch core.jobs[j].owner {
        case .refresh: features.refresh.prefetchServing(core.jobs[j].endpoint, user: i)
        case .stepSync:
            features.stepSync.prefetchServing(core.jobs[j].endpoint, user: i)
            core.oracle.steps.prefetch(i)
        case .continuation, .diagnostics: break
        }
    }

    /// Starts loading what hearing request `job`'s answer reads (Core/Prefetch):
    /// every host's request slot (each lets go of it if it was theirs), then the owner's
    /// state (`a`: the device's Android index, or -1).
    @inline(__always) mutating func prefetchAnswer(_ job: UInt32, user i: Int, android a: Int) {
        features.refresh.slots.prefetch(i)
        features.continuation.slots.prefetch(i)
        switch core.jobs[Int(job)].owner {
        case .stepSync: prefetchStepSync(i, android: a)
        case .refresh:
            features.refresh.states.prefetch(i)
            core.oracle.refresh.prefetch(i)
        case .continuation, .diagnostics: break
        }
    }

    /// Request `job` went out: its owner keeps it.
    mutating func featureSent(_ job: UInt32) {
        let d = core.jobs[Int(job)].device
        switch core.jobs[Int(job)].owner {
        case .refresh: features.refresh.requestSent(d, job: job)
        case .continuation: features.continuation.requestSent(d, job: job)
        case .stepSync: features.stepSync.requestSent(d, job: job, core: &core)
        case .diagnostics: features.diagnostics.requestSent(d, job: job)
        }
    }

    /// The server's time for request `job` where its owner's backend models it (an
    /// analysis), else nil: the API's own distribution.
    @inline(__always) mutating func featureServiceTime(_ job: UInt32, slowdown: Double?) -> SimDuration? {
        let j = Int(job)
        switch core.jobs[j].owner {
        case .continuation: return features.continuation.serviceTime(core.jobs[j].endpoint, device: Int(core.jobs[j].device), slowdown: slowdown, core: &core)
        case .refresh, .stepSync, .diagnostics: return nil
        }
    }

    /// The server answers request `job` of `user` (its token valid) from the backend's
    /// ground truth at this instant: its owner serves it.
    mutating func featureServes(_ job: UInt32, user: Int, serverTime: Instant) -> HTTPResult {
        switch core.jobs[Int(job)].owner {
        case .refresh: return features.refresh.serve(job, user: user, serverTime: serverTime, core: &core)
        case .continuation: return .ok(.analysis)
        case .stepSync:
            // A body that is not an upload is a bad request.
            guard case .syncSteps(let upload) = core.jobs[Int(job)].endpoint else { return .status(400) }
            return features.stepSync.applyUpload(job, upload, core: &core)
        case .diagnostics: return DiagnosticsHost<Logics>.serve()
        }
    }

    /// The client side of request `job` ended with `result` (its radio energy
    /// `radioJoules`): every host lets go of it if it was theirs, then the endpoint's
    /// owner hears the answer.
    mutating func featureReceives(_ job: UInt32, _ result: HTTPResult, radioJoules: Double) {
        let i = Int(core.jobs[Int(job)].device)
        features.refresh.requestEnded(i, job: job)
        features.continuation.requestEnded(i, job: job)
        switch core.jobs[Int(job)].owner {
        case .refresh: refreshReceives(job, result, radioJoules: radioJoules)
        case .continuation: continuationReceives(job, result, radioJoules: radioJoules)
        case .stepSync: stepSyncReceives(job, result, radioJoules: radioJoules)
        case .diagnostics: DiagnosticsHost.receives(job, result, radioJoules: radioJoules, in: &self)
        }
    }

    // MARK: - Background work (OS/BackgroundWork.swift)

    /// JobScheduler started `work`'s job on device `d` (OS/Android/AndroidHost+WorkManager): the
    /// feature that declared the work runs it.
    @inline(__always) mutating func featureWorkRuns(_ work: WorkID, _ d: UInt32, _ job: AndroidJobStart) {
        switch work {
        case .refresh: refreshRunsAsJob(d, job)
        case .stepSync: stepSyncRunsAsJob(d, job)
        case .diagnostics: DiagnosticsHost.runsAsJob(d, job, in: &self)
        }
    }

    /// What `work` asks the OS for (its interval and constraints), declared beside the
    /// feature's host.
    @inline(__always) func featureWorkRequest(_ work: WorkID) -> PeriodicWork {
        switch work {
        case .refresh: refreshWork
        case .stepSync: stepSyncWork
        case .diagnostics: DiagnosticsHost.work(in: self)
        }
    }

    /// `work`'s run returned its result (``HostRequest/finishWork(_:success:)``): the OS
    /// ends it, then the feature that declared it hears, if it was running.
    mutating func featureWorkFinished(_ work: WorkID, _ d: UInt32, success: Bool) {
        guard workFinished(d, work, success: success) else { return }
        switch work {
        case .refresh: break  // its logic ends the task with `completeTask` instead
        case .stepSync: stepWorkFinished(d)
        case .diagnostics: DiagnosticsHost.workFinished(d, in: &self)
        }
    }

    /// JobScheduler stopped `work`'s job `serial` at its deadline: the feature that declared
    /// it hears (the OS then ends the job, if the feature has not).
    mutating func featureWorkStopped(_ work: WorkID, _ d: UInt32, serial: UInt32) {
        switch work {
        case .refresh: refreshJobStopped(d, serial: serial)
        case .stepSync: stepSyncJobStopped(d, serial: serial)
        case .diagnostics: DiagnosticsHost.jobStopped(d, serial: serial, in: &self)
        }
    }

    /// Whether the step sync submits task requests under its own identifier: on iOS, in a
    /// cohort without the refresh (seed `003`: "Background App Refresh + HealthKit
    /// Background Delivery"). Where the refresh runs, the step sync rides the refresh's
    /// launches instead: an app keeps at most one pending refresh request
    /// (docs/platform-facts.md F). Its adapter submits the next request for the sync
    /// interval when the task starts and completes the task once no upload is in flight.
    @inline(__always) func stepSyncHoldsItsOwnTask(_ i: Int) -> Bool {
        let cohort = core.cohorts[Int(core.devices[i].cohort)]
        return cohort.runs(.stepSync) && !cohort.runs(.refresh) && !runsPeriodicWork(i)
    }

    /// The app's background task launched (iOS: the request of the work that holds it;
    /// Android: the refresh work's job): the holder's feature hears, then, on iOS, the
    /// step sync rides the launch (Android runs it as its own periodic work); the
    /// diagnostics upload's processing task is its own.
    mutating func featuresHearTaskLaunched(_ d: UInt32) {
        let i = Int(d)
        switch taskHolder(i) {
        case .refresh: refreshTaskLaunched(d)
        case .stepSync: stepSyncTaskLaunched(d)
        case .diagnostics: return DiagnosticsHost.taskLaunched(d, in: &self)
        }
        if core.cohorts[Int(core.devices[i].cohort)].runs(.stepSync), !runsPeriodicWork(i), core.devices[i].process == .running {
            let context = stepContext(i)
            deliverStepSync(d, .refreshTaskLaunched(context))
        }
    }

    /// The app's task expired (iOS's expiration handler runs): the feature of the work
    /// that holds it hears (Android's stop of the refresh work's job is
    /// ``featureWorkStopped(_:_:serial:)``).
    mutating func featuresHearTaskExpired(_ d: UInt32) {
        switch taskHolder(Int(d)) {
        case .refresh: deliverRefresh(d, .taskExpired)
        case .stepSync: stepSyncTaskExpired(d)
        case .diagnostics: DiagnosticsHost.taskExpired(d, in: &self)
        }
    }

    /// The task `work` held ended after `duration`, costing `mAh`: its feature books them.
    mutating func featureTaskEnded(_ work: WorkID, _ i: Int, duration: SimDuration, mAh: Double) {
        switch work {
        case .refresh: refreshTaskEnded(i, duration: duration, mAh: mAh)
        case .stepSync: break  // its uploads book their own energy (`energyPerSync`)
        case .diagnostics: DiagnosticsHost.taskEnded(i, mAh: mAh, in: &self)
        }
    }

    // MARK: - The run

    /// Device `d`'s features start (``World/start()``, after its user, network and
    /// battery): the app's background task as the app left it before the run, then each
    /// feature's own state and triggers.
    mutating func featuresStart(_ d: UInt32) {
        let i = Int(d)
        startAppTask(d, holder: core.cohorts[Int(core.devices[i].cohort)].runs(.refresh) ? .refresh : stepSyncHoldsItsOwnTask(i) ? .stepSync : nil)
        if core.cohorts[Int(core.devices[Int(d)].cohort)].runs(.stepSync) { startStepSync(d) }
        if core.cohorts[Int(core.devices[i].cohort)].runs(.diagnostics) { DiagnosticsHost.start(d, in: &self) }
    }

    /// The fleet's features start, once every device has (``World/init(scenario:traceDevice:shard:)``).
    mutating func featuresStartFleet() {
        startPush()
    }

    /// The run reached its end: the features close their books.
    mutating func featuresRunEnded() {
        features.push.closeLedger(core: &core)
        features.stepSync.observeStepSyncRunEnded(core: core)
        features.continuation.observeContinuationRunEnded(core: core)
    }

    // MARK: - The process and the user

    /// The user opens the app: the ground truth of each feature's backend first (before
    /// the token, the process and the OS: the order of the user's draws).
    mutating func featuresHearOpening(_ d: UInt32) {
        var fanOut = FeatureFanOut<Logics>.Opening(d: d)
        FeatureHosts.walk(&fanOut, in: &self)
    }

    /// The user opened the app (after ground truth, the token, the process and the OS).
    mutating func featuresHearAppOpened(_ d: UInt32) {
        var fanOut = FeatureFanOut<Logics>.AppOpened(d: d)
        FeatureHosts.walk(&fanOut, in: &self)
    }

    /// A notification the app posted was shown (``World/postNotification(_:device:)``):
    /// the feature that posted it hears, by its kind.
    mutating func featuresHearNotificationShown(_ notification: LocalNotification, _ d: UInt32) {
        switch notification.kind {
        case .testAvailable: testNotificationShown(d)
        case .analysisComplete, .push, .stepSyncStale: break
        }
    }

    /// A shown notification reached the notification centre (``HostRequest/notify(_:)``),
    /// its `content.badge` with it: the badge's keeper hears.
    mutating func featuresHearNotificationDelivered(_ notification: LocalNotification, _ d: UInt32) {
        features.badge.notificationDelivered(notification, device: d, core: &core)
    }

    /// The foreground session ended, before the app may be suspended.
    mutating func featuresHearLeftForeground(_ d: UInt32) {
        var fanOut = FeatureFanOut<Logics>.LeftForeground(d: d)
        FeatureHosts.walk(&fanOut, in: &self)
    }

    /// iOS suspends the app (before its process is marked suspended).
    mutating func featuresHearSuspended(_ d: UInt32) {
        var fanOut = FeatureFanOut<Logics>.Suspended(d: d)
        FeatureHosts.walk(&fanOut, in: &self)
    }

    /// The process was terminated: each host drops what lived in memory and comes back
    /// from what reached the disk. The continuation goes first: the request slots it
    /// frees are reused in this order.
    mutating func featuresHearTerminated(_ d: UInt32) {
        features.continuation.terminate(d, core: &core)
        features.refresh.terminate(d, core: &core)
        terminateStepSync(d)
        pushOnTermination(d)
        DiagnosticsHost.terminated(d, in: &self)
    }

    /// The device can be reached again (back online, a network outage over): providers
    /// hand over what they stored.
    mutating func featuresHearReachable(_ d: UInt32) {
        var fanOut = FeatureFanOut<Logics>.Reachable(d: d)
        FeatureHosts.walk(&fanOut, in: &self)
    }

    // MARK: - Faults and shards

    /// A fault of the whole fleet that a feature's backend takes (Core/World+Lifecycle): true
    /// when one took it, so no device is asked.
    mutating func featuresTakeFleetFault(_ kind: Fault.Kind, starting: Bool) -> Bool {
        features.push.takesFault(kind, starting: starting)
    }

    /// UserDefaults wrote every feature's state to disk.
    mutating func featuresPersist(_ i: Int) {
        var fanOut = FeatureFanOut<Logics>.Persist(i: i)
        FeatureHosts.walk(&fanOut, in: &self)
    }

    /// Whether a feature's background work keeps the app's process from being suspended:
    /// the continuation's `beginBackgroundTask`, a HealthKit wake under way, an Android
    /// job (``World/mayBeSuspended(_:)`` asks it on every suspension path).
    @inline(__always) func featuresHoldProcess(_ i: Int) -> Bool {
        var fanOut = FeatureFanOut<Logics>.HoldsProcess(i: i)
        FeatureHosts.read(&fanOut, in: self)
        return fanOut.holds || workHoldsProcess(i)
    }

    /// Memory of one device's entries in the hosts' arrays (``World/bytesPerDevice``).
    static var featuresBytesPerDevice: Int {
        RefreshHost<Logics>.bytesPerDevice + ContinuationHost<Logics>.bytesPerDevice + StepSyncHost<Logics>.bytesPerDevice
    }

    // MARK: - The report

    /// The features' parts of report.json (``ReportParts``): each host reports its own,
    /// in its Features/<F>/<F>Report.swift.
    func featureReport() -> ReportParts {
        var fanOut = FeatureFanOut<Logics>.Report(parts: ReportParts(cohorts: core.cohorts.count))
        FeatureHosts.read(&fanOut, in: self)
        return fanOut.parts
    }

    /// Device `i`'s wakeups a feature caused besides its task launches
    /// (`battery.<cohort>.wakeupsPerDeviceDay`).
    func featuresWakeups(_ i: Int) -> UInt32 {
        var fanOut = FeatureFanOut<Logics>.Wakeups(i: i)
        FeatureHosts.read(&fanOut, in: self)
        return fanOut.sum
    }

    /// `fleetsim merge`'s rules: each feature's own (beside its report), checked before
    /// the core's (``ReportMerge/coreRules``).
    public static var mergeRules: ReportMerge.Rules { FeatureList.mergeRules }

    /// What a report of this build holds (``FeatureList/reportSchema``).
    public static var reportSchema: ReportSchema { FeatureList.reportSchema }

    /// The features' sections of report.md and report.html (``FeatureList/reportSections``).
    public static var reportSections: [FeatureSection] { FeatureList.reportSections }
}

/// The features' declarations that no logic changes: the report's merge rules and schema,
/// a shard's part of their backends, the memory of their server-side rows.
enum FeatureList {
    /// The judges switched off are the run's, the same on every shard: a shard that
    /// differs (or lacks one) is of another run, and merge refuses it.
    static let judgesMergeRules: [(pattern: String, rule: ReportMerge.Rule)] = [("judges.**", .identical)]

    /// A shard's part of the features' backends' capacity (``ShardPlan/apply(to:)``).
    static func takeShardPart(of scenario: inout Scenario, _ plan: ShardPlan) {
        PushFeature.takeShardPart(of: &scenario, plan)
    }

    /// Memory of the features' server-side state that the faults make grow beyond the
    /// per-device and per-day figures, for a shard of `held` of `total` devices
    /// (``MemoryEstimate``): the step rows of moved clocks' dates.
    static func bytesOffTheRunsDays(_ scenario: Scenario, held: Int, total: Int) -> Int {
        StepSyncFeature.rowsOffTheRunsDates(scenario, held: held, total: total) * StepSyncFeature.bytesPerFarRow
    }

    /// Each feature's section of report.md and report.html, in the order the documents
    /// show them (each declared beside its report, Features/<F>/<F>ReportSection.swift).
    static let reportSections = [RefreshFeature.reportSection, StepSyncFeature.reportSection, ContinuationFeature.reportSection,
                                 PushFeature.reportSection, DiagnosticsFeature.reportSection]

    /// The features a cohort may run (``ScenarioVocabulary/features``), each with its bit:
    /// the order a scenario's error lists them in.
    static let features: [Feature] = [.refresh, .stepSync, .push, .continuation, .diagnostics]

    /// Each feature's section of a scenario's `logic` (``ScenarioVocabulary/logicSections``,
    /// declared beside its config, Features/<F>/<F>ScenarioSection.swift): the order an
    /// unknown key's message lists them in.
    static let logicSections = [RefreshFeature.logicSection, StepSyncFeature.logicSection, ContinuationFeature.logicSection,
                                PushFeature.logicSection]
    /// Each feature's section of a cohort (``ScenarioVocabulary/cohortSections``).
    static let cohortSections = [ContinuationFeature.cohortSection, PushFeature.cohortSection]
    /// Each feature's top-level section (``ScenarioVocabulary/topLevelSections``).
    static let topLevelSections = [PushFeature.topLevelSection]

    /// Every feature's rules (``ViolationKind/allCases``), in the list's order: the order
    /// of report.json's `invariants.byKind`.
    static let rules = RefreshFeature.rules + BadgeFeature.rules + ContinuationFeature.rules + PushFeature.rules + StepSyncFeature.rules
        + DiagnosticsFeature.rules

    /// The opt-in features' endpoints and rules, which a report of a run where no cohort
    /// runs the feature leaves out (``ReportScope``).
    static let optIn = [OptInParts(feature: .diagnostics, endpoints: DiagnosticsFeature.endpoints, rules: DiagnosticsFeature.rules)]

    static let mergeRules = ReportMerge.Rules(
        RefreshFeature.mergeRules + ContinuationFeature.mergeRules + PushFeature.mergeRules + StepSyncFeature.mergeRules + DiagnosticsFeature.mergeRules
            + judgesMergeRules
            + ReportMerge.coreRules,
        schema: reportSchema)

    /// What a report of this build holds (``ReportConsistency``): the core's keys,
    /// totals and bounds (``CoreReportSchema``) and each feature's; violation kinds by
    /// name (``ViolationKind``).
    static let reportSchema = ReportSchema(
        keys: [CoreReportSchema.reportKeys, RefreshFeature.reportKeys, ContinuationFeature.reportKeys, PushFeature.reportKeys, StepSyncFeature.reportKeys,
               DiagnosticsFeature.reportKeys]
            .joined(separator: "\n"),
        names: ["invariants.byKind": Set(ViolationKind.allCases.map(\.rawValue)), "judges.off": Set(ViolationKind.allCases.map(\.rawValue))],
        relations: CoreReportSchema.reportRelations + ContinuationFeature.reportRelations + PushFeature.reportRelations,
        bounds: CoreReportSchema.reportBounds + PushFeature.reportBounds + DiagnosticsFeature.reportBounds)
}

extension FeatureEvent {
    /// The event hashes' identity of an event that carries its device (Core/EventHashes);
    /// nil for push's, whose device only its host's tables tell (its schedules pass it,
    /// Core/TieKeys).
    @inline(__always) var ownIdentity: (UInt8, UInt32, UInt32?)? {
        switch self {
        case .refresh(let e): return e.identity
        case .push: return nil
        case .stepSync(let e): return e.identity
        case .continuation(let e): return e.identity
        }
    }
}
