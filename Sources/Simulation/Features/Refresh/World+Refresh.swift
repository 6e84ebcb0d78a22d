import SimKernel
import AppLogic
import Platform
import Scenario

extension World {
    /// The OS starts the app's refresh work (iOS task or Android job): ground truth for
    /// the oracle, and an energy operation opens.
    mutating func beginRefreshTask(_ d: UInt32) {
        let i = Int(d)
        core.devices[i].task.serial &+= 1
        core.devices[i].task.running = true
        core.devices[i].task.completions = 0
        core.devices[i].task.launchedAt = now
        core.devices[i].ledger.begin(.refresh)
        observeTaskLaunched(i)
        core.devices[i].launches += 1
        core.metrics.launches += 1
        resume(d)
    }

    mutating func deliverTaskLaunched(_ d: UInt32) {
        let i = Int(d)
        let context = RefreshLaunchContext(
            signedIn: core.devices[i].signedIn,
            networkReachable: core.devices[i].online,
            notificationAuthorization: core.devices[i].permission,
            timeZoneIdentifier: core.timeZones[Int(core.devices[i].clock.timeZone)])
        deliverRefresh(d, .taskLaunched(context))
        if stepSyncOwnsRefreshTask(i) { stepSyncTaskLaunched(d) }
        // iOS: the sync shares the refresh launch; Android runs it as its own periodic work.
        if core.cohorts[Int(core.devices[i].cohort)].stepSync, stepSyncRidesRefreshLaunch(i), core.devices[i].process == .running {
            let context = stepContext(i)
            deliverStepSync(d, .refreshTaskLaunched(context))
        }
    }

    /// The task is over for the OS (completed or killed): account its time and energy.
    mutating func endTask(_ d: UInt32) {
        let i = Int(d)
        core.devices[i].task.running = false
        core.retractTaskExpiry(d)
        let duration = now - core.devices[i].task.launchedAt
        core.metrics.refreshTaskDuration.record(duration.microseconds)
        core.devices[i].ledger.chargeApp(joules: energy.cpuJoules(seconds: duration.seconds))
        let mAh = energy.milliampHours(joules: core.devices[i].ledger.end() ?? 0)
        core.metrics.refreshEnergy[Int(core.devices[i].cohort)].add(mAh)
        // Seed `000`'s budget: under 1 % of the battery per refresh.
        if mAh > core.cohorts[Int(core.devices[i].cohort)].capacityMah * 0.01 { core.devices[i].refreshOverBudget = true }
        refreshTaskEnded(d)
    }

    // MARK: - Deliver an input, execute its effects

    /// Hands one input to the device's logic and carries out its effects in order
    /// (``deliver(_:_:_:)``).
    /// A cohort without `refresh` has no refresh logic: it hears nothing.
    mutating func deliverRefresh(_ d: UInt32, _ input: RefreshInput) {
        guard core.cohorts[Int(core.devices[Int(d)].cohort)].runsRefresh else { return }
        deliver(RefreshHost.self, d, input)
    }

    /// `setTaskCompleted`: the OS counts every call (the oracle's ground truth).
    mutating func completeTask(_ d: UInt32, success: Bool) {
        let i = Int(d)
        core.devices[i].task.completions &+= 1
        observeTaskCompleted(i, success: success)
        guard core.devices[i].task.running else { return }
        endTask(d)
        core.clock.schedule(.suspendAfterTask(device: d, serial: core.devices[i].task.serial), after: World.suspensionDelay)
    }

    // MARK: - Notifications

    /// The test-available notification, unless the permission suppresses it: ground
    /// truth for the oracle, the notification centre, and maybe the user's tap.
    mutating func postTestNotification(_ notification: LocalNotification, device d: UInt32) {
        let i = Int(d)
        guard core.devices[i].permission.allowsPosting else {
            core.metrics.notificationsSuppressed += 1
            core.note(d, "OS: notification not shown (permission \(core.devices[i].permission))")
            return
        }
        core.metrics.notificationsPosted += 1
        // Latency only for windows that opened during the run: before it, when the
        // app first heard of a window is unknown.
        let availableAt = refresh.truth.availableAt(i)
        observeTestNotificationShown(i)
        if refresh.testNotified(i, window: refresh.truth.window(i)), now >= availableAt, availableAt >= .zero {
            core.metrics.testAvailableToNotified.record((now - availableAt).microseconds)
        }
        core.note(d, "OS: notification shown: test available")
        badge.notificationDelivered(notification, device: d, core: &core)
        notificationShown(d)
        let usage = core.cohorts[Int(core.devices[i].cohort)].usage
        if let delay = core.withStream(.user, of: i, { $0.chance(usage.notificationOpenProbability) ? usage.notificationOpenDelay.sampleDuration(&$0) : nil }) {
            core.clock.schedule(.notificationTapped(device: d), after: delay)
        }
    }
}

extension World {
    // MARK: - The users and the tests (Core/World+Users, through Features/Features.swift)

    /// The user opens the app, ground truth first: an available test is seen (the
    /// latency counted once per window, for windows that opened during the run), and
    /// may be taken (`usage.takeTestProbability`; it completes after `testDuration`).
    mutating func userSeesTest(_ d: UInt32) {
        let i = Int(d)
        let usage = core.cohorts[Int(core.devices[i].cohort)].usage
        if refresh.truth.isAvailable(i, at: now), !refresh.truth.inProgress(i, at: now) {
            if refresh.testSeen(i, window: refresh.truth.window(i)), refresh.truth.availableAt(i) >= .zero {
                core.metrics.testAvailableToSeen.record((now - refresh.truth.availableAt(i)).microseconds)
            }
            if core.withStream(.user, of: i, { $0.chance(usage.takeTestProbability) }) {
                core.metrics.testsTaken += 1
                refresh.truth.start(i, at: now, duration: usage.testDuration)
                core.clock.schedule(.feature(.refresh(.testCompleted(device: d))), after: usage.testDuration)
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
        refresh.truth.complete(Int(d), at: now)
        core.note(d, "user completes the test; next window opens at \(core.format(refresh.truth.availableAt(Int(d))))")
    }

    // MARK: - Its requests (Features/Features.swift)

    /// A refresh request's answer: its radio energy is the running operation's, and a
    /// running app's logic hears it (the oracle: the window a running task saw open).
    mutating func refreshReceives(_ job: UInt32, _ result: HTTPResult, radioJoules: Double) {
        let j = Int(job), d = core.jobs[j].device, i = Int(d)
        core.devices[i].ledger.chargeApp(joules: radioJoules)
        guard appHearsAnswer(job) else { return }
        if case .ok(.testHistory) = result, core.devices[i].task.running { observeHistoryReceived(i, openWindow: core.jobs[j].openWindow) }
        deliverRefresh(d, .httpResponse(core.jobs[j].request, result))
    }
}
