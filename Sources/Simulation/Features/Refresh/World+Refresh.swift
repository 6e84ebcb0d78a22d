import SimKernel
import AppLogic
import Platform
import Scenario
import Reports

extension World {
    /// The OS starts the app's background task for `work` (iOS: the request its
    /// identifier submitted; Android: the refresh work's job), which `work`'s feature
    /// handles: the task slot's state and holder, ground truth for the oracle, and an
    /// energy operation of `work`'s opens, which the launch's cost opens.
    mutating func beginAppTask(_ d: UInt32, _ work: WorkID) {
        let i = Int(d)
        core.devices[i].task.serial &+= 1
        core.devices[i].task.running = true
        core.devices[i].task.completions = 0
        core.devices[i].task.launchedAt = now
        core.devices[i].task.holder = work.rawValue
        core.devices[i].ledger.begin(work.energyOperation)
        core.observeTaskLaunched(i)
        core.devices[i].launches += 1
        core.metrics.launches += 1
        backgroundLaunch(d)
    }

    /// The task launched: the refresh logic hears `taskLaunched` with what it reads of the device.
    mutating func refreshTaskLaunched(_ d: UInt32) {
        let i = Int(d)
        let context = RefreshLaunchContext(
            signedIn: core.devices[i].signedIn,
            networkReachable: core.devices[i].online,
            notificationAuthorization: core.devices[i].permission,
            timeZoneIdentifier: core.timeZones[Int(core.devices[i].clock.timeZone)])
        deliverRefresh(d, .taskLaunched(context))
    }

    /// The task is over for the OS (completed or killed): its time and energy are booked
    /// to the work that held it (``featureTaskEnded(_:_:duration:mAh:)``); the oracle
    /// judges its length.
    mutating func endTask(_ d: UInt32) {
        let i = Int(d)
        let holder = taskHolder(i)
        core.observeTaskEnded(i)
        core.devices[i].task.running = false
        core.retractTaskExpiry(d)
        let duration = now - core.devices[i].task.launchedAt
        core.devices[i].ledger.chargeApp(joules: core.cohorts[Int(core.devices[i].cohort)].energy.cpuJoules(seconds: duration.seconds))
        let mAh = DeviceEnergyModel.milliampHours(joules: core.devices[i].ledger.end() ?? 0)
        featureTaskEnded(holder, i, duration: duration, mAh: mAh)
        // WorkManager: a task completed ran its Worker to `success()`; one never completed was killed.
        taskEnded(d, holder, core.devices[i].task.completions == 0 ? .killed : .returned(.success))
    }

    /// A task the refresh held ended after `duration`, costing `mAh`: its duration
    /// (`latency.refreshTaskDuration`) and energy (`battery.<cohort>.energyPerRefresh`),
    /// and seed `000`'s budget of under 1 % of the battery per refresh.
    mutating func refreshTaskEnded(_ i: Int, duration: SimDuration, mAh: Double) {
        features.refresh.metrics.taskDuration.record(duration.microseconds, at: now.microseconds)
        features.refresh.metrics.energy[Int(core.devices[i].cohort)].add(mAh)
        if mAh > core.cohorts[Int(core.devices[i].cohort)].capacityMah * 0.01 { features.refresh.overBudget[i] = true }
    }

    // MARK: - Deliver an input, execute its effects

    /// Hands one input to the device's logic and carries out its effects in order
    /// (``deliver(_:_:_:)``).
    /// A cohort without `refresh` has no refresh logic: it hears nothing.
    mutating func deliverRefresh(_ d: UInt32, _ input: RefreshInput) {
        guard core.cohorts[Int(core.devices[Int(d)].cohort)].runs(.refresh) else { return }
        deliver(RefreshHost<Logics>.self, d, input)
    }

    /// `setTaskCompleted`: the OS counts every call (the oracle's ground truth).
    mutating func completeTask(_ d: UInt32, success: Bool) {
        let i = Int(d)
        core.devices[i].task.completions &+= 1
        features.refresh.observeTaskCompleted(i, success: success, requestPending: taskRequestPending(d, .refresh), core: core)
        guard core.devices[i].task.running else { return }
        endTask(d)
        core.schedule(.suspendAfterTask(device: d, serial: core.devices[i].task.serial), after: core.suspensionDelay(i))
    }

    // MARK: - Notifications

    /// The test-available notification was shown (``World/postNotification(_:device:)``):
    /// ground truth for the oracle, and the latency from the test's availability.
    mutating func testNotificationShown(_ d: UInt32) {
        let i = Int(d)
        features.refresh.metrics.notificationsPosted += 1
        // Latency only for windows that opened during the run: before it, when the
        // app first heard of a window is unknown.
        let availableAt = features.refresh.truth.availableAt(i)
        features.refresh.observeTestNotificationShown(i, core: core)
        if features.refresh.testNotified(i, window: features.refresh.truth.window(i)), now >= availableAt, availableAt >= .zero {
            features.refresh.metrics.testAvailableToNotified.record((now - availableAt).microseconds, at: now.microseconds)
        }
        core.note(d, "OS: notification shown: test available")
    }
}

extension World {
    // MARK: - The users and the tests (Core/World+Lifecycle, through Features/Features.swift)

    /// The user opens the app, ground truth first: an available test is seen (the
    /// latency counted once per window, for windows that opened during the run), and
    /// may be taken (`usage.takeTestProbability`; it completes after `testDuration`).
    mutating func userSeesTest(_ d: UInt32) {
        let i = Int(d)
        let usage = core.cohorts[Int(core.devices[i].cohort)].usage
        if features.refresh.truth.isAvailable(i, at: now), !features.refresh.truth.inProgress(i, at: now) {
            if features.refresh.testSeen(i, window: features.refresh.truth.window(i)), features.refresh.truth.availableAt(i) >= .zero {
                features.refresh.metrics.testAvailableToSeen.record((now - features.refresh.truth.availableAt(i)).microseconds, at: now.microseconds)
            }
            if core.withStream(.user, of: i, { $0.chance(usage.takeTestProbability) }) {
                core.metrics.testsTaken += 1
                features.refresh.truth.start(i, at: now, duration: usage.testDuration)
                core.schedule(.feature(.refresh(.testCompleted(device: d))), after: usage.testDuration)
                core.note(d, "user starts the test")
            }
        }
    }

    /// The refresh's own event (Features/Features.swift).
    mutating func refreshEvent(_ event: RefreshEvent) {
        switch event {
        case .testCompleted(let d): userCompletesTest(d)
        }
    }

    /// The user finishes the test: the next window's clock starts.
    private mutating func userCompletesTest(_ d: UInt32) {
        features.refresh.truth.complete(Int(d), at: now)
        core.note(d) { c in "user completes the test; next window opens at \(c.format(features.refresh.truth.availableAt(Int(d))))" }
    }

    // MARK: - Its requests (Features/Features.swift)

    /// A refresh request's answer: its radio energy is the running operation's, and a
    /// running app's logic hears it (the oracle: the window a running task saw open).
    mutating func refreshReceives(_ job: UInt32, _ result: HTTPResult, radioJoules: Double) {
        let j = Int(job), d = core.jobs[j].device, i = Int(d)
        core.devices[i].ledger.chargeApp(joules: radioJoules)
        guard appHearsAnswer(job) else { return }
        if core.devices[i].task.running {
            switch result {
            case .ok(.testHistory):
                // Read before the call: an argument read from the core the call borrows
                // made Swift copy the whole core, retaining its arrays.
                let window = core.jobs[j].openWindow
                core.observeHistoryReceived(i, openWindow: window)
            case .status(401): core.observeRefreshUnauthorized(i)
            case .ok(.activeSession(inProgress: true, _)): core.observeTestInProgressAnswered(i)
            default: break
            }
        }
        deliverRefresh(d, .httpResponse(core.jobs[j].request, result))
    }
}

// MARK: - Its background work (OS/BackgroundWork.swift)

/// The refresh's background work (seed `000`), ``WorkID/refresh``: the app's background
/// task. iOS runs it as the app's `BGAppRefreshTask` (OS/iOS); Android as WorkManager
/// unique periodic work whose runs are the logic's `taskLaunched` (the real
/// ``RefreshLogic`` runs as the Worker): its `scheduleRefresh` effect enqueues the work
/// (KEEP: an enqueued request is kept), and JobScheduler's stop deadline (10 min, or less
/// when the bucket's quota runs out) replaces iOS's 30 s expiration.
extension World {
    /// Set-up (``World/featuresStart(_:)``): the app was in use before the run, so a task
    /// request is already pending, submitted sometime in the last preferred interval
    /// (drawn for every device, held or not: the OS stream's later draws follow it),
    /// under the identifier of `holder`, the work whose request it is (nil: none on this
    /// device).
    mutating func startAppTask(_ d: UInt32, holder: WorkID?) {
        let interval = features.refresh.logic.spec.preferredInterval.microseconds
        let earliest = SimTime(microseconds: core.withStream(.os, of: Int(d)) { $0.int(in: 0...max(0, interval - 1)) })
        let work = holder ?? .refresh
        osStart(d, task: work, featureWorkRequest(work), firstDue: holder == nil ? nil : earliest)
    }

    /// The work's request: the preferred interval the logic declares (seed `000`'s 4 h
    /// for the reference), no flex (`PeriodicWorkRequest.Builder(interval)`), a network
    /// constraint.
    var refreshWork: PeriodicWork {
        PeriodicWork(interval: SimDuration(microseconds: features.refresh.logic.spec.preferredInterval.microseconds), constraints: [.networkConnected])
    }

    /// The running task's deadline (``WorldEvent/taskExpires(device:serial:)``): the
    /// app's background task, whichever feature handles it.
    mutating func appTaskDeadline(_ d: UInt32, serial: UInt32) {
        taskDeadline(d, .refresh, serial: serial)
    }

    /// JobScheduler started the work's job (Android): the task launches, and its deadline
    /// is JobScheduler's stop.
    mutating func refreshRunsAsJob(_ d: UInt32, _ job: AndroidJobStart) {
        let i = Int(d)
        core.metrics.platform.androidLaunchesByBucket[job.bucket.rawValue] += 1
        beginAppTask(d, .refresh)
        core.devices[i].timerEntries.expiry = core.scheduleRetractably(.taskExpires(device: d, serial: core.devices[i].task.serial), at: job.stopsAt)
        core.note(d) { c in "WorkManager: refresh runs as job \(c.devices[i].task.serial) (bucket \(job.bucket), \(c.human(c.now - job.due)) after due); JobScheduler stops it at \(c.format(job.stopsAt))" }
        featuresHearTaskLaunched(d)
    }

    /// JobScheduler stopped the job at its deadline: `onStopped`, which the logic hears
    /// as its expiration; the task is over.
    mutating func refreshJobStopped(_ d: UInt32, serial: UInt32) {
        core.note(d, "JobScheduler: job \(serial) stopped at its deadline")
        deliverRefresh(d, .taskExpired)
        if core.devices[Int(d)].task.running { endTask(d) }
    }
}

extension AndroidTimer {
    /// WorkManager's look at the refresh work (Core/Prefetch and Core/LoadCause match it).
    static var refreshWork: AndroidTimer { .work(.refresh) }
}

extension World {
    /// Device `i`'s refresh state, its request in flight and the refresh oracle's truth
    /// (a launch, an open and a history response each read it).
    @inline(__always) mutating func prefetchRefresh(_ i: Int) {
        features.refresh.states.prefetch(i)
        features.refresh.slots.prefetch(i)
        core.oracle.refresh.prefetch(i)
    }
}

// MARK: - What it hears as a feature (Features/FeatureHooks.swift)

extension RefreshHost: FeatureHooks {
    @inline(__always) static func hearOpening(_ d: UInt32, in world: inout World<Logics>) { world.userSeesTest(d) }
    @inline(__always) static func hearAppOpened(_ d: UInt32, in world: inout World<Logics>) { world.deliverRefresh(d, .appOpened) }
    @inline(__always) static func persist(_ i: Int, in world: inout World<Logics>) { world.features.refresh.persist(i) }
    @inline(__always) static func prefetchOpening(_ i: Int, android a: Int, in world: inout World<Logics>) { world.prefetchRefresh(i) }
    static func report(into parts: inout ReportParts, world: borrowing World<Logics>) { world.features.refresh.report(into: &parts, core: world.core) }
}
