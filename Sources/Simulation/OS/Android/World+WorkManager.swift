import SimKernel
import AppLogic
import Platform

/// WorkManager periodic work run as JobScheduler jobs (docs/platform-facts.md section D):
/// enqueue (KEEP), the gates (Doze, the bucket's quota, Battery Saver, constraints),
/// the run, its stop deadline and the retry backoff.
extension World {
    /// `enqueueUniquePeriodicWork(KEEP, …)`, unless `work` is enqueued already: its first
    /// run from `earliestBegin` (its initial delay) or, with none, from now.
    mutating func enqueueWork(_ d: UInt32, _ work: WorkID, _ request: PeriodicWork, earliestBegin: SimTime?) {
        let a = androidIndex(d)
        guard !androids[a][work].enqueued else {
            core.note(d, "WorkManager: periodic \(work.proseName) work already enqueued (KEEP)")
            return
        }
        let from = max(earliestBegin ?? now, now)
        androids[a].requestIDs[Int(work.rawValue)] = requestID(Self.workRequest(models(d), request))
        androids[a][work] = AndroidWorkSlot(spec: WorkSpecState(enqueuedAt: from), enqueued: true)
        core.note(d, "WorkManager: periodic \(work.proseName) work enqueued" + (earliestBegin == nil ? "" : ", first run from \(core.format(from))"))
        scheduleWorkCheck(d, work)
    }

    /// Set-up: `work` was enqueued as `request` before the run and its last run ended at
    /// `lastRun`: the next one is due one interval later.
    mutating func enqueuedBeforeRun(_ d: UInt32, _ a: Int, _ work: WorkID, _ request: PeriodicWork, lastRun: SimTime) {
        let m = models(d)
        var spec = WorkSpecState(enqueuedAt: lastRun)
        let built = Self.workRequest(m, request)
        m.workManager.runFinished(built, &spec, result: .success, now: lastRun)
        androids[a].requestIDs[Int(work.rawValue)] = requestID(built)
        androids[a][work] = AndroidWorkSlot(spec: spec, enqueued: true)
    }

    /// `cancelUniqueWork`.
    mutating func cancelWork(_ d: UInt32, _ work: WorkID) {
        let a = androidIndex(d)
        androids[a][work].enqueued = false
        androids[a][work].deferredSince = nil
        androids[a].timers.cancel(.work(work))
        core.note(d, "WorkManager: periodic \(work.proseName) work cancelled")
    }

    /// The request a work was enqueued with; nil when it never was.
    @inline(__always) func request(_ m: AndroidModels, _ a: Int, _ work: WorkID) -> WorkRequest? {
        let id = androids.withUnsafeBufferPointer { $0[a].requestIDs[Int(work.rawValue)] }
        return id == .max ? nil : androidWorkRequests.withUnsafeBufferPointer { $0[Int(id)] }
    }

    /// A work's request as the app builds it with the cohort's WorkManager (`m`):
    /// `PeriodicWorkRequest.Builder(interval)` with no flex, so `WorkSpec.setPeriodic(interval)`
    /// makes it unflexed with both at least 15 min, its constraints as WorkManager takes
    /// them, and the default exponential 30 s backoff (androidx
    /// `work/work-runtime/src/main/java/androidx/work/impl/model/WorkSpec.kt`).
    static func workRequest(_ m: AndroidModels, _ request: PeriodicWork) -> WorkRequest {
        m.workManager.periodicRequest(interval: request.interval, constraints: Platform.WorkConstraints(
            network: request.constraints.contains(.networkConnected) ? .connected : .notRequired,
            requiresBatteryNotLow: request.constraints.contains(.batteryNotLow)))
    }

    /// `request`'s index in ``androidWorkRequests``, added there the first time a device
    /// enqueues a work with it (a scenario has a few distinct requests, so the search is short).
    mutating func requestID(_ request: WorkRequest) -> UInt8 {
        if let k = androidWorkRequests.firstIndex(of: request) { return UInt8(k) }
        precondition(androidWorkRequests.count < Int(UInt8.max), "World: more distinct WorkManager requests than a byte names")
        androidWorkRequests.append(request)
        return UInt8(androidWorkRequests.count - 1)
    }

    /// A copy of one work's slot (plain values: no retain).
    @inline(__always) func slot(_ a: Int, _ work: WorkID) -> AndroidWorkSlot { androids[a][work] }

    /// When the work is next due, if it is enqueued and not running; nil otherwise (what
    /// ``tryRunWork(_:_:)`` and ``dozeWatched(_:_:)`` ask first, several times per Doze
    /// input, mostly to find it not due yet). Inlined whole,
    /// ``WorkManagerModel/nextRunTime(_:_:)`` included, and read in place: the device's
    /// fields in the array's storage (a getter copies the whole `AndroidDevice` first, as
    /// its timer table keeps the optimiser from projecting one field) and the cohort's
    /// models without a retain.
    @inline(__always) mutating func workDueAt(_ d: UInt32, _ a: Int, _ work: WorkID) -> SimTime? {
        borrowedModels(d)._withUnsafeGuaranteedRef { m in
            androids.withUnsafeBufferPointer { p -> SimTime? in
                let id = p[a].requestIDs[Int(work.rawValue)]
                guard !p[a].runsJob(work), p[a][work].enqueued, id != .max else { return nil }
                return androidWorkRequests.withUnsafeBufferPointer { m.workManager.nextRunTime($0[Int(id)], p[a][work].spec) }
            }
        }
    }

    /// Tries every declared work, in id order (something lets due work run).
    @inline(__always) mutating func tryEveryWork(_ d: UInt32) {
        WorkID.forEach { tryRunWork(d, $0) }
    }

    mutating func scheduleWorkCheck(_ d: UInt32, _ work: WorkID) {
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
        androids[a].batteryLow = models(d).batteryLow.isLow(levelPercent: level, plugged: core.isCharging(i), wasLow: androids[a].batteryLow)
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
    mutating func tryRunWork(_ d: UInt32, _ work: WorkID) {
        let i = Int(d), a = androidIndex(d)
        guard let due = workDueAt(d, a, work), due <= now, !androids[a].forceStopped else { return }
        if batterySaverHoldsWork(d) { return }
        settleDoze(d, before: now)
        let m = models(d)
        guard let request = request(m, a, work) else { return }
        if request.constraints.requiresBatteryNotLow { updateBatteryLow(d) }
        let network: WorkNetworkType = core.devices[i].online ? (core.onWiFi(i, at: now) ? .unmetered : .connected) : .notRequired
        let conditions = DeviceConditions(network: network, charging: core.isCharging(i), batteryLow: androids[a].batteryLow)
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
        let exempt = core.isCharging(i) || (core.devices[i].process == .running && now < core.devices[i].foregroundUntil)
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
        androids[a].jobsRunning |= work.bit
        featureWorkRuns(work, d, AndroidJobStart(bucket: bucket, due: due, stopsAt: deadline))
    }

    /// Battery Saver holds every due work, whatever Doze, the constraints or the quota say
    /// (the Battery Saver gate below comes before Doze's and the quota's, and no constraint
    /// lets a job past it), and only its end releases the work: every way it ends retries
    /// every declared work at once (``batterySaverChanged(_:)``, ``androidChargingChanged(_:)``).
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

    /// JobScheduler's stop deadline for `work`'s job `serial` (its own stop,
    /// ``runWorker(_:_:_:)``, or the app's task's deadline): `onStopped`, which the feature
    /// hears (``featureWorkStopped(_:_:serial:)``); then the job ends stopped by the system,
    /// if the feature has not ended it. The job is over for the OS either way (no watchdog
    /// kill on Android).
    mutating func stopJob(_ d: UInt32, _ work: WorkID, serial: UInt32) {
        core.metrics.platform.jobsStopped += 1
        androids[androidIndex(d)].jobsStopping |= work.bit
        featureWorkStopped(work, d, serial: serial)
        jobEnded(d, work, .stoppedBySystem)
    }

    /// `work` runs as a Worker of its own: its job's serial and JobScheduler's stop
    /// deadline (``AndroidEvent/jobStops(device:serial:work:)``). Returns the serial.
    mutating func runWorker(_ d: UInt32, _ work: WorkID, _ job: AndroidJobStart) -> UInt32 {
        let a = androidIndex(d), k = Int(work.rawValue)
        // Read and written in place: a getter on `androids[a]` copies the whole device
        // (its timer table keeps the optimiser from projecting one field).
        let serial = androids.withUnsafeMutableBufferPointer { p -> UInt32 in
            p[a].jobSerials[k] &+= 1
            return p[a].jobSerials[k]
        }
        jobStops[a][k] = core.clock.scheduleRetractably(.android(.jobStops(device: d, serial: serial, work: work)), at: job.stopsAt)
        return serial
    }

    /// The job of `work` ended (its Worker returned or the task completed, it was stopped
    /// at JobScheduler's deadline, or it was killed with the app): a stop deadline still
    /// ahead is taken out of the queue (the serial never comes back, so the entry could
    /// only pop as a no-op; most runs end within seconds of a deadline 10 or 30 minutes
    /// away; only `simulated.events` moves), the quota session closes, WorkManager records
    /// how (a completed run starts the next period; a stopped one is due again from its
    /// original enqueue time; a killed or uncompleted one backs off) and Doze may end its
    /// maintenance window.
    mutating func jobEnded(_ d: UInt32, _ work: WorkID, _ ending: WorkRunEnd) {
        let a = androidIndex(d), k = Int(work.rawValue)
        // Read and written in place (see ``runWorker(_:_:_:)``).
        let found = androids.withUnsafeMutableBufferPointer { p -> (end: WorkRunEnd, serial: UInt32)? in
            guard p[a].runsJob(work) else { return nil }
            let end: WorkRunEnd = p[a].jobsStopping & work.bit != 0 ? .stoppedBySystem : ending
            p[a].jobsRunning &= ~work.bit
            p[a].jobsStopping &= ~work.bit
            return (end, p[a].jobSerials[k])
        }
        guard let (end, serial) = found else { return }
        _ = core.clock.queue.retract(jobStops[a][k]) { event in
            if case .android(.jobStops(d, serial, work)) = event { return true }
            return false
        }
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
        applyDoze(d, .jobsActive(androids[a].jobsRunning != 0))
    }
}
