import SimKernel
import AppLogic
import Platform
import Backend
import Scenario

/// The step sync's own events, kept in one case of ``WorldEvent``.
enum StepSyncEvent {
    /// HealthKit background delivery wakes the app (new step samples).
    case healthDelivery(device: UInt32)
    /// The user plugs the phone in or unplugs it (``BatteryModel``).
    case batterySwitch(device: UInt32)
}

/// The step sync of seed `003`: ``StepSyncLogic`` runs on every app open and, on iOS,
/// inside every `BGAppRefreshTask` launch and on HealthKit background deliveries (on
/// Android as WorkManager periodic work: World+AndroidStepSync); the
/// battery drives its low-battery rule; uploads go through the network to the API
/// server, which applies them to the ``StepStore`` (ground truth) and the oracle judges them.
extension World {
    /// Seed `003`: HealthKit background delivery wakes the app at most 4 times an hour.
    static let healthDeliveryMinimumGap = SimDuration.minutes(15)
    /// **Assumption**: while steps accrue, deliveries come a mean of 1 h apart
    /// (exponential, floored at the 15 min minimum); none while no steps are recorded.
    static let healthDeliveryMeanGap = 3600.0
    /// **Assumption**: a HealthKit wake gets the same 30 s as a refresh task (`docs/platform-facts.md` F);
    /// the app is suspended `suspensionDelay` after the work finishes, or at the budget's end.
    static let healthDeliveryBudget = SimDuration.seconds(30)
    /// **Assumption**: the app synced sometime in the last 2 h (the seed's interval) before the run.
    static let initialSyncAge = SimDuration.hours(2)

    // MARK: - Set-up

    /// The persisted sync state and the pending stale-sync notification of a device
    /// whose cohort has `stepSync`, and its first HealthKit delivery (the battery is
    /// every device's: World+Energy).
    mutating func startStepSync(_ d: UInt32) {
        let i = Int(d)
        let lastSync = SimTime.zero - SimDuration(microseconds: devices[i].stepStream.int(in: 1...World.initialSyncAge.microseconds))
        let stored = StepSyncStored(lastSyncAt: deviceTime(i, at: lastSync), lastStatus: .success, failedAttempts: 0)
        devices[i].stepSync = StepSyncState(persisted: stored)
        devices[i].stepDurable = stored
        devices[i].stepsSyncedThrough = lastSync
        // What that sync brought to the server: its day's steps up to then.
        let synced = localTime(i, at: lastSync)
        observeStepSyncStarted(i, firstDay: synced.day)
        _ = stepStore.upsert(user: i, day: synced.day, steps: health.steps(user: Int(globalID(i)), day: synced.day, before: synced.day, secondOfDay: synced.secondOfDay))
        setStaleNotification(d, at: lastSync + scenario.logic.stepSync.staleNotificationAge)
        startStepSyncWork(d, lastSync: lastSync)
    }

    // MARK: - Events

    mutating func stepSyncEvent(_ event: StepSyncEvent) {
        switch event {
        case .healthDelivery(let d):
            healthDelivery(d)
        case .batterySwitch(let d):
            let i = Int(d)
            let battery = cohorts[Int(devices[i].cohort)].battery
            battery.toggle(&devices[i].battery, at: now)
            note(d, "battery: \(devices[i].battery.charging ? "plugged in" : "unplugged") at \(Int(devices[i].battery.percent)) %")
            clock.schedule(.stepSync(.batterySwitch(device: d)),
                           at: battery.nextSwitch(devices[i].battery, now: now, localSecondsOfDay: localTime(i, at: now).secondOfDay))
            chargingChanged(d)
        }
    }

    /// The retry timer fires (``DeviceTimer/stepRetry``).
    mutating func stepRetryTimerFires(_ d: UInt32) {
        let i = Int(d)
        // A suspended app's timers do not run, and a terminated app's are gone:
        // the next trigger syncs instead (seed `003`: "wait for next scheduled sync").
        guard devices[i].process == .running else {
            note(d, "retry timer due but the app is not running")
            return
        }
        let context = stepContext(i)
        deliverStepSync(d, .retryTimerFired(context))
    }

    /// The scheduled "not synced for 24 h" notification's trigger (``DeviceTimer/staleNotification``).
    mutating func staleNotificationFires(_ d: UInt32) {
        // Android: a while-idle alarm, which deep Doze may hold (World+WhileIdleAlarm).
        guard staleNotificationMayFire(d) else { return }
        postStaleSyncNotification(d)
    }

    /// A HealthKit wake's background time is over (work finished, or its budget spent;
    /// ``DeviceTimer/stepWake``).
    mutating func stepWakeEnds(_ d: UInt32) {
        let i = Int(d)
        guard devices[i].process == .running,
              now >= devices[i].foregroundUntil, !devices[i].task.running, !stepJobHoldsProcess(i) else { return }
        suspend(d)
    }

    mutating func scheduleHealthDelivery(_ d: UInt32) {
        let i = Int(d)
        let gap = max(World.healthDeliveryMinimumGap, SimDuration.fromSeconds(devices[i].stepStream.exponential(mean: World.healthDeliveryMeanGap)))
        var at = now + gap
        // No new samples at night: the first delivery comes after the day's first steps.
        let local = localTime(i, at: at)
        if !HealthDataGenerator.isActive(secondOfDay: local.secondOfDay) {
            var wait = HealthDataGenerator.activeFrom - local.secondOfDay
            if wait < 0 { wait += 86_400 }
            at = at + .seconds(Int64(wait)) + World.healthDeliveryMinimumGap
        }
        clock.schedule(.stepSync(.healthDelivery(device: d)), at: at)
    }

    private mutating func healthDelivery(_ d: UInt32) {
        let i = Int(d)
        metrics.healthDeliveries += 1
        devices[i].healthWakes &+= 1
        note(d, "OS: HealthKit background delivery wakes the app")
        resume(d)
        let generation = devices[i].timers.arm(.stepWake)
        let context = stepContext(i)
        deliverStepSync(d, .healthDataDelivered(context))
        // Work still under way (no `finishWork` yet): its budget ends it at the latest.
        if devices[i].timers.isCurrent(.stepWake, generation) {
            clock.schedule(.deviceTimer(device: d, timer: .stepWake, generation: generation), after: World.healthDeliveryBudget)
        }
        scheduleHealthDelivery(d)
    }

    private mutating func postStaleSyncNotification(_ d: UInt32) {
        let i = Int(d)
        guard devices[i].permission.allowsPosting else {
            metrics.notificationsSuppressed += 1
            note(d, "OS: stale-sync notification not shown (permission \(devices[i].permission))")
            return
        }
        metrics.staleSyncNotifications += 1
        note(d, "OS: notification shown: steps not synced for 24 h")
    }

    // MARK: - Logic

    /// What the step sync reads of the device. Callers build it into a local before
    /// `deliverStep`: read inside the argument list of a mutating call, it made Swift copy
    /// the whole `World` (3.3 KB and a retain of each of its arrays) per delivery.
    @inline(__always) func stepContext(_ i: Int) -> StepSyncContext {
        StepSyncContext(
            healthTrackingEnabled: true,
            signedIn: devices[i].signedIn,
            networkReachable: devices[i].online,
            batteryPercent: Int(cohorts[Int(devices[i].cohort)].battery.percent(devices[i].battery, at: now).rounded(.down)),
            charging: devices[i].battery.charging,
            lowPowerMode: devices[i].lowPowerMode,
            zone: calendars[Int(devices[i].clock.timeZone)],
            source: healthSource(i))
    }

    /// Hands one input to the device's step sync and carries out its effects in order.
    /// A health-data read is answered at once (a local query), as the next input.
    mutating func deliverStepSync(_ d: UInt32, _ first: StepSyncInput) {
        let i = Int(d)
        var next: StepSyncInput? = first
        while let input = next {
            next = nil
            note(d, "step sync <- \(input)")
            stepEffects.removeAll(keepingCapacity: true)
            let time = deviceTime(i, at: now)
            stepLogic.handle(input, state: &core.devices[i].stepSync, now: time, into: &stepEffects)
            for effect in stepEffects {
                note(d, "step sync -> \(effect)")
                if let answer = executeStep(effect, device: d) { next = answer }
            }
        }
    }

    private mutating func executeStep(_ effect: StepSyncEffect, device d: UInt32) -> StepSyncInput? {
        let i = Int(d)
        switch effect {
        case .schedulePeriodicWork(let interval, let constraints):
            schedulePeriodicStepWork(d, interval: interval, constraints: constraints)
        case .readHealthData(let from, let to):
            let clockModel = devices[i].clock
            devices[i].stepsReadFrom = clockModel.trueTime(ofWall: from.unixMicroseconds, startUnixSeconds: startUnixSeconds)
            devices[i].stepsReadTo = clockModel.trueTime(ofWall: to.unixMicroseconds, startUnixSeconds: startUnixSeconds)
            return .healthDataRead(World.healthData(health, user: Int(globalID(i)), from: devices[i].stepsReadFrom, to: devices[i].stepsReadTo,
                                                    days: deviceDays(i), home: calendars[Int(devices[i].homeTimeZone)], startUnixSeconds: startUnixSeconds))
        case .httpRequest(let id, let endpoint):
            metrics.stepUploads += 1
            observeStepUploadSent(i)
            send(d, id, endpoint)
        case .startRetryTimer(let after):
            armTimer(d, .stepRetry, after: SimDuration(microseconds: after.microseconds))
        case .cancelRetryTimer:
            cancelTimer(d, .stepRetry)
        case .store:
            let wasDirty = devices[i].keyValue.dirty
            devices[i].keyValue.dirty = true
            if !wasDirty, devices[i].process == .running { armFlush(d) }
        case .synchronize:
            persist(d, how: "synchronized")
        case .scheduleNotification(_, let after):
            // A time-interval trigger (Android: an elapsed-time alarm): true elapsed time,
            // whatever the wall clock does.
            setStaleNotification(d, at: now + SimDuration(microseconds: after.microseconds))
        case .finishWork(let success):
            stepWorkFinished(d, success: success)
        }
        return nil
    }

    /// Sets the stale-sync notification's trigger at `at`, replacing a pending one (a
    /// time-interval trigger: true elapsed time; the OS seam adds Android's alarm).
    mutating func setStaleNotification(_ d: UInt32, at: SimTime) {
        armTimer(d, .staleNotification, at: at)
        staleNotificationTriggerSet(d, at: at)
    }

    /// HealthKit's completion handler: the app may be suspended shortly.
    mutating func healthKitWakeFinished(_ d: UInt32) {
        armTimer(d, .stepWake, after: World.suspensionDelay)
    }

    // MARK: - Process lifecycle

    /// iOS freezes the app: an upload in flight will not be answered; the logic hears
    /// it failed (**assumption**: as URLSession reports a default-session task of a
    /// suspended app, a lost connection).
    mutating func failStepUploadOnSuspension(_ d: UInt32) {
        let i = Int(d)
        let job = devices[i].stepJob
        guard job >= 0, !jobs[Int(job)].clientDone else { return }
        devices[i].stepJob = -1
        jobs[Int(job)].clientDone = true
        let request = jobs[Int(job)].request
        releaseIfDone(UInt32(job))
        deliverStepSync(d, .httpResponse(request, .failed(.connectionLost)))
    }

    /// Termination: the sync in flight and its timers die with the process; the state
    /// comes back from what reached the disk.
    mutating func terminateStepSync(_ d: UInt32) {
        let i = Int(d)
        devices[i].stepSync = StepSyncState(persisted: devices[i].stepDurable)
        cancelTimer(d, .stepRetry)
        cancelTimer(d, .stepWake)
        // WorkManager reruns a Worker killed with its process (backoff).
        if stepJobHoldsProcess(i) { stepJobEnded(d, .killed) }
        let job = devices[i].stepJob
        devices[i].stepJob = -1
        guard job >= 0, !jobs[Int(job)].clientDone else { return }
        jobs[Int(job)].clientDone = true
        releaseIfDone(UInt32(job))
    }

    /// Energy of one step upload (radio, and CPU while it was in flight; CPU inside a
    /// refresh task is already the task's, and its radio goes to that task's books).
    /// Outside a task it is one `sync` operation of the ``EnergyLedger``.
    mutating func accountStepUpload(_ i: Int, radioJoules: Double, seconds: Double) {
        let cpu = energy.cpuJoules(seconds: seconds)
        if devices[i].task.running {
            devices[i].ledger.chargeApp(joules: radioJoules)
        } else {
            devices[i].ledger.begin(.sync)
            devices[i].ledger.chargeApp(joules: radioJoules + cpu)
            devices[i].ledger.end()
        }
        metrics.syncEnergy[Int(devices[i].cohort)].append(energy.milliampHours(joules: radioJoules + cpu))
    }

    // MARK: - Backend: the step store and the oracle

    /// `PUT /api/v1/steps/sync` (or the buggy `POST`) at the server: apply every day to the
    /// store, judge duplicates and lost days from ground truth, and measure latency.
    mutating func applyStepUpload(_ job: UInt32, _ upload: StepUpload) -> HTTPResult {
        let j = Int(job)
        let user = Int(jobs[j].device)
        var created = 0, updated = 0
        for entry in upload.days {
            let day = entry.date.daysSince1970
            switch upload.method {
            case .upsert:
                if stepStore.upsert(user: user, day: day, steps: entry.steps) { created += 1 } else { updated += 1 }
            case .insert:
                let rows = stepStore.insert(user: user, day: day, steps: entry.steps)
                created += 1
                observeStepRowInserted(user: user, rows: rows, date: entry.date, source: upload.source.rawValue)
            }
        }
        stepsReachedServer(user, readFrom: jobs[j].stepsReadFrom, readTo: jobs[j].stepsReadTo)
        return .ok(.stepsSynced(created: created, updated: updated))
    }

    /// A read up to `readTo` reached the server: the latency from the oldest step it
    /// brought, then the oracle judges the days it closes.
    private mutating func stepsReachedServer(_ user: Int, readFrom: SimTime, readTo: SimTime) {
        let through = devices[user].stepsSyncedThrough
        let oldest = firstStepAfter(user, max(through, readFrom))
        if oldest < readTo { metrics.stepsRecordedToSynced.record((now - oldest).microseconds) }
        if readTo > through { devices[user].stepsSyncedThrough = readTo }
        observeStepsReceived(user: user, readTo: readTo)
    }

    /// The first instant at or after `t` at which the user records steps.
    @inline(__always) private func firstStepAfter(_ i: Int, _ t: SimTime) -> SimTime {
        let sod = localTime(i, at: t).secondOfDay
        if HealthDataGenerator.isActive(secondOfDay: sod) { return t }
        var wait = HealthDataGenerator.activeFrom - sod
        if wait < 0 { wait += 86_400 }
        return t + .seconds(Int64(wait))
    }
}

extension StepSyncConfig {
    var configuration: StepSyncConfiguration {
        var c = StepSyncConfiguration()
        c.syncInterval = Interval(microseconds: syncInterval.microseconds)
        c.backfillLimit = Interval(microseconds: backfillLimit.microseconds)
        c.retryDelays = retryDelays.map { Interval(microseconds: $0.microseconds) }
        c.openSyncAge = Interval(microseconds: openSyncAge.microseconds)
        c.staleNotificationAge = Interval(microseconds: staleNotificationAge.microseconds)
        c.lowBatteryPercent = lowBatteryPercent
        return c
    }
}

extension StepSyncVariants {
    /// The `stepSync.*` names of a scenario's `logic.variants`.
    init(names: [String]) {
        self = []
        for name in names {
            switch name {
            case "stepSync.insertNotUpsert": insert(.insertNotUpsert)
            case "stepSync.advanceCursorOnFailure": insert(.advanceCursorOnFailure)
            case "stepSync.ignoresLowBattery": insert(.ignoresLowBattery)
            default: break
            }
        }
    }
}

extension BatteryModel.Habit {
    init(_ habit: ChargingHabit) {
        switch habit {
        case .overnight: self = .overnight
        case .topUps: self = .topUps
        case .rarely: self = .rarely
        }
    }
}
