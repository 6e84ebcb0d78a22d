import SimKernel
import AppLogic
import Platform
import Scenario

extension World {
    // MARK: - BGTaskScheduler

    /// `BGTaskScheduler.submit`: replaces the pending request (one per identifier). On
    /// Android the same effect enqueues the WorkManager periodic work (World+Android).
    mutating func submitRefresh(_ d: UInt32, earliestBegin: SimTime) {
        let i = Int(d)
        if devices[i].android >= 0 { return enqueueRefreshWork(d, earliestBegin: earliestBegin) }
        let scheduler = cohorts[Int(devices[i].cohort)].scheduler
        switch scheduler.submit(backgroundAppRefresh: devices[i].backgroundAppRefresh) {
        case .unavailable:
            metrics.submitUnavailable += 1
            devices[i].task.hasPending = false
            devices[i].task.pending.cancel()
            note(d, "OS: submit failed: unavailable (Background App Refresh off)")
        case .accepted:
            let generation = devices[i].task.pending.arm()
            devices[i].task.hasPending = true
            devices[i].task.heldBack = false
            scheduleFirstLook(d, earliestBegin: earliestBegin, generation: generation)
        }
    }

    /// A look of the iOS launch policy at the pending request (``LaunchPolicyModel``).
    mutating func launchRefresh(_ d: UInt32, generation: UInt32) {
        let i = Int(d)
        guard devices[i].task.pending.isCurrent(generation), devices[i].task.hasPending else { return }
        let scheduler = cohorts[Int(devices[i].cohort)].scheduler
        if devices[i].task.running {
            // One task at a time: the system tries again a little later.
            clock.schedule(.refreshLaunch(device: d, generation: generation), after: .minutes(1))
            return
        }
        guard launchPolicyGrants(d, generation: generation) else { return }
        devices[i].task.hasPending = false
        let runTime = scheduler.runTimeBeforeExpiration(rng: &devices[i].osStream)
        beginRefreshTask(d)
        clock.schedule(.refreshExpires(device: d, serial: devices[i].task.serial), after: runTime)
        note(d, "OS: BGAppRefreshTask \(devices[i].task.serial) launched, expires in \(runTime)")
        deliverTaskLaunched(d)
    }

    /// The OS starts the app's refresh work (iOS task or Android job): ground truth for
    /// the oracle, and an energy operation opens.
    mutating func beginRefreshTask(_ d: UInt32) {
        let i = Int(d)
        devices[i].task.serial &+= 1
        devices[i].task.running = true
        devices[i].task.completions = 0
        devices[i].task.launchedAt = now
        devices[i].ledger.begin(.refresh)
        devices[i].taskSawOpenWindow = World.never
        devices[i].launches += 1
        metrics.launches += 1
        resume(d)
    }

    mutating func deliverTaskLaunched(_ d: UInt32) {
        let i = Int(d)
        let context = RefreshLaunchContext(
            signedIn: devices[i].signedIn,
            networkReachable: devices[i].online,
            notificationAuthorization: devices[i].permission,
            timeZoneIdentifier: timeZones[Int(devices[i].clock.timeZone)])
        deliver(d, .taskLaunched(context))
        // iOS: the sync shares the refresh launch; Android runs it as its own periodic work.
        if cohorts[Int(devices[i].cohort)].stepSync, devices[i].android < 0, devices[i].process == .running {
            let context = stepContext(i)
            deliverStep(d, .refreshTaskLaunched(context))
        }
    }

    mutating func expireRefresh(_ d: UInt32, serial: UInt32) {
        let i = Int(d)
        guard devices[i].task.serial == serial, devices[i].task.running else { return }
        if devices[i].android >= 0 { return stopRefreshJob(d) }
        metrics.expirations += 1
        if now - devices[i].task.launchedAt < cohorts[Int(devices[i].cohort)].scheduler.runLimit { metrics.earlyExpirations += 1 }
        note(d, "OS: task \(serial) expires; expiration handler runs")
        deliver(d, .taskExpired)
        if devices[i].task.running, devices[i].task.serial == serial {
            let grace = cohorts[Int(devices[i].cohort)].scheduler.watchdogGrace
            clock.schedule(.refreshWatchdog(device: d, serial: serial), after: grace)
        }
    }

    /// The task is over for the OS (completed or killed): account its time and energy.
    mutating func endTask(_ d: UInt32) {
        let i = Int(d)
        devices[i].task.running = false
        let duration = now - devices[i].task.launchedAt
        metrics.refreshTaskDuration.record(duration.microseconds)
        devices[i].ledger.chargeApp(joules: energy.cpuJoules(seconds: duration.seconds))
        let mAh = energy.milliampHours(joules: devices[i].ledger.end() ?? 0)
        metrics.refreshEnergy[Int(devices[i].cohort)].append(mAh)
        // Seed `000`'s budget: under 1 % of the battery per refresh.
        if mAh > devices[i].capacityMah * 0.01 { devices[i].refreshesOverBudget += 1 }
        if devices[i].android >= 0 { refreshJobEnded(d) }
    }

    // MARK: - Logic

    /// Hands one input to the device's logic and carries out its effects in order.
    mutating func deliver(_ d: UInt32, _ input: RefreshInput) {
        let i = Int(d)
        note(d, "logic <- \(input)")
        effects.removeAll(keepingCapacity: true)
        logic.handle(input, state: &devices[i].refresh, now: deviceTime(i, at: now), into: &effects)
        // Effects may trigger further inputs (scheduled as events), never re-entrantly.
        var k = 0
        while k < effects.count {
            let effect = effects[k]
            k += 1
            note(d, "logic -> \(effect)")
            execute(effect, device: d)
        }
    }

    private mutating func execute(_ effect: RefreshEffect, device d: UInt32) {
        let i = Int(d)
        switch effect {
        case .scheduleRefresh(let earliest):
            let earliestTrue = devices[i].clock.trueTime(ofWall: earliest.unixMicroseconds, startUnixSeconds: startUnixSeconds)
            submitRefresh(d, earliestBegin: earliestTrue)
        case .cancelScheduledRefresh:
            devices[i].task.hasPending = false
            devices[i].task.pending.cancel()
            if devices[i].android >= 0 { cancelRefreshWork(d) }
        case .httpRequest(let id, let endpoint):
            send(d, id, endpoint)
        case .cancelRequests:
            cancelInflight(d)
        case .startHardStopTimer(let after):
            let generation = devices[i].hardStop.arm()
            clock.schedule(.hardStopFires(device: d, generation: generation), after: SimDuration(microseconds: after.microseconds))
        case .cancelHardStopTimer:
            devices[i].hardStop.cancel()
        case .completeTask(let success):
            if success, devices[i].task.running, devices[i].task.completions == 0 { checkNotifiedIfDue(d) }
            completeTask(d)
        case .postNotification(let notification):
            post(notification, device: d)
        case .store, .storeTime:
            // The first unpersisted write starts the persistence delay; later ones ride along.
            let wasDirty = devices[i].keyValue.dirty
            devices[i].keyValue.dirty = true
            if !wasDirty, devices[i].process == .running { armFlush(d) }
        case .synchronize:
            persist(d, how: "synchronized")
        case .signOut:
            devices[i].signedIn = false
        case .analytics(let event):
            metrics.analytics[AnalyticsCounter.index(of: event)] += 1
        }
    }

    /// `setTaskCompleted`: the OS counts every call (the oracle's ground truth).
    private mutating func completeTask(_ d: UInt32) {
        let i = Int(d)
        devices[i].task.completions &+= 1
        let calls = devices[i].task.completions
        verify(calls == 1, .taskCompletedTwice, device: i, time: now,
                     detail: calls == 1 ? nil : "setTaskCompleted called \(calls) times for task \(devices[i].task.serial)")
        guard devices[i].task.running else { return }
        endTask(d)
        clock.schedule(.suspendAfterTask(device: d, serial: devices[i].task.serial), after: World.suspensionDelay)
    }

    /// `availableTestNotNotified`: judged when a task completes successfully, from the
    /// truth at the history response and now (the window is still open, no test in
    /// progress, no open in the last 24 h, notifications allowed, none shown yet).
    private mutating func checkNotifiedIfDue(_ d: UInt32) {
        let i = Int(d)
        let window = devices[i].taskSawOpenWindow
        guard window != World.never, truth.lastCompletedAt(i) == window, !truth.inProgress(i, at: now),
              devices[i].permission.allowsPosting else { return }
        let opened = devices[i].lastTrueOpen
        guard opened == World.never || now - opened >= scenario.logic.refresh.recentOpenSuppression else { return }
        let notified = devices[i].notifiedWindow == window
        verify(notified, .availableTestNotNotified, device: i, time: now,
                     detail: notified ? nil : "test available since \(format(truth.availableAt(i))) and this refresh saw it, but no notification")
    }

    // MARK: - Notifications

    private mutating func post(_ notification: LocalNotification, device d: UInt32) {
        let i = Int(d)
        guard devices[i].permission.allowsPosting else {
            metrics.notificationsSuppressed += 1
            note(d, "OS: notification not shown (permission \(devices[i].permission))")
            return
        }
        metrics.notificationsPosted += 1
        let availableAt = truth.availableAt(i)
        let window = truth.lastCompletedAt(i)
        verify(now >= availableAt, .notifiedBeforeAvailable, device: i, time: now,
                     detail: now >= availableAt ? nil : "notified at \(format(now)), test available only at \(format(availableAt))")
        if devices[i].notifiedWindow == window {
            devices[i].notificationsInWindow &+= 1
        } else {
            devices[i].notifiedWindow = window
            devices[i].notificationsInWindow = 1
            // Latency only for windows that opened during the run: before it, when the
            // app first heard of a window is unknown.
            if now >= availableAt, availableAt >= .zero { metrics.testAvailableToNotified.record((now - availableAt).microseconds) }
        }
        let inWindow = devices[i].notificationsInWindow
        verify(inWindow == 1, .notifiedTwiceInWindow, device: i, time: now,
                     detail: inWindow == 1 ? nil : "notification \(inWindow) for the window opened at \(format(availableAt))")
        let opened = devices[i].lastTrueOpen
        let openedRecently = opened != World.never && now - opened < scenario.logic.refresh.recentOpenSuppression
        verify(!openedRecently, .notifiedDespiteRecentOpen, device: i, time: now,
                     detail: openedRecently ? "app opened \(hours(now - opened)) before the notification" : nil)
        note(d, "OS: notification shown: test available")
        notificationDelivered(notification, device: d)
        if devices[i].android >= 0 { androidNotificationSeen(d) }
        let usage = cohorts[Int(devices[i].cohort)].usage
        if devices[i].userStream.chance(usage.notificationOpenProbability) {
            clock.schedule(.notificationTapped(device: d), after: usage.notificationOpenDelay.sampleDuration(&devices[i].userStream))
        }
    }
}

extension RefreshConfig {
    var configuration: RefreshConfiguration {
        var c = RefreshConfiguration()
        c.preferredInterval = Interval(microseconds: preferredInterval.microseconds)
        c.minimumInterval = Interval(microseconds: minimumInterval.microseconds)
        c.testCadence = Interval(microseconds: testCadence.microseconds)
        c.recentOpenSuppression = Interval(microseconds: recentOpenSuppression.microseconds)
        c.hardStop = Interval(microseconds: hardStop.microseconds)
        return c
    }
}

extension RefreshVariants {
    /// The `refresh.*` names of a scenario's `logic.variants`.
    init(names: [String]) {
        self = []
        for name in names {
            switch name {
            case "refresh.unguardedCompletion": insert(.unguardedCompletion)
            case "refresh.noSynchronize": insert(.noSynchronize)
            case "refresh.badgeOverwrite": insert(.badgeOverwrite)
            case "refresh.cadenceOffByOne": insert(.cadenceOffByOne)
            case "refresh.localCalendarDays": insert(.localCalendarDays)
            case "refresh.ignoresRecentOpen": insert(.ignoresRecentOpen)
            default: break
            }
        }
    }
}
