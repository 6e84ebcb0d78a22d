import SimKernel
import AppLogic
import Platform

/// The refresh's background work (seed `000`), ``WorkID/refresh``: the app's background
/// task. iOS runs it as the app's `BGAppRefreshTask` (OS/iOS); Android as WorkManager
/// unique periodic work whose runs are the logic's `taskLaunched` (the real
/// ``RefreshLogic`` runs as the Worker): its `scheduleRefresh` effect enqueues the work
/// (KEEP: an enqueued request is kept), and JobScheduler's stop deadline (10 min, or less
/// when the bucket's quota runs out) replaces iOS's 30 s expiration.
extension World {
    /// The work's request: seed `000`'s preferred interval (4 h), no flex
    /// (`PeriodicWorkRequest.Builder(interval)`), a network constraint.
    var refreshWork: PeriodicWork {
        PeriodicWork(interval: scenario.logic.refresh.preferredInterval, constraints: [.networkConnected])
    }

    /// The logic's `scheduleRefresh` (``HostRequest/submitRefresh(earliestBegin:)``).
    mutating func submitRefresh(_ d: UInt32, earliestBegin: SimTime) {
        submitTask(d, .refresh, refreshWork, earliestBegin: earliestBegin)
    }

    /// The logic's `cancelScheduledRefresh` (``HostRequest/cancelRefresh``).
    mutating func cancelRefresh(_ d: UInt32) { cancelTask(d, .refresh) }

    /// The running task's deadline (``WorldEvent/refreshExpires(device:serial:)``): the task
    /// is the refresh work's, or on iOS the step sync's where it owns the task.
    mutating func refreshDeadline(_ d: UInt32, serial: UInt32) {
        taskDeadline(d, .refresh, serial: serial)
    }

    /// JobScheduler started the work's job (Android): the task launches, and its deadline
    /// is JobScheduler's stop.
    mutating func refreshRunsAsJob(_ d: UInt32, _ job: AndroidJobStart) {
        let i = Int(d)
        core.metrics.platform.androidLaunchesByBucket[job.bucket.rawValue] += 1
        beginRefreshTask(d)
        core.devices[i].timerEntries.expiry = core.clock.scheduleRetractably(.refreshExpires(device: d, serial: core.devices[i].task.serial), at: job.stopsAt)
        core.note(d, "WorkManager: refresh runs as job \(core.devices[i].task.serial) (bucket \(job.bucket), \(core.human(now - job.due)) after due); JobScheduler stops it at \(core.format(job.stopsAt))")
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
    /// WorkManager's look at the refresh work (Core/World+Prefetch and Core/LoadCause match it).
    static var refreshWork: AndroidTimer { .work(.refresh) }
}
