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
    case retryTimerFires(device: UInt32, generation: UInt32)
    /// The scheduled "not synced for 24 h" notification's trigger.
    case staleNotificationFires(device: UInt32, generation: UInt32)
    /// A HealthKit wake's background time is over (work finished, or its budget spent).
    case wakeEnds(device: UInt32, generation: UInt32)
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
    /// **Assumption**: a HealthKit wake gets the same 30 s as a refresh task (`REFERENCE.md` F);
    /// the app is suspended `suspensionDelay` after the work finishes, or at the budget's end.
    static let healthDeliveryBudget = SimDuration.seconds(30)
    /// **Assumption**: the app synced sometime in the last 2 h (the seed's interval) before the run.
    static let initialSyncAge = SimDuration.hours(2)
    /// **Assumption**: how long every phone has been up when the run starts (a week: longer
    /// than any stamp set before the run, so each is on this boot's clock).
    static let bootedBeforeStart = SimDuration.days(7)

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
        devices[i].firstJudgedDay = synced.day
        _ = stepStore.upsert(user: i, day: synced.day, steps: health.steps(user: i, day: synced.day, before: synced.day, secondOfDay: synced.secondOfDay))
        devices[i].stepsJudgedThrough = devices[i].firstJudgedDay - 1
        setStaleNotification(d, at: lastSync + scenario.logic.stepSync.staleNotificationAge)
        if devices[i].android >= 0 { startAndroidStepWork(d, lastSync: lastSync) } else { scheduleHealthDelivery(d) }
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
        case .retryTimerFires(let d, let generation):
            let i = Int(d)
            guard devices[i].stepRetry.isCurrent(generation) else { return }
            // A suspended app's timers do not run, and a terminated app's are gone:
            // the next trigger syncs instead (seed `003`: "wait for next scheduled sync").
            guard devices[i].process == .running else {
                note(d, "retry timer due but the app is not running")
                return
            }
            let context = stepContext(i)
            deliverStep(d, .retryTimerFired(context))
        case .staleNotificationFires(let d, let generation):
            guard devices[Int(d)].staleNotice.isCurrent(generation) else { return }
            // Android: a while-idle alarm, which deep Doze may hold (World+WhileIdleAlarm).
            if devices[Int(d)].android >= 0, !whileIdleAlarmFires(d) { return }
            postStaleSyncNotification(d)
        case .wakeEnds(let d, let generation):
            let i = Int(d)
            guard devices[i].stepWake.isCurrent(generation), devices[i].process == .running,
                  now >= devices[i].foregroundUntil, !devices[i].task.running, !stepJobHoldsProcess(i) else { return }
            suspend(d)
        }
    }

    private mutating func scheduleHealthDelivery(_ d: UInt32) {
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
        let generation = devices[i].stepWake.arm()
        let context = stepContext(i)
        deliverStep(d, .healthDataDelivered(context))
        // Work still under way (no `finishWork` yet): its budget ends it at the latest.
        if devices[i].stepWake.isCurrent(generation) {
            clock.schedule(.stepSync(.wakeEnds(device: d, generation: generation)), after: World.healthDeliveryBudget)
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
            timeZoneIdentifier: timeZones[Int(devices[i].clock.timeZone)],
            source: devices[i].android >= 0 ? .googleFit : .healthKit)
    }

    /// Hands one input to the device's step sync and carries out its effects in order.
    /// A health-data read is answered at once (a local query), as the next input.
    mutating func deliverStep(_ d: UInt32, _ first: StepSyncInput) {
        let i = Int(d)
        var next: StepSyncInput? = first
        while let input = next {
            next = nil
            note(d, "step sync <- \(input)")
            stepEffects.removeAll(keepingCapacity: true)
            stepLogic.handle(input, state: &devices[i].stepSync, now: deviceTime(i, at: now), into: &stepEffects)
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
            // iOS has no periodic work: BGTaskScheduler and HealthKit deliveries drive the sync.
            if devices[i].android >= 0 { enqueueStepWork(d, interval: interval, constraints: constraints) }
        case .readHealthData(let from, let to):
            let clockModel = devices[i].clock
            devices[i].stepsReadFrom = clockModel.trueTime(ofWall: from.unixMicroseconds, startUnixSeconds: startUnixSeconds)
            devices[i].stepsReadTo = clockModel.trueTime(ofWall: to.unixMicroseconds, startUnixSeconds: startUnixSeconds)
            return .healthDataRead(World.healthData(health, user: i, from: devices[i].stepsReadFrom, to: devices[i].stepsReadTo,
                                                    calendar: calendars[Int(devices[i].homeTimeZone)], startUnixSeconds: startUnixSeconds))
        case .httpRequest(let id, let endpoint):
            metrics.stepUploads += 1
            let battery = cohorts[Int(devices[i].cohort)].battery
            let low = battery.isLow(devices[i].battery, at: now)
            verify(!low, .syncedOnLowBattery, device: i, time: now,
                   detail: low ? "step upload at \(String(format: "%.1f", battery.percent(devices[i].battery, at: now))) % battery, unplugged" : nil)
            send(d, id, endpoint)
        case .startRetryTimer(let after):
            let generation = devices[i].stepRetry.arm()
            clock.schedule(.stepSync(.retryTimerFires(device: d, generation: generation)), after: SimDuration(microseconds: after.microseconds))
        case .cancelRetryTimer:
            devices[i].stepRetry.cancel()
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
            if devices[i].android >= 0 { stepWorkerFinished(d, success: success); break }
            // HealthKit's completion handler: the app may be suspended shortly.
            let generation = devices[i].stepWake.arm()
            clock.schedule(.stepSync(.wakeEnds(device: d, generation: generation)), after: World.suspensionDelay)
        }
        return nil
    }

    /// Daily totals of `[from, to)` by local date, as HealthKit's statistics query answers.
    /// Static, on the user's calendar: as a method reading `self` it made Swift copy the
    /// whole `World` per read.
    private static func healthData(_ health: HealthDataGenerator, user i: Int, from: SimTime, to: SimTime,
                                   calendar: LocalCalendar, startUnixSeconds: Int64) -> [DailySteps] {
        guard from < to else { return [] }
        let start = localTime(from, calendar: calendar, startUnixSeconds: startUnixSeconds)
        let end = localTime(to, calendar: calendar, startUnixSeconds: startUnixSeconds)
        guard start.day <= end.day, end.day - start.day <= Int32(StepStore.daysKept) else { return [] }
        var days: [DailySteps] = []
        days.reserveCapacity(Int(end.day - start.day) + 1)
        for day in start.day...end.day {
            var steps = health.steps(user: i, day: day, before: end.day, secondOfDay: end.secondOfDay)
            if day == start.day { steps -= health.steps(user: i, day: day, before: start.day, secondOfDay: start.secondOfDay) }
            days.append(DailySteps(date: LocalDate(daysSince1970: day), steps: steps))
        }
        return days
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
        deliverStep(d, .httpResponse(request, .failed(.connectionLost)))
    }

    /// Termination: the sync in flight and its timers die with the process; the state
    /// comes back from what reached the disk.
    mutating func terminateStepSync(_ d: UInt32) {
        let i = Int(d)
        devices[i].stepSync = StepSyncState(persisted: devices[i].stepDurable)
        devices[i].stepRetry.cancel()
        devices[i].stepWake.cancel()
        // WorkManager reruns a Worker killed with its process (backoff).
        if stepJobHoldsProcess(i) { stepJobEnded(d, result: .retry) }
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
                verify(rows <= 1, .duplicateStepRows, device: user, time: now,
                       detail: rows <= 1 ? nil : "\(rows) rows for (user \(user), \(entry.date), \(upload.source.rawValue))")
            }
        }
        judgeSyncedSteps(user, readFrom: jobs[j].stepsReadFrom, readTo: jobs[j].stepsReadTo)
        return .ok(.stepsSynced(created: created, updated: updated))
    }

    /// `stepsNeverSynced`: once the server holds a read that ended at `readTo`, every
    /// local day that ended before it and began within the 30 days before it must hold its
    /// whole true total. Each day is judged once, at the first upload after it ended.
    /// Devices whose clock or zone was moved by a fault are not judged (their local days
    /// no longer match the truth's).
    private mutating func judgeSyncedSteps(_ user: Int, readFrom: SimTime, readTo: SimTime) {
        // Latency: from the oldest step this upload brought to the server to now.
        let through = devices[user].stepsSyncedThrough
        let oldest = firstStepAfter(user, max(through, readFrom))
        if oldest < readTo { metrics.stepsRecordedToSynced.record((now - oldest).microseconds) }
        if readTo > through { devices[user].stepsSyncedThrough = readTo }

        guard !devices[user].calendarDisturbed else { return }
        let end = localTime(user, at: readTo).day
        let windowStart = localTime(user, at: readTo - scenario.logic.stepSync.backfillLimit).day + 1
        var day = max(windowStart, devices[user].stepsJudgedThrough + 1, devices[user].firstJudgedDay)
        while day < end {
            let truth = health.dailyTotal(user: user, day: day)
            let stored = stepStore.steps(user: user, day: day)
            let holds = stored.map { $0 >= truth } ?? false
            verify(holds, .stepsNeverSynced, device: user, time: now,
                   detail: holds ? nil : "\(LocalDate(daysSince1970: day)): \(truth) true steps, the server has \(stored.map(String.init) ?? "no row"), although a read up to \(format(readTo)) reached it")
            day += 1
        }
        if end - 1 > devices[user].stepsJudgedThrough { devices[user].stepsJudgedThrough = end - 1 }
    }

    /// The first instant at or after `t` at which the user records steps.
    @inline(__always) private func firstStepAfter(_ i: Int, _ t: SimTime) -> SimTime {
        let sod = localTime(i, at: t).secondOfDay
        if HealthDataGenerator.isActive(secondOfDay: sod) { return t }
        var wait = HealthDataGenerator.activeFrom - sod
        if wait < 0 { wait += 86_400 }
        return t + .seconds(Int64(wait))
    }

    // MARK: - Time

    /// The device's clocks as the app reads them at true time `t`: the wall clock
    /// (skew included) and the boot clock, which counts true time since the boot.
    /// **Assumption**: every device booted `World.bootedBeforeStart` before the run and
    /// none reboots during it (the simulator models no reboots), so the boot is 1.
    func deviceTime(_ i: Int, at t: SimTime) -> DeviceTime {
        DeviceTime(wall: Instant(unixMicroseconds: devices[i].clock.wallMicroseconds(at: t, startUnixSeconds: startUnixSeconds)),
                   sinceBoot: Interval(microseconds: t.microseconds + World.bootedBeforeStart.microseconds), boot: 1)
    }

    /// Local date and clock time of true time `t` in the user's home zone (the zone the
    /// health data and the battery habits follow).
    @inline(__always) func localTime(_ i: Int, at t: SimTime) -> (day: Int32, secondOfDay: Int) {
        World.localTime(t, calendar: calendars[Int(devices[i].homeTimeZone)], startUnixSeconds: startUnixSeconds)
    }

    /// Local date and clock time of true time `t` on `calendar`.
    static func localTime(_ t: SimTime, calendar: LocalCalendar, startUnixSeconds: Int64) -> (day: Int32, secondOfDay: Int) {
        let unix = startUnixSeconds + (t.microseconds >= 0 ? t.microseconds / 1_000_000 : (t.microseconds - 999_999) / 1_000_000)
        return calendar.local(atUnix: unix)
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
