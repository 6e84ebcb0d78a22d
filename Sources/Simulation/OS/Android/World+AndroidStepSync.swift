import SimKernel
import AppLogic
import Platform

/// Seed `003`'s step sync on Android (issue 4: "Android through WorkManager periodic work
/// (about 2 h, network and battery-not-low constraints)"): the logic's
/// `schedulePeriodicWork(interval:constraints:)` enqueues a second unique periodic work
/// (KEEP), which runs as a JobScheduler job under the same gates as the refresh work
/// (Doze maintenance windows, the bucket's quota, Battery Saver) plus its constraints,
/// battery-not-low following ``BatteryLowMonitor`` (`docs/platform-facts.md` D, E). A run is
/// `periodicWorkRan`; the logic's `finishWork(success:)` is the Worker's result:
/// `Result.success()` starts the next period, `Result.retry()` WorkManager's backoff
/// (30 s doubling, 5 h cap). The health data (Google Fit / Health Connect) is the same
/// ground truth as HealthKit's.
extension World {
    /// Set-up: the app was in use before the run, so its step work is enqueued and last
    /// ran when the last sync happened (`lastSync`): the next run is due one interval later.
    mutating func startAndroidStepWork(_ d: UInt32, lastSync: SimTime) {
        let a = androidIndex(d)
        let interval = SimDuration(microseconds: stepSync.logic.config.syncInterval.microseconds)
        let constraints = Self.stepWorkConstraints([.networkConnected, .batteryNotLow])
        let m = models(d)
        var spec = WorkSpecState(enqueuedAt: lastSync)
        m.workManager.runFinished(m.workManager.periodicRequest(interval: interval, constraints: constraints), &spec, result: .success, now: lastSync)
        androids[a].stepWorkInterval = interval
        androids[a].stepWorkConstraints = constraints
        androids[a].steps = AndroidWorkSlot(spec: spec, enqueued: true)
        scheduleWorkCheck(d, .stepSync)
    }

    /// The logic's `schedulePeriodicWork`: `enqueueUniquePeriodicWork(KEEP, …)`, no flex,
    /// its first run one interval from now.
    mutating func enqueueStepWork(_ d: UInt32, interval: Interval, constraints: AppLogic.WorkConstraints) {
        let a = androidIndex(d)
        guard !androids[a].steps.enqueued else { return core.note(d, "WorkManager: periodic step-sync work already enqueued (KEEP)") }
        androids[a].stepWorkInterval = SimDuration(microseconds: interval.microseconds)
        androids[a].stepWorkConstraints = Self.stepWorkConstraints(constraints)
        androids[a].steps = AndroidWorkSlot(spec: WorkSpecState(enqueuedAt: now), enqueued: true)
        core.note(d, "WorkManager: periodic step-sync work enqueued")
        scheduleWorkCheck(d, .stepSync)
    }

    /// The logic's constraints as WorkManager takes them.
    static func stepWorkConstraints(_ constraints: AppLogic.WorkConstraints) -> Platform.WorkConstraints {
        Platform.WorkConstraints(network: constraints.contains(.networkConnected) ? .connected : .notRequired,
                                 requiresBatteryNotLow: constraints.contains(.batteryNotLow))
    }

    /// The job started: the process runs and the Worker hands the logic `periodicWorkRan`.
    mutating func startStepWorker(_ d: UInt32) {
        resume(d)
        let context = stepContext(Int(d))
        deliverStepSync(d, .periodicWorkRan(context))
    }

    /// The logic's `finishWork(success:)`: the Worker returns, the job ends, and the
    /// process is cached (suspended) shortly after unless something else holds it.
    mutating func stepWorkerFinished(_ d: UInt32, success: Bool) {
        guard androids[androidIndex(d)].stepJobRunning else { return }
        stepJobEnded(d, .returned(success ? .success : .retry))
        core.armTimer(d, .stepWake, after: World.suspensionDelay)
    }

    /// The step-sync job is over (finished, stopped at its deadline, or killed with the app).
    /// Its stop deadline, when still ahead, is taken out of the queue: the job's serial
    /// never comes back, so the entry could only pop as a no-op (most runs end within
    /// seconds of a deadline 10 or 30 minutes away). Only `simulated.events` moves.
    mutating func stepJobEnded(_ d: UInt32, _ end: WorkRunEnd) {
        let a = androidIndex(d), serial = androids[a].stepJobSerial
        androids[a].stepJobRunning = false
        _ = core.clock.queue.retract(stepJobStops[a]) { event in
            if case .android(.stepJobStops(d, serial)) = event { return true }
            return false
        }
        jobEnded(d, .stepSync, end)
    }
}
