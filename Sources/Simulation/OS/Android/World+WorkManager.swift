import SimKernel
import AppLogic
import Platform

/// How a work's run ended, for WorkManager's next run time.
enum WorkRunEnd {
    /// The Worker returned this `Result`.
    case returned(WorkResult)
    /// JobScheduler stopped the job (its run-time limit or the bucket's quota at the stop
    /// deadline): ``WorkManagerModel/runStoppedBySystem(_:)``, due again from the original
    /// enqueue time (androidx `WorkerWrapper.resetWorkerStatus`).
    case stoppedBySystem
    /// The process died with the job running (an OEM force-stop, a termination).
    /// **Assumption**: retried with backoff from now, as WorkManager counts the attempt at
    /// its start.
    case killed

    /// For the trace: `success`, `retry`, `failure`, `stopped by the system`, `killed`.
    var traceName: String {
        switch self {
        case .returned(let result): "\(result)"
        case .stoppedBySystem: "stopped by the system"
        case .killed: "killed"
        }
    }
}

/// WorkManager periodic work run as JobScheduler jobs (docs/platform-facts.md section D):
/// enqueue (KEEP), the gates (Doze, the bucket's quota, Battery Saver, constraints),
/// the run, its stop deadline and the retry backoff.
extension World {
    /// `enqueueUniquePeriodicWork(KEEP, …)` with the logic's `earliestBegin` as the first
    /// run (its initial delay).
    mutating func enqueueRefreshWork(_ d: UInt32, earliestBegin: SimTime) {
        let a = androidIndex(d)
        guard !androids[a].refresh.enqueued else {
            core.note(d, "WorkManager: periodic refresh work already enqueued (KEEP)")
            return
        }
        androids[a].refresh.enqueued = true
        androids[a].refresh.spec = WorkSpecState(enqueuedAt: max(earliestBegin, now))
        core.note(d, "WorkManager: periodic refresh work enqueued, first run from \(core.format(max(earliestBegin, now)))")
        scheduleWorkCheck(d, .refresh)
    }

    mutating func cancelRefreshWork(_ d: UInt32) {
        let a = androidIndex(d)
        androids[a].refresh.enqueued = false
        androids[a].refresh.deferredSince = nil
        androids[a].timers.cancel(.refreshWork)
        core.note(d, "WorkManager: periodic refresh work cancelled")
    }

    /// The request a work was enqueued with.
    @inline(__always) func request(_ m: AndroidModels, _ a: Int, _ work: AndroidWork) -> WorkRequest? {
        work == .refresh ? m.refreshWork : Self.stepRequest(m, androids[a].stepWorkInterval, androids[a].stepWorkConstraints)
    }

    /// The step sync's request, rebuilt from what the logic asked for; nil when its work
    /// was never enqueued (``AndroidDevice/stepWorkInterval``). The `PeriodicWorkRequest`
    /// the logic asks for: `PeriodicWorkRequest.Builder(interval)` with no flex, so
    /// `WorkSpec.setPeriodic(interval)` makes it unflexed with both at least 15 min
    /// (androidx `work/work-runtime/src/main/java/androidx/work/impl/model/WorkSpec.kt`).
    @inline(__always) static func stepRequest(_ m: AndroidModels, _ interval: SimDuration, _ constraints: Platform.WorkConstraints) -> WorkRequest? {
        guard interval.microseconds != .min else { return nil }
        return m.workManager.periodicRequest(interval: interval, constraints: constraints)
    }

    /// A copy of one work's slot (plain values: no retain).
    @inline(__always) func slot(_ a: Int, _ work: AndroidWork) -> AndroidWorkSlot {
        work == .refresh ? androids[a].refresh : androids[a].steps
    }

    /// When the work is next due, if it is enqueued and not running; nil otherwise (what
    /// ``tryRunWork(_:_:)`` and ``dozeWatched(_:_:)`` ask first, several times per Doze
    /// input, mostly to find it not due yet). Inlined whole,
    /// ``WorkManagerModel/nextRunTime(_:_:)`` included, and read in place: the device's
    /// fields in the arrays' storage (a getter copies the whole `Device` or
    /// `AndroidDevice` first, as their timer tables keep the optimiser from projecting one
    /// field) and the cohort's models without a retain.
    @inline(__always) mutating func workDueAt(_ d: UInt32, _ a: Int, _ work: AndroidWork) -> SimTime? {
        let i = Int(d)
        let refreshRunning = core.devices.withUnsafeBufferPointer { $0[i].task.running }
        return borrowedModels(d)._withUnsafeGuaranteedRef { m in
            androids.withUnsafeBufferPointer { p -> SimTime? in
                if work == .refresh {
                    guard !refreshRunning, p[a].refresh.enqueued else { return nil }
                    return m.workManager.nextRunTime(m.refreshWork, p[a].refresh.spec)
                }
                guard !p[a].stepJobRunning, p[a].steps.enqueued, let request = Self.stepRequest(m, p[a].stepWorkInterval, p[a].stepWorkConstraints) else { return nil }
                return m.workManager.nextRunTime(request, p[a].steps.spec)
            }
        }
    }

    mutating func scheduleWorkCheck(_ d: UInt32, _ work: AndroidWork) {
        let a = androidIndex(d)
        guard slot(a, work).enqueued else { return }
        let m = models(d)
        guard let request = request(m, a, work), let due = m.workManager.nextRunTime(request, slot(a, work).spec) else { return }
        let generation = androids[a].timers.arm(.work(work))
        core.clock.schedule(.android(.timer(device: d, generation: generation, timer: .work(work))), at: max(due, now))
    }

    /// BatteryService's "battery low" now (``BatteryLowMonitor``: set at ≤ 15 % unplugged,
    /// cleared plugged in or at ≥ 20 %, `docs/platform-facts.md` E), kept for the hysteresis.
    mutating func updateBatteryLow(_ d: UInt32) {
        let i = Int(d), a = androidIndex(d)
        let level = core.cohorts[Int(core.devices[i].cohort)].battery.percent(core.devices[i].battery, at: now)
        androids[a].batteryLow = models(d).batteryLow.isLow(levelPercent: level, plugged: isCharging(i), wasLow: androids[a].batteryLow)
    }

    /// Starts a work's job if it is due and every gate of `docs/platform-facts.md` A, B, D and E
    /// lets it: not force-stopped, constraints (network, battery not low), Battery Saver,
    /// Doze (maintenance windows only, unless temp-allow-listed), and the bucket's quota
    /// (charging and foreground exempt).
    /// A due work that cannot start waits on Doze's next step (``watchDoze(_:)``).
    ///
    /// Most calls (two per Doze input that lifts its restrictions) find the work not due:
    /// that is decided first, before Doze's owed steps are settled (settling them at the
    /// next look runs the same steps, each at its own deadline). A due work under Battery
    /// Saver stops there too (``batterySaverHoldsWork(_:)``).
    mutating func tryRunWork(_ d: UInt32, _ work: AndroidWork) {
        let i = Int(d), a = androidIndex(d)
        guard let due = workDueAt(d, a, work), due <= now, !androids[a].forceStopped else { return }
        if batterySaverHoldsWork(d) { return }
        settleDoze(d, before: now)
        let m = models(d)
        guard let request = request(m, a, work) else { return }
        if request.constraints.requiresBatteryNotLow { updateBatteryLow(d) }
        let network: WorkNetworkType = core.devices[i].online ? (onWiFi(i, at: now) ? .unmetered : .connected) : .notRequired
        let conditions = DeviceConditions(network: network, charging: isCharging(i), batteryLow: androids[a].batteryLow)
        guard m.workManager.constraintsMet(request.constraints, conditions) else {
            watchDoze(d)
            return core.note(d, "WorkManager: \(work) due; waiting for its constraints (network \(network), battery low \(androids[a].batteryLow))")
        }
        guard !core.devices[i].lowPowerMode else {
            watchDoze(d)
            return core.note(d, "WorkManager: \(work) due; held back by Battery Saver")
        }
        let t = now
        if dozeHoldsWork(a, at: t) {
            if slot(a, work).deferredSince == nil {
                androids[a][work].deferredSince = now
                core.metrics.platform.dozeDeferrals += 1
                core.note(d, "WorkManager: \(work) due; deferred by Doze (deep \(androids[a].doze.deep), light \(androids[a].doze.light)) to a maintenance window")
            }
            return watchDoze(d)
        }
        let bucket = checkBucket(d)
        let exempt = isCharging(i) || (core.devices[i].process == .running && now < core.devices[i].foregroundUntil)
        // Read in place: a plain call copied the tracker's configuration (retaining its
        // four arrays) first.
        // An exempt job skips the tracker, whose answer would be yes, and its copy of the
        // quota history.
        guard exempt || androids.withUnsafeBufferPointer({ m.quota.mayStart($0[a].quota, bucket: bucket, now: t, exempt: false) }) else {
            core.metrics.platform.quotaDeferrals += 1
            let generation = androids[a].timers.arm(.work(work))
            core.clock.schedule(.android(.timer(device: d, generation: generation, timer: .work(work))), after: m.quotaRecheck)
            watchDoze(d)
            return core.note(d, "JobScheduler: \(work) due; the \(bucket) bucket's quota is used up; looks again in \(core.human(m.quotaRecheck))")
        }
        if let since = slot(a, work).deferredSince {
            core.metrics.platform.dozeDeferral.record((now - since).microseconds)
            androids[a][work].deferredSince = nil
        }
        // A run the system stopped is due from its original enqueue time, usually before
        // the stop: its wait counts from the stop, when WorkManager rescheduled it.
        core.metrics.platform.workManagerDelay.record((now - max(due, slot(a, work).stoppedAt ?? due)).microseconds)
        androids[a][work].stoppedAt = nil
        m.quota.jobStarted(&androids[a].quota, now: now)
        let deadline = androids.withUnsafeBufferPointer { m.quota.stopDeadline($0[a].quota, bucket: bucket, startedAt: t, now: t, exempt: exempt) }
        applyDoze(d, .jobsActive(true))
        switch work {
        case .refresh:
            core.metrics.platform.androidLaunchesByBucket[bucket.rawValue] += 1
            beginRefreshTask(d)
            core.devices[i].timerEntries.expiry = core.clock.scheduleRetractably(.refreshExpires(device: d, serial: core.devices[i].task.serial), at: deadline)
            core.note(d, "WorkManager: refresh runs as job \(core.devices[i].task.serial) (bucket \(bucket), \(core.human(now - due)) after due); JobScheduler stops it at \(core.format(deadline))")
            deliverTaskLaunched(d)
        case .stepSync:
            stepSync.metrics.jobs += 1
            androids[a].stepJobRunning = true
            androids[a].stepJobSerial &+= 1
            stepJobStops[a] = core.clock.scheduleRetractably(.android(.stepJobStops(device: d, serial: androids[a].stepJobSerial)), at: deadline)
            core.note(d, "WorkManager: step sync runs as job \(androids[a].stepJobSerial) (bucket \(bucket), \(core.human(now - due)) after due); JobScheduler stops it at \(core.format(deadline))")
            startStepWorker(d)
        }
    }

    /// Battery Saver holds every due work, whatever Doze, the constraints or the quota say
    /// (the Battery Saver gate below comes before Doze's and the quota's, and no constraint
    /// lets a job past it), and only its end releases the work: every way it ends retries
    /// both works at once (``batterySaverChanged(_:)``, ``androidChargingChanged(_:)``).
    /// So in a lazy world an attempt under Battery Saver stops before the gates, and a due
    /// work under Battery Saver does not wait on Doze (``dozeWatched(_:_:)``): Doze's steps
    /// and the screen-offs stay lazy for a phone that has it on all day.
    /// What the skipped attempt did is redone at the next one: Doze's owed steps settle at
    /// the next look, and BatteryService's "battery low" (``updateBatteryLow(_:)``) is a
    /// function of the level alone while unplugged, since the level only falls until the
    /// next plug-in, which resets it (so a sample in between changes no later answer).
    /// The eager world (``lazyDoze`` off) and the traced device, whose story reads every
    /// attempt, go through the gates (LazyDozeTests).
    @inline(__always) mutating func batterySaverHoldsWork(_ d: UInt32) -> Bool {
        core.devices.withUnsafeBufferPointer { $0[Int(d)].lowPowerMode } && lazyDoze && core.traceRecorder?.device != Int(d)
    }

    /// JobScheduler's stop deadline: `onStopped`, which the logic hears as its expiration.
    /// The job is over for the OS either way (no watchdog kill on Android).
    mutating func stopRefreshJob(_ d: UInt32) {
        let i = Int(d)
        core.metrics.platform.jobsStopped += 1
        androids[androidIndex(d)].stopping = true
        core.note(d, "JobScheduler: job \(core.devices[i].task.serial) stopped at its deadline")
        deliverRefresh(d, .taskExpired)
        if core.devices[i].task.running { endTask(d) }
    }

    /// The job ended (completed, stopped at JobScheduler's deadline, or killed with the
    /// app): the quota session closes, WorkManager records how (a completed run starts the
    /// next period; a stopped one is due again from its original enqueue time; a killed
    /// or uncompleted one backs off) and Doze may end its maintenance window.
    mutating func refreshJobEnded(_ d: UInt32) {
        let i = Int(d), a = androidIndex(d)
        let end: WorkRunEnd = androids[a].stopping ? .stoppedBySystem
            : core.devices[i].task.completions == 0 ? .killed : .returned(.success)
        androids[a].stopping = false
        jobEnded(d, .refresh, end)
    }

    /// A job of `work` ended: quota, WorkManager's next run or backoff, and Doze's view
    /// of running jobs.
    mutating func jobEnded(_ d: UInt32, _ work: AndroidWork, _ end: WorkRunEnd) {
        let i = Int(d), a = androidIndex(d)
        let m = models(d)
        m.quota.jobStopped(&androids[a].quota, now: now)
        if let request = request(m, a, work) {
            switch end {
            case .returned(let result):
                m.workManager.runFinished(request, &androids[a][work].spec, result: result, now: now)
            case .stoppedBySystem:
                m.workManager.runStoppedBySystem(&androids[a][work].spec)
                androids[a][work].stoppedAt = now
            case .killed:
                m.workManager.runFinished(request, &androids[a][work].spec, result: .retry, now: now)
            }
            if let next = m.workManager.nextRunTime(request, slot(a, work).spec) {
                core.note(d, "WorkManager: \(work) run ended (\(end.traceName)); next run due \(core.format(next))")
            }
        }
        scheduleWorkCheck(d, work)
        applyDoze(d, .jobsActive(core.devices[i].task.running || androids[a].stepJobRunning))
    }
}
