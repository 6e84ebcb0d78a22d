import SimKernel
import AppLogic
import Platform
import Reports

/// The world's side of the step-sync host (Features/StepSync/StepSyncHost): the entry
/// points that deliver its inputs (an open: Core/World+Lifecycle; a task launch:
/// Features/Features.swift; a WorkManager run: its background work, below; a HealthKit
/// delivery and its timers here), and what the process and the OS do around them.
extension World {
    // MARK: - Set-up

    /// A device whose cohort has `stepSync`: the host's state and the sync before the
    /// run, then the OS's triggers (the stale-sync notification's, HealthKit deliveries
    /// or WorkManager's periodic work).
    mutating func startStepSync(_ d: UInt32) {
        let started = features.stepSync.start(d, core: &core)
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
        features.stepSync.healthDeliveryWakes(d, core: &core)
        backgroundLaunch(d)
        let generation = core.newGeneration(d, .stepWake)
        let context = stepContext(i)
        deliverStepSync(d, .healthDataDelivered(context))
        // Work still under way (no `finishWork` yet): its budget ends it at the latest.
        if core.isCurrent(d, .stepWake, generation) {
            core.scheduleTimer(d, .stepWake, generation: generation, at: now + HealthKitDelivery.budget)
        }
        features.stepSync.scheduleHealthDelivery(d, core: &core)
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
        // Android: a while-idle alarm, which deep Doze may hold (AndroidHost+WhileIdleAlarm).
        guard staleNotificationMayFire(d) else { return }
        features.stepSync.postStaleNotification(d, core: &core)
    }

    /// A HealthKit wake's background time is over (work finished, or its budget spent;
    /// ``DeviceTimer/stepWake``): it holds the process no longer, which is suspended if
    /// nothing else holds it (``World/mayBeSuspended(_:)``).
    mutating func stepWakeEnds(_ d: UInt32) {
        features.stepSync.wakeEnded(Int(d))
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
        deliver(StepSyncHost<Logics>.self, d, input)
        if taskHolder(Int(d)) == .stepSync { completeStepSyncTaskIfDone(d) }
    }

    // MARK: - The app's background task, where the step sync holds it (iOS)

    /// The task launched: the next one is asked for a sync interval from now.
    mutating func stepSyncTaskLaunched(_ d: UInt32) {
        submitTask(d, .stepSync, stepSyncWork, earliestBegin: now + SimDuration(microseconds: features.stepSync.logic.spec.syncInterval.microseconds))
    }

    /// `setTaskCompleted(success: true)` once the sync has nothing in flight.
    private mutating func completeStepSyncTaskIfDone(_ d: UInt32) {
        let i = Int(d)
        guard core.devices[i].task.running, features.stepSync.slots[i].job < 0 else { return }
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
        features.stepSync.uploadEnded(Int(d), job: job, radioJoules: radioJoules, seconds: (now - core.jobs[j].sentAt).seconds, core: &core)
        guard appHearsAnswer(job) else { return }
        deliverStepSync(d, .httpResponse(core.jobs[j].request, result))
    }

    // MARK: - Process lifecycle

    /// The user opened the app (Features/Features.swift).
    mutating func stepSyncOnOpen(_ d: UInt32) {
        let i = Int(d)
        guard core.cohorts[Int(core.devices[i].cohort)].runs(.stepSync) else { return }
        let context = stepContext(i)
        deliverStepSync(d, .appOpened(context))
        features.stepSync.observeOpenDelivered(i, core: core)
    }

    /// iOS freezes the app: an upload in flight will not be answered; the logic hears
    /// it failed (**assumption**: as URLSession reports a default-session task of a
    /// suspended app, a lost connection).
    mutating func failStepUploadOnSuspension(_ d: UInt32) {
        guard let request = features.stepSync.abandonUpload(d, core: &core) else { return }
        features.stepSync.metrics.uploadsCutBySuspension += 1
        deliverStepSync(d, .httpResponse(request, .failed(.connectionLost)))
    }

    /// Termination: the sync in flight and its timers die with the process; the state
    /// comes back from what reached the disk.
    mutating func terminateStepSync(_ d: UInt32) {
        features.stepSync.terminate(d, core: &core)
        workKilled(d, .stepSync)
        _ = features.stepSync.abandonUpload(d, core: &core)
    }
}

// MARK: - Its background work (OS/BackgroundWork.swift)

/// The step sync's background work (seed `003`: "Android through WorkManager
/// periodic work (about 2 h, network and battery-not-low constraints)";
/// iOS: "Background App Refresh + HealthKit Background Delivery"), ``WorkID/stepSync``. On Android the
/// logic's `schedulePeriodicWork(interval:constraints:)` enqueues it as unique periodic
/// work (KEEP), run as a JobScheduler job under the same gates as every work (Doze
/// maintenance windows, the bucket's quota, Battery Saver) plus its constraints; a run is
/// the Worker's `periodicWorkRan`, and the logic's `finishWork(success:)` its `Result`:
/// `success()` starts the next period, `retry()` WorkManager's backoff (30 s doubling,
/// 5 h cap). iOS has no periodic work: the sync rides the app's task launch and
/// HealthKit's deliveries (World+StepSync).
extension World {
    /// The work the app enqueued before the run: the logic's sync interval, network and
    /// battery-not-low.
    var stepSyncWork: PeriodicWork {
        PeriodicWork(interval: SimDuration(microseconds: features.stepSync.logic.spec.syncInterval.microseconds),
                     constraints: [.networkConnected, .batteryNotLow])
    }

    /// Set-up: the app was in use before the run, so its work is enqueued and last ran
    /// when the last sync happened (`lastSync`), and HealthKit delivers in the background.
    mutating func startStepSyncWork(_ d: UInt32, lastSync: SimTime) {
        startPeriodicWork(d, .stepSync, stepSyncWork, lastRun: lastSync)
        if healthStoreDelivers(Int(d)) { features.stepSync.scheduleHealthDelivery(d, core: &core) }
    }

    /// JobScheduler started the work's job (Android): a Worker of its own, with its own
    /// stop deadline; the process runs and the logic hears `periodicWorkRan`.
    mutating func stepSyncRunsAsJob(_ d: UInt32, _ job: AndroidJobStart) {
        features.stepSync.metrics.jobs += 1
        let serial = runWorker(d, .stepSync, job)
        core.note(d) { c in "WorkManager: step sync runs as job \(serial) (bucket \(job.bucket), \(c.human(c.now - job.due)) after due); JobScheduler stops it at \(c.format(job.stopsAt))" }
        backgroundLaunch(d)
        let context = stepContext(Int(d))
        deliverStepSync(d, .periodicWorkRan(context))
    }

    /// JobScheduler stopped the job at its deadline. The logic is not told (it learns
    /// nothing of `onStopped`); its upload in flight goes on.
    mutating func stepSyncJobStopped(_ d: UInt32, serial: UInt32) {
        core.note(d, "JobScheduler: step-sync job \(serial) stopped at its deadline")
    }

    /// The logic's `finishWork(success:)` ended the run (the Worker returned and its job
    /// ended on Android, HealthKit's completion handler was called on iOS): the process
    /// is cached or suspended after ``WorldCore/suspensionDelay(_:)`` unless something else holds it.
    mutating func stepWorkFinished(_ d: UInt32) {
        features.stepSync.wakeEnded(Int(d))
        core.armTimer(d, .stepWake, after: core.suspensionDelay(Int(d)))
    }
}

extension AndroidTimer {
    /// WorkManager's look at the step sync's work (Core/Prefetch and Core/LoadCause match it).
    static var stepWork: AndroidTimer { .work(.stepSync) }
}

extension World {
    /// Device `i`'s step-sync state, bookkeeping and stream position, its stale-sync
    /// notification's trigger, which every successful sync re-arms (Core/DeferredTimer),
    /// and on Android where its step job's stop deadline went, which a job's start writes
    /// and its end reads.
    @inline(__always) mutating func prefetchStepSync(_ i: Int, android a: Int) {
        features.stepSync.states.prefetch(i)
        features.stepSync.slots.prefetch(i)
        features.stepSync.streams.prefetch(i)
        core.staleTriggers.prefetch(i)
        if a >= 0 { android.workEntries.prefetch(a) }
    }
}

// MARK: - What it hears as a feature (Features/FeatureHooks.swift)

extension StepSyncHost: FeatureHooks {
    @inline(__always) static func hearAppOpened(_ d: UInt32, in world: inout World<Logics>) { world.stepSyncOnOpen(d) }
    @inline(__always) static func hearSuspended(_ d: UInt32, in world: inout World<Logics>) { world.failStepUploadOnSuspension(d) }
    @inline(__always) static func persist(_ i: Int, in world: inout World<Logics>) { world.features.stepSync.persist(i) }
    @inline(__always) static func prefetchOpening(_ i: Int, android a: Int, in world: inout World<Logics>) { world.prefetchStepSync(i, android: a) }
    @inline(__always) static func holdsProcess(_ i: Int, in world: borrowing World<Logics>) -> Bool { world.features.stepSync.wakeHolds(i) }
    @inline(__always) static func wakeups(_ i: Int, in world: borrowing World<Logics>) -> UInt32 { world.features.stepSync.slots[i].healthWakes }
    static func report(into parts: inout ReportParts, world: borrowing World<Logics>) { world.features.stepSync.report(into: &parts) }
}
