import SimKernel
import AppLogic
import Platform

/// The step sync's background work (seed `003`, issue 4: "Android through WorkManager
/// periodic work (about 2 h, network and battery-not-low constraints)"; iOS: "Background
/// App Refresh + HealthKit Background Delivery"), ``WorkID/stepSync``. On Android the
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
        PeriodicWork(interval: SimDuration(microseconds: stepSync.logic.config.syncInterval.microseconds),
                     constraints: [.networkConnected, .batteryNotLow])
    }

    /// Set-up: the app was in use before the run, so its work is enqueued and last ran
    /// when the last sync happened (`lastSync`), and HealthKit delivers in the background.
    mutating func startStepSyncWork(_ d: UInt32, lastSync: SimTime) {
        startPeriodicWork(d, .stepSync, stepSyncWork, lastRun: lastSync)
        if healthStoreDelivers(Int(d)) { stepSync.scheduleHealthDelivery(d, core: &core) }
    }

    /// The logic's `schedulePeriodicWork`.
    mutating func schedulePeriodicStepWork(_ d: UInt32, interval: Interval, constraints: AppLogic.WorkConstraints) {
        enqueuePeriodicWork(d, .stepSync, PeriodicWork(interval: SimDuration(microseconds: interval.microseconds), constraints: constraints))
    }

    /// JobScheduler started the work's job (Android): a Worker of its own, with its own
    /// stop deadline; the process runs and the logic hears `periodicWorkRan`.
    mutating func stepSyncRunsAsJob(_ d: UInt32, _ job: AndroidJobStart) {
        core.metrics.platform.stepSyncJobs += 1
        let serial = runWorker(d, .stepSync, job)
        core.note(d, "WorkManager: step sync runs as job \(serial) (bucket \(job.bucket), \(core.human(now - job.due)) after due); JobScheduler stops it at \(core.format(job.stopsAt))")
        resume(d)
        let context = stepContext(Int(d))
        deliverStepSync(d, .periodicWorkRan(context))
    }

    /// JobScheduler stopped the job at its deadline. The logic is not told (it learns
    /// nothing of `onStopped`); its upload in flight goes on.
    mutating func stepSyncJobStopped(_ d: UInt32, serial: UInt32) {
        core.note(d, "JobScheduler: step-sync job \(serial) stopped at its deadline")
    }

    /// The logic's `finishWork(success:)`: the Worker returns and its job ends (Android),
    /// or HealthKit's completion handler is called (iOS); the process is cached
    /// (suspended) shortly after unless something else holds it.
    mutating func stepWorkFinished(_ d: UInt32, success: Bool) {
        guard workFinished(d, .stepSync, success: success) else { return }
        core.armTimer(d, .stepWake, after: World.suspensionDelay)
    }
}

extension AndroidTimer {
    /// WorkManager's look at the step sync's work (Core/World+Prefetch and Core/LoadCause match it).
    static var stepWork: AndroidTimer { .work(.stepSync) }
}
