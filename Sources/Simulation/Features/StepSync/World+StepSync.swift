import SimKernel
import AppLogic
import Platform

/// The world's side of the step-sync host (Features/StepSync/StepSyncHost): the entry
/// points that deliver its inputs (an open: Core/World+Users; a task launch:
/// Features/Features.swift; a WorkManager run: World+StepSyncWork; a HealthKit
/// delivery and its timers here), and what the process and the OS do around them.
extension World {
    // MARK: - Set-up

    /// A device whose cohort has `stepSync`: the host's state and the sync before the
    /// run, then the OS's triggers (the stale-sync notification's, HealthKit deliveries
    /// or WorkManager's periodic work).
    mutating func startStepSync(_ d: UInt32) {
        let started = stepSync.start(d, core: &core)
        carryOut(started.staleNotification, device: d)
        startStepSyncWork(d, lastSync: started.lastSync)
    }

    // MARK: - Events

    mutating func stepSyncEvent(_ event: StepSyncEvent) {
        switch event {
        case .healthDelivery(let d): healthDelivery(d)
        }
    }

    /// HealthKit background delivery wakes the app (iOS): the logic gets the wake's
    /// budget (``HealthKitDelivery/budget``) unless it finishes at once.
    private mutating func healthDelivery(_ d: UInt32) {
        let i = Int(d)
        stepSync.healthDeliveryWakes(d, core: &core)
        resume(d)
        let generation = core.newGeneration(d, .stepWake)
        let context = stepContext(i)
        deliverStepSync(d, .healthDataDelivered(context))
        // Work still under way (no `finishWork` yet): its budget ends it at the latest.
        if core.isCurrent(d, .stepWake, generation) {
            core.scheduleTimer(d, .stepWake, generation: generation, at: now + HealthKitDelivery.budget)
        }
        stepSync.scheduleHealthDelivery(d, core: &core)
    }

    /// The retry timer fires (``DeviceTimer/stepRetry``).
    mutating func stepRetryTimerFires(_ d: UInt32) {
        // A suspended app's timers do not run, and a terminated app's are gone:
        // the next trigger syncs instead (seed `003`: "wait for next scheduled sync").
        guard core.devices[Int(d)].process == .running else {
            core.note(d, "retry timer due but the app is not running")
            return
        }
        let context = stepContext(Int(d))
        deliverStepSync(d, .retryTimerFired(context))
    }

    /// The scheduled "not synced for 24 h" notification's trigger (``DeviceTimer/staleNotification``).
    mutating func staleNotificationFires(_ d: UInt32) {
        // Android: a while-idle alarm, which deep Doze may hold (World+WhileIdleAlarm).
        guard staleNotificationMayFire(d) else { return }
        stepSync.postStaleNotification(d, core: &core)
    }

    /// A HealthKit wake's background time is over (work finished, or its budget spent;
    /// ``DeviceTimer/stepWake``).
    mutating func stepWakeEnds(_ d: UInt32) {
        let i = Int(d)
        guard core.devices[i].process == .running, core.now >= core.devices[i].foregroundUntil,
              !core.devices[i].task.running, !workHoldsProcess(i) else { return }
        suspend(d)
    }

    // MARK: - Logic

    /// What the step sync reads of the device. Callers build it into a local before
    /// `deliverStepSync`: read inside the argument list of a mutating call, it made Swift
    /// copy the whole `World` (3.3 KB and a retain of each of its arrays) per delivery.
    @inline(__always) func stepContext(_ i: Int) -> StepSyncContext {
        StepSyncContext(
            healthTrackingEnabled: true,
            signedIn: core.devices[i].signedIn,
            networkReachable: core.devices[i].online,
            batteryPercent: Int(core.cohorts[Int(core.devices[i].cohort)].battery.percent(core.devices[i].battery, at: core.now).rounded(.down)),
            charging: core.devices[i].battery.charging,
            lowPowerMode: core.devices[i].lowPowerMode,
            zone: core.calendars[Int(core.devices[i].clock.timeZone)],
            source: healthSource(i))
    }

    /// Hands one input to the device's step sync and carries out its effects in order
    /// (``deliver(_:_:_:)``); a health-data read is answered at once, as the next input.
    mutating func deliverStepSync(_ d: UInt32, _ input: StepSyncInput) {
        deliver(StepSyncHost.self, d, input)
        if stepSyncOwnsRefreshTask(Int(d)) { completeStepSyncTaskIfDone(d) }
    }

    // MARK: - The step sync's own BGAppRefreshTask (iOS, no refresh feature)

    /// An iOS cohort with `stepSync` but not `refresh`: the app's `BGAppRefreshTask`
    /// handler is the step sync's (seed `003`: "Background App Refresh + HealthKit
    /// Background Delivery"). The adapter submits the next request for the sync interval
    /// when the task starts and completes the task once no upload is in flight.
    func stepSyncOwnsRefreshTask(_ i: Int) -> Bool {
        let cohort = core.cohorts[Int(core.devices[i].cohort)]
        return cohort.stepSync && !cohort.runsRefresh && !runsPeriodicWork(i)
    }

    /// The task launched: the next one is asked for a sync interval from now.
    mutating func stepSyncTaskLaunched(_ d: UInt32) {
        submitTask(d, .stepSync, stepSyncWork, earliestBegin: now + scenario.logic.stepSync.syncInterval)
    }

    /// `setTaskCompleted(success: true)` once the sync has nothing in flight.
    private mutating func completeStepSyncTaskIfDone(_ d: UInt32) {
        let i = Int(d)
        guard core.devices[i].task.running, stepSync.slots[i].job < 0 else { return }
        completeTask(d, success: true)
    }

    /// The task expired with an upload in flight: the handler gives up on it and completes.
    mutating func stepSyncTaskExpired(_ d: UInt32) {
        guard core.devices[Int(d)].task.running else { return }
        completeTask(d, success: false)
    }

    // MARK: - Its requests (Features/Features.swift)

    /// A step upload's answer: the host accounts the upload (its energy its own, not the
    /// running operation's), and a running app's logic hears it.
    mutating func stepSyncReceives(_ job: UInt32, _ result: HTTPResult, radioJoules: Double) {
        let j = Int(job), d = core.jobs[j].device
        stepSync.uploadEnded(Int(d), job: job, radioJoules: radioJoules, seconds: (now - core.jobs[j].sentAt).seconds, energy: energy, core: &core)
        guard appHearsAnswer(job) else { return }
        deliverStepSync(d, .httpResponse(core.jobs[j].request, result))
    }

    // MARK: - Process lifecycle

    /// The user opened the app (Features/Features.swift).
    mutating func stepSyncOnOpen(_ d: UInt32) {
        let i = Int(d)
        guard core.cohorts[Int(core.devices[i].cohort)].stepSync else { return }
        let context = stepContext(i)
        deliverStepSync(d, .appOpened(context))
    }

    /// iOS freezes the app: an upload in flight will not be answered; the logic hears
    /// it failed (**assumption**: as URLSession reports a default-session task of a
    /// suspended app, a lost connection).
    mutating func failStepUploadOnSuspension(_ d: UInt32) {
        guard let request = stepSync.abandonUpload(d, core: &core) else { return }
        deliverStepSync(d, .httpResponse(request, .failed(.connectionLost)))
    }

    /// Termination: the sync in flight and its timers die with the process; the state
    /// comes back from what reached the disk.
    mutating func terminateStepSync(_ d: UInt32) {
        stepSync.terminate(d, core: &core)
        workKilled(d, .stepSync)
        _ = stepSync.abandonUpload(d, core: &core)
    }
}
