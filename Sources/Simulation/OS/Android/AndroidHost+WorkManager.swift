import SimKernel
import AppLogic
import Platform

/// WorkManager periodic work run as JobScheduler jobs (docs/platform-facts.md section D):
/// enqueue (KEEP), the gates (Doze, the bucket's quota, Battery Saver, constraints),
/// the run, its stop deadline and the retry backoff. The run itself goes to the feature
/// that declared the work (World+Android).
extension AndroidHost {
    /// **Assumption**: the app's process is cached 1 s after its Worker returned and its
    /// job ended (AOSP freezes cached apps later still; the app does nothing meanwhile).
    static let cachedAfterWork = SimDuration.seconds(1)

    /// `enqueueUniquePeriodicWork(KEEP, …)`, unless `work` is enqueued already: its first
    /// run from `earliestBegin` (its initial delay) or, with none, from now.
    mutating func enqueueWork(_ d: UInt32, _ work: WorkID, _ request: PeriodicWork, earliestBegin: SimTime?, core: inout WorldCore) {
        let a = core.androidIndex(d)
        guard !devices[a][work].enqueued else {
            core.note(d, "WorkManager: periodic \(work.proseName) work already enqueued (KEEP)")
            return
        }
        let from = max(earliestBegin ?? core.now, core.now)
        devices[a].requestIDs[Int(work.rawValue)] = requestID(Self.workRequest(core.androidModels(d), request))
        devices[a][work] = AndroidWorkSlot(spec: WorkSpecState(enqueuedAt: from), enqueued: true)
        core.note(d) { c in "WorkManager: periodic \(work.proseName) work enqueued" + (earliestBegin == nil ? "" : ", first run from \(c.format(from))") }
        scheduleWorkCheck(d, work, core: &core)
    }

    /// Set-up: `work` was enqueued as `request` before the run and its last run ended at
    /// `lastRun`: the next one is due one interval later.
    mutating func enqueuedBeforeRun(_ d: UInt32, _ a: Int, _ work: WorkID, _ request: PeriodicWork, lastRun: SimTime, core: inout WorldCore) {
        let m = core.androidModels(d)
        var spec = WorkSpecState(enqueuedAt: lastRun)
        let built = Self.workRequest(m, request)
        m.workManager.runFinished(built, &spec, result: .success, now: lastRun)
        devices[a].requestIDs[Int(work.rawValue)] = requestID(built)
        devices[a][work] = AndroidWorkSlot(spec: spec, enqueued: true)
    }

    /// `cancelUniqueWork`.
    mutating func cancelWork(_ d: UInt32, _ work: WorkID, core: inout WorldCore) {
        let a = core.androidIndex(d)
        devices[a][work].enqueued = false
        devices[a][work].deferredSince = nil
        let generation = devices[a].timers.arm(.work(work))
        retractWorkCheck(d, a, work, generation: generation &- 1, core: &core)
        core.note(d, "WorkManager: periodic \(work.proseName) work cancelled")
    }

    /// The request a work was enqueued with; nil when it never was.
    @inline(__always) func request(_ m: AndroidModels, _ a: Int, _ work: WorkID) -> WorkRequest? {
        let id = devices.withUnsafeBufferPointer { $0[a].requestIDs[Int(work.rawValue)] }
        return id == .max ? nil : workRequests.withUnsafeBufferPointer { $0[Int(id)] }
    }

    /// A work's request as the app builds it with the cohort's WorkManager (`m`):
    /// `PeriodicWorkRequest.Builder(interval)` with no flex, so `WorkSpec.setPeriodic(interval)`
    /// makes it unflexed with both at least 15 min, its constraints as WorkManager takes
    /// them, and the default exponential 30 s backoff (androidx
    /// `work/work-runtime/src/main/java/androidx/work/impl/model/WorkSpec.kt`).
    static func workRequest(_ m: AndroidModels, _ request: PeriodicWork) -> WorkRequest {
        m.workManager.periodicRequest(interval: request.interval, constraints: Platform.WorkConstraints(
            network: request.constraints.contains(.unmetered) ? .unmetered : request.constraints.contains(.networkConnected) ? .connected : .notRequired,
            requiresCharging: request.constraints.contains(.charging),
            requiresBatteryNotLow: request.constraints.contains(.batteryNotLow)))
    }

    /// `request`'s index in ``workRequests``, added there the first time a device
    /// enqueues a work with it (a scenario has a few distinct requests, so the search is short).
    mutating func requestID(_ request: WorkRequest) -> UInt8 {
        if let k = workRequests.firstIndex(of: request) { return UInt8(k) }
        precondition(workRequests.count < Int(UInt8.max), "World: more distinct WorkManager requests than a byte names")
        workRequests.append(request)
        return UInt8(workRequests.count - 1)
    }

    /// A copy of one work's slot (plain values: no retain).
    @inline(__always) func slot(_ a: Int, _ work: WorkID) -> AndroidWorkSlot { devices[a][work] }

    /// When the work is next due, if it is enqueued and not running; nil otherwise (what
    /// ``World/tryRunWork(_:_:)`` and ``dozeWatched(_:_:core:)`` ask first, several times per
    /// Doze input, mostly to find it not due yet). Inlined whole,
    /// ``WorkManagerModel/nextRunTime(_:_:)`` included, and read in place: the device's
    /// fields in the array's storage (a getter copies the whole `AndroidDevice` first, as
    /// its timer table keeps the optimiser from projecting one field) and the cohort's
    /// models without a retain.
    @inline(__always) mutating func workDueAt(_ d: UInt32, _ a: Int, _ work: WorkID, core: inout WorldCore) -> SimTime? {
        borrowedModels(d, core.devices)._withUnsafeGuaranteedRef { m in
            devices.withUnsafeBufferPointer { p -> SimTime? in
                let id = p[a].requestIDs[Int(work.rawValue)]
                guard !p[a].runsJob(work), p[a][work].enqueued, id != .max else { return nil }
                return workRequests.withUnsafeBufferPointer { m.workManager.nextRunTime($0[Int(id)], p[a][work].spec) }
            }
        }
    }

    mutating func scheduleWorkCheck(_ d: UInt32, _ work: WorkID, core: inout WorldCore) {
        let a = core.androidIndex(d)
        guard slot(a, work).enqueued else { return }
        let m = core.androidModels(d)
        guard let request = request(m, a, work), let due = m.workManager.nextRunTime(request, slot(a, work).spec) else { return }
        armWorkCheck(d, a, work, at: max(due, core.now), core: &core)
    }

    /// Arms WorkManager's look at `work` for `at`. The look armed before is moot: its entry
    /// leaves the queue if it still can (``EventQueue/retract(_:if:)``) instead of popping
    /// as a no-op, and the new entry's place is kept in the work's slot of ``workEntries``.
    /// That slot is free for it: a look is armed only while no job of the work runs (at
    /// the enqueue, a job's end, a quota recheck), and a job's start takes the slot for its
    /// stop deadline (a look still pending then pops as before). Only `simulated.events`
    /// moves: a stale look was dropped unheard (its generation), and the queue's other
    /// entries keep their (time, order).
    mutating func armWorkCheck(_ d: UInt32, _ a: Int, _ work: WorkID, at: SimTime, core: inout WorldCore) {
        let generation = devices[a].timers.arm(.work(work))
        retractWorkCheck(d, a, work, generation: generation &- 1, core: &core)
        workEntries[a][Int(work.rawValue)] = core.scheduleRetractably(.android(.timer(device: d, generation: generation, timer: .work(work))), at: at)
    }

    /// Takes the entry of `work`'s look `generation` out of the queue if it is still where
    /// it was put (the identity check refuses a job's stop deadline or a reused slot).
    @inline(__always) mutating func retractWorkCheck(_ d: UInt32, _ a: Int, _ work: WorkID, generation: UInt32, core: inout WorldCore) {
        _ = core.clock.queue.retract(workEntries[a][Int(work.rawValue)]) { event in
            if case .android(.timer(d, generation, .work(work))) = event { return true }
            return false
        }
    }

    /// BatteryService's "battery low" now (``BatteryLowMonitor``: set at ≤ 15 % unplugged,
    /// cleared plugged in or at ≥ 20 %, `docs/platform-facts.md` E), kept for the hysteresis.
    mutating func updateBatteryLow(_ d: UInt32, core: inout WorldCore) {
        let i = Int(d), a = core.androidIndex(d)
        let level = core.cohorts[Int(core.devices[i].cohort)].battery.percent(core.devices[i].battery, at: core.now)
        devices[a].batteryLow = core.androidModels(d).batteryLow.isLow(levelPercent: level, plugged: core.devices[i].battery.charging, wasLow: devices[a].batteryLow)
    }

    /// The first gates of a run of `work` (``World/tryRunWork(_:_:)``): due, not
    /// force-stopped, not held by Battery Saver; then Doze's owed steps are settled and
    /// BatteryService's "battery low" updated if the request asks for it. Returns when
    /// the work was due and its request, or nil.
    ///
    /// Most calls (two per Doze input that lifts its restrictions) find the work not due:
    /// that is decided first, before Doze's owed steps are settled (settling them at the
    /// next look runs the same steps, each at its own deadline). A due work under Battery
    /// Saver stops there too (``batterySaverHoldsWork(_:core:)``).
    @inline(__always) mutating func dueWork(_ d: UInt32, _ work: WorkID, core: inout WorldCore) -> (due: SimTime, request: WorkRequest)? {
        let a = core.androidIndex(d)
        guard let due = workDueAt(d, a, work, core: &core), due <= core.now, !devices[a].forceStopped else { return nil }
        if batterySaverHoldsWork(d, core: &core) { return nil }
        settleDoze(d, before: core.now, core: &core)
        guard let request = request(core.androidModels(d), a, work) else { return nil }
        if request.constraints.requiresBatteryNotLow { updateBatteryLow(d, core: &core) }
        return (due, request)
    }

    /// The other gates of `docs/platform-facts.md` A, B, D and E for due `work` on
    /// `network`: constraints (network, battery not low), Battery Saver, Doze (maintenance
    /// windows only, unless temp-allow-listed), and the bucket's quota (charging and
    /// foreground exempt). A due work that cannot start waits on Doze's next step
    /// (``watchDoze(_:core:)``). Returns its job's start when it may start (its wait
    /// recorded and the quota's session opened), or nil.
    mutating func jobMayStart(_ d: UInt32, _ work: WorkID, _ request: WorkRequest, due: SimTime, network: WorkNetworkType, core: inout WorldCore) -> AndroidJobStart? {
        let i = Int(d), a = core.androidIndex(d)
        let m = core.androidModels(d)
        let conditions = DeviceConditions(network: network, charging: core.devices[i].battery.charging, batteryLow: devices[a].batteryLow)
        guard m.workManager.constraintsMet(request.constraints, conditions) else {
            watchDoze(d, core: &core)
            core.note(d, "WorkManager: \(work) due; waiting for its constraints (network \(network), battery low \(devices[a].batteryLow))")
            return nil
        }
        guard !core.devices[i].lowPowerMode else {
            watchDoze(d, core: &core)
            core.note(d, "WorkManager: \(work) due; held back by Battery Saver")
            return nil
        }
        let t = core.now
        if dozeHoldsWork(a, at: t) {
            if slot(a, work).deferredSince == nil {
                devices[a][work].deferredSince = t
                core.metrics.platform.dozeDeferrals += 1
                core.note(d, "WorkManager: \(work) due; deferred by Doze (deep \(devices[a].doze.deep), light \(devices[a].doze.light)) to a maintenance window")
            }
            watchDoze(d, core: &core)
            return nil
        }
        let bucket = checkBucket(d, core: &core)
        let exempt = core.devices[i].battery.charging || (core.devices[i].process == .running && t < core.devices[i].foregroundUntil)
        // Read in place: a plain call copied the tracker's configuration (retaining its
        // four arrays) first.
        // An exempt job skips the tracker, whose answer would be yes, and its copy of the
        // quota history.
        guard exempt || devices.withUnsafeBufferPointer({ m.quota.mayStart($0[a].quota, bucket: bucket, now: t, exempt: false) }) else {
            core.metrics.platform.quotaDeferrals += 1
            armWorkCheck(d, a, work, at: t + m.quotaRecheck, core: &core)
            watchDoze(d, core: &core)
            core.note(d) { c in "JobScheduler: \(work) due; the \(bucket) bucket's quota is used up; looks again in \(c.human(m.quotaRecheck))" }
            return nil
        }
        if let since = slot(a, work).deferredSince {
            core.metrics.platform.dozeDeferral.record((t - since).microseconds)
            devices[a][work].deferredSince = nil
        }
        // A run the system stopped is due from its original enqueue time, usually before
        // the stop: its wait counts from the stop, when WorkManager rescheduled it.
        core.metrics.platform.workManagerDelay.record((t - max(due, slot(a, work).stoppedAt ?? due)).microseconds)
        devices[a][work].stoppedAt = nil
        m.quota.jobStarted(&devices[a].quota, now: t)
        let deadline = devices.withUnsafeBufferPointer { m.quota.stopDeadline($0[a].quota, bucket: bucket, startedAt: t, now: t, exempt: exempt) }
        return AndroidJobStart(bucket: bucket, due: due, stopsAt: deadline)
    }

    /// Battery Saver holds every due work, whatever Doze, the constraints or the quota say
    /// (the Battery Saver gate in ``jobMayStart(_:_:_:due:network:core:)`` comes before
    /// Doze's and the quota's, and no constraint lets a job past it), and only its end
    /// releases the work: every way it ends retries every declared work at once
    /// (``World/batterySaverChanged(_:)``, ``World/androidChargingChanged(_:)``).
    /// So in a lazy world an attempt under Battery Saver stops before the gates, and a due
    /// work under Battery Saver does not wait on Doze (``dozeWatched(_:_:core:)``): Doze's
    /// steps and the screen-offs stay lazy for a phone that has it on all day.
    /// What the skipped attempt did is redone at the next one: Doze's owed steps settle at
    /// the next look, and BatteryService's "battery low" (``updateBatteryLow(_:core:)``) is a
    /// function of the level alone while unplugged, since the level only falls until the
    /// next plug-in, which resets it (so a sample in between changes no later answer).
    /// The eager world (``lazyDoze`` off) and the traced device, whose story reads every
    /// attempt, go through the gates (LazyDozeTests).
    @inline(__always) mutating func batterySaverHoldsWork(_ d: UInt32, core: inout WorldCore) -> Bool {
        core.devices.withUnsafeBufferPointer { $0[Int(d)].lowPowerMode } && lazyDoze && core.traceRecorder?.device != Int(d)
    }

    /// `work` runs as a Worker of its own: its job's serial and JobScheduler's stop
    /// deadline (``AndroidEvent/jobStops(device:serial:work:)``). Returns the serial.
    mutating func runWorker(_ d: UInt32, _ work: WorkID, _ job: AndroidJobStart, core: inout WorldCore) -> UInt32 {
        let a = core.androidIndex(d), k = Int(work.rawValue)
        // Read and written in place: a getter on `devices[a]` copies the whole device
        // (its timer table keeps the optimiser from projecting one field).
        let serial = devices.withUnsafeMutableBufferPointer { p -> UInt32 in
            p[a].jobSerials[k] &+= 1
            return p[a].jobSerials[k]
        }
        workEntries[a][k] = core.scheduleRetractably(.android(.jobStops(device: d, serial: serial, work: work)), at: job.stopsAt)
        return serial
    }

    /// The job of `work` ended (its Worker returned or the task completed, it was stopped
    /// at JobScheduler's deadline, or it was killed with the app): a stop deadline still
    /// ahead is taken out of the queue (the serial never comes back, so the entry could
    /// only pop as a no-op; most runs end within seconds of a deadline 10 or 30 minutes
    /// away; only `simulated.events` moves), the quota session closes, and WorkManager
    /// records how (a completed run starts the next period; a stopped one is due again
    /// from its original enqueue time; a killed or uncompleted one backs off). Returns
    /// false when no job of `work` ran; otherwise Doze hears whether jobs still run
    /// (``World/jobEnded(_:_:_:)``), which may end its maintenance window.
    mutating func jobEnded(_ d: UInt32, _ work: WorkID, _ ending: WorkRunEnd, core: inout WorldCore) -> Bool {
        let a = core.androidIndex(d), k = Int(work.rawValue)
        // Read and written in place (see ``runWorker(_:_:_:core:)``).
        let found = devices.withUnsafeMutableBufferPointer { p -> (end: WorkRunEnd, serial: UInt32)? in
            guard p[a].runsJob(work) else { return nil }
            let end: WorkRunEnd = p[a].jobsStopping & work.bit != 0 ? .stoppedBySystem : ending
            p[a].jobsRunning &= ~work.bit
            p[a].jobsStopping &= ~work.bit
            return (end, p[a].jobSerials[k])
        }
        guard let (end, serial) = found else { return false }
        _ = core.clock.queue.retract(workEntries[a][k]) { event in
            if case .android(.jobStops(d, serial, work)) = event { return true }
            return false
        }
        let m = core.androidModels(d)
        m.quota.jobStopped(&devices[a].quota, now: core.now)
        if let request = request(m, a, work) {
            switch end {
            case .returned(let result):
                m.workManager.runFinished(request, &devices[a][work].spec, result: result, now: core.now)
            case .stoppedBySystem:
                m.workManager.runStoppedBySystem(&devices[a][work].spec)
                devices[a][work].stoppedAt = core.now
            case .killed:
                m.workManager.runFinished(request, &devices[a][work].spec, result: .retry, now: core.now)
            }
            if let next = m.workManager.nextRunTime(request, slot(a, work).spec) {
                core.note(d) { c in "WorkManager: \(work) run ended (\(end.traceName)); next run due \(c.format(next))" }
            }
        }
        scheduleWorkCheck(d, work, core: &core)
        return true
    }
}
