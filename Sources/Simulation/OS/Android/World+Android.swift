import SimKernel
import AppLogic
import Platform

/// The app's two unique periodic works (World+Android, World+AndroidStepSync).
enum AndroidWork: UInt8 {
    /// Seed `000`'s refresh (the ``RefreshLogic`` worker).
    case refresh
    /// Seed `003`'s step sync (the ``StepSyncLogic`` worker).
    case stepSync
}

/// One unique periodic work as WorkManager keeps it (enqueued with KEEP).
struct AndroidWorkSlot {
    var spec: WorkSpecState
    var enqueued: Bool
    var timer = GenerationCounter()
    /// When the due work first found Doze holding it back, or nil.
    var deferredSince: SimTime?
}

/// The Android-only state of one device, kept out of ``Device`` so iOS devices stay small.
struct AndroidDevice {
    var doze: DozeState
    var dozeTimer = GenerationCounter()
    /// The deadline the pending Doze timer event was scheduled for.
    var dozeTimerAt: SimTime?
    var screen = ScreenState()
    var bucket: StandbyBucketState
    var lastBucket: StandbyBucket
    var bucketTimer = GenerationCounter()
    var quota = JobQuotaState()
    /// The refresh's WorkManager periodic work.
    var refresh: AndroidWorkSlot
    /// The step sync's WorkManager periodic work and the request it was enqueued with
    /// (the logic's `schedulePeriodicWork`); nil when never enqueued.
    var steps: AndroidWorkSlot
    var stepRequest: WorkRequest?
    /// The step-sync job runs; its serial tells a stale stop deadline apart.
    var stepJobRunning = false
    var stepJobSerial: UInt32 = 0
    /// The running refresh job was stopped by JobScheduler (WorkManager retries it).
    var stopping = false
    /// BatteryService's "battery low" flag (``BatteryLowMonitor``, REFERENCE.md E).
    var batteryLow = false
    /// The app was force-stopped by the manufacturer's policy; nothing runs until the next open.
    var forceStopped = false
    var oemTimer = GenerationCounter()
    /// FCM holds messages for this phone (Doze, a force-stop, or offline): look when that ends.
    var fcmWaiting = false
    /// Recent high-priority FCM messages, for the bucket's daily limit (``FCMDeliveryModel``).
    var fcmHighPriority: DeliveryLog
    /// The user turned on Battery Saver's automatic schedule (`android.batterySaverAuto`).
    var batterySaverAuto = false
    /// The pending "battery reaches 15 %" event (World+BatterySaver).
    var batterySaverTimer = GenerationCounter()
    /// The stale-sync alarm's requested time while one is pending (World+WhileIdleAlarm).
    var alarmDue: SimTime?
    /// The alarm waits for Doze (the limiter or the next maintenance window).
    var alarmHeld = false
    /// The app's while-idle alarm deliveries (``WhileIdleAlarmLimiter``), created at the first.
    var whileIdleLog: DeliveryLog?
    var screenStream: RandomStream
    var motionStream: RandomStream

    /// One work's slot, borrowed in place (a plain getter would copy the whole device,
    /// retaining its arrays, at every look).
    subscript(work: AndroidWork) -> AndroidWorkSlot {
        _read { if work == .refresh { yield refresh } else { yield steps } }
        _modify { if work == .refresh { yield &refresh } else { yield &steps } }
    }
}

/// Android events, dispatched by ``World/androidEvent(_:)``.
enum AndroidEvent {
    case screenSessionStarts(device: UInt32)
    case screenOff(device: UInt32, generation: UInt32)
    case motion(device: UInt32)
    case dozeTimer(device: UInt32, generation: UInt32)
    case bucketTimer(device: UInt32, generation: UInt32)
    case workCheck(device: UInt32, work: AndroidWork, generation: UInt32)
    /// JobScheduler's stop deadline of the step-sync job `serial`.
    case stepJobStops(device: UInt32, serial: UInt32)
    /// The manufacturer's policy force-stops the app (``OEMBackgroundPolicy``).
    case oemKill(device: UInt32, generation: UInt32)
    /// The battery reached Battery Saver's automatic level, unplugged.
    case batterySaverLevel(device: UInt32, generation: UInt32)
}

/// Android devices: Doze (`REFERENCE.md` A) driven by screen, charging, motion and
/// network; App Standby Buckets and JobScheduler quotas (B); and the app's refresh as
/// WorkManager periodic work (D): the real ``RefreshLogic`` runs as the worker. Its
/// `scheduleRefresh` effect enqueues unique periodic work (KEEP: an enqueued request is
/// kept), a run is `taskLaunched`, and JobScheduler's stop deadline (10 min, or less when
/// the bucket's quota runs out) replaces iOS's 30 s expiration.
extension World {
    func androidIndex(_ d: UInt32) -> Int { Int(devices[Int(d)].android) }
    @inline(__always) func models(_ d: UInt32) -> AndroidModels { cohorts[Int(devices[Int(d)].cohort)].android! }

    /// Set-up at time zero: the screen is off, the app was last used a drawn while ago
    /// (**assumption**: an exponential gap of the cohort's mean time between opens), and
    /// the refresh work was enqueued before the run with its next run due at `firstDue`.
    mutating func startAndroid(_ d: UInt32, firstDue: SimTime) {
        let i = Int(d)
        let m = models(d)
        var setup = RandomStream(seed: scenario.seed, entity: UInt64(d), purpose: "android.setup")
        let opens = cohorts[Int(devices[i].cohort)].usage.appOpensPerDay
        let sinceUse = opens > 0 ? SimDuration.fromSeconds(setup.exponential(mean: 86_400 / opens)) : .days(30)
        let batterySaverAuto = setup.chance(m.batterySaverAuto)
        let bucket = StandbyBucketState(lastUsedAt: .zero - sinceUse)
        let interval: SimDuration
        if case .periodic(let i, _) = m.refreshWork.kind { interval = i } else { interval = .zero }
        var work = WorkSpecState(enqueuedAt: firstDue - interval)
        m.workManager.runFinished(m.refreshWork, &work, result: .success, now: firstDue - interval)
        devices[i].android = Int32(androids.count)
        androids.append(AndroidDevice(
            doze: DozeState(config: m.doze.config), bucket: bucket, lastBucket: m.buckets.bucket(bucket, at: .zero),
            refresh: AndroidWorkSlot(spec: work, enqueued: true),
            steps: AndroidWorkSlot(spec: WorkSpecState(enqueuedAt: .zero), enqueued: false),
            fcmHighPriority: m.fcm.makeLog(),
            screenStream: RandomStream(seed: scenario.seed, entity: UInt64(d), purpose: "user.screen"),
            motionStream: RandomStream(seed: scenario.seed, entity: UInt64(d), purpose: "user.motion")))
        androids[Int(devices[i].android)].batterySaverAuto = batterySaverAuto
        note(d, "OS: Android; standby bucket \(androids[Int(devices[i].android)].lastBucket); refresh work due \(format(firstDue))")
        updateAutoBatterySaver(d)
        if devices[i].lowPowerMode { applyDoze(d, .quickDoze(true)) }
        if isCharging(i) { applyDoze(d, .charging(true)) }
        applyDoze(d, .screen(on: false))
        armOEMKill(d)
        armBucketTimer(d)
        scheduleScreenSession(d)
        scheduleMotion(d)
        scheduleWorkCheck(d, .refresh)
    }

    mutating func androidEvent(_ event: AndroidEvent) {
        switch event {
        case .screenSessionStarts(let d):
            let a = androidIndex(d)
            let length = cohorts[Int(devices[Int(d)].cohort)].users.sessionLength(rng: &androids[a].screenStream)
            screenSession(d, length: length)
            scheduleScreenSession(d)
        case .screenOff(let d, let generation):
            let a = androidIndex(d)
            guard androids[a].screen.offTimerFires(now: now, generation: generation) else { return }
            note(d, "OS: screen off")
            models(d).buckets.screen(on: false, state: &androids[a].bucket, now: now)
            applyDoze(d, .screen(on: false))
            armOEMKill(d)
            checkBucket(d)
            armBucketTimer(d)
        case .motion(let d):
            note(d, "OS: significant motion")
            applyDoze(d, .motion)
            scheduleMotion(d)
        case .dozeTimer(let d, let generation):
            let a = androidIndex(d)
            guard androids[a].dozeTimer.isCurrent(generation) else { return }
            androids[a].dozeTimerAt = nil
            applyDoze(d, .timer)
        case .bucketTimer(let d, let generation):
            guard androids[androidIndex(d)].bucketTimer.isCurrent(generation) else { return }
            checkBucket(d)
            armBucketTimer(d)
        case .workCheck(let d, let work, let generation):
            // `slot` copies the one slot; the `[work]` read accessor copied the whole device.
            guard slot(androidIndex(d), work).timer.isCurrent(generation) else { return }
            tryRunWork(d, work)
        case .stepJobStops(let d, let serial):
            let a = androidIndex(d)
            guard androids[a].stepJobRunning, androids[a].stepJobSerial == serial else { return }
            metrics.platform.jobsStopped += 1
            note(d, "JobScheduler: step-sync job \(serial) stopped at its deadline")
            stepJobEnded(d, result: .retry)
        case .oemKill(let d, let generation):
            guard androids[androidIndex(d)].oemTimer.isCurrent(generation) else { return }
            oemForceStop(d)
        case .batterySaverLevel(let d, let generation):
            guard androids[androidIndex(d)].batterySaverTimer.isCurrent(generation) else { return }
            if updateAutoBatterySaver(d) { batterySaverChanged(d) }
        }
    }

    // MARK: - The user and the screen

    /// The user opens the app: strong usage for App Standby (ACTIVE, held 1 h) and the
    /// screen on for the foreground session.
    mutating func androidAppOpened(_ d: UInt32) {
        let a = androidIndex(d)
        screenSession(d, length: World.foregroundSession)
        if androids[a].forceStopped {
            androids[a].forceStopped = false
            note(d, "OS: the app is no longer stopped (opened by the user)")
            tryRunWork(d, .refresh)
            tryRunWork(d, .stepSync)
            if !androids[a].doze.restrictsBackgroundWork { flushFCM(d) }
        }
        models(d).buckets.appUsed(state: &androids[a].bucket, now: now)
        checkBucket(d)
        armBucketTimer(d)
    }

    /// A posted notification is seen: WORKING_SET for 12 h (`REFERENCE.md` B).
    mutating func androidNotificationSeen(_ d: UInt32) {
        models(d).buckets.notificationSeen(state: &androids[androidIndex(d)].bucket, now: now)
        checkBucket(d)
        armBucketTimer(d)
    }

    private mutating func screenSession(_ d: UInt32, length: SimDuration) {
        let a = androidIndex(d)
        switch androids[a].screen.sessionStarts(now: now, length: length) {
        case .turnedOn(let offAt, let generation):
            note(d, "OS: screen on")
            androids[a].oemTimer.cancel()
            models(d).buckets.screen(on: true, state: &androids[a].bucket, now: now)
            clock.schedule(.android(.screenOff(device: d, generation: generation)), at: offAt)
            applyDoze(d, .screen(on: true))
        case .extended(let offAt, let generation):
            clock.schedule(.android(.screenOff(device: d, generation: generation)), at: offAt)
        case .unchanged:
            break
        }
    }

    private mutating func scheduleScreenSession(_ d: UInt32) {
        let i = Int(d), a = androidIndex(d)
        let users = cohorts[Int(devices[i].cohort)].users
        guard let at = users.nextScreenSession(after: now, rng: &androids[a].screenStream,
                                               zone: &localZones[Int(devices[i].clock.location)], startUnixSeconds: startUnixSeconds)
        else { return }
        clock.schedule(.android(.screenSessionStarts(device: d)), at: at)
    }

    /// **Assumption** (`android.motionEventsPerDay`): significant motion on the diurnal curve.
    private mutating func scheduleMotion(_ d: UInt32) {
        let i = Int(d), a = androidIndex(d)
        let c = cohorts[Int(devices[i].cohort)]
        guard let at = c.users.nextArrival(after: now, perDay: c.android!.motionEventsPerDay, rng: &androids[a].motionStream,
                                           zone: &localZones[Int(devices[i].clock.location)], startUnixSeconds: startUnixSeconds)
        else { return }
        clock.schedule(.android(.motion(device: d)), at: at)
    }

    // MARK: - Doze

    /// Feeds Doze one input, traces its transitions, keeps its one timer event current,
    /// and lets due work run when Doze stops holding it back.
    mutating func applyDoze(_ d: UInt32, _ input: DozeInput) {
        let a = androidIndex(d)
        dozeTransitions.removeAll(keepingCapacity: true)
        models(d).doze.handle(input, state: &androids[a].doze, now: now, into: &dozeTransitions)
        let changed = !dozeTransitions.isEmpty
        for transition in dozeTransitions {
            switch transition {
            case .deep(let state):
                if state == .idle { metrics.platform.dozeDeepIdleEntries += 1 }
                if state == .idleMaintenance { metrics.platform.dozeMaintenanceWindows += 1 }
                note(d, "Doze: deep \(state)")
            case .light(let state):
                if state == .idleMaintenance { metrics.platform.dozeMaintenanceWindows += 1 }
                note(d, "Doze: light \(state)")
            }
        }
        let next = androids[a].doze.nextDeadline
        if next != androids[a].dozeTimerAt {
            androids[a].dozeTimerAt = next
            let generation = androids[a].dozeTimer.arm()
            if let next { clock.schedule(.android(.dozeTimer(device: d, generation: generation)), at: max(next, now)) }
        }
        if changed, androids[a].alarmHeld, androids[a].doze.deep != .idle { releaseHeldAlarm(d) }
        if changed, !androids[a].doze.restrictsBackgroundWork {
            tryRunWork(d, .refresh)
            tryRunWork(d, .stepSync)
            flushFCM(d)
        }
    }

    /// The device went online or offline: Doze's light maintenance waits for network,
    /// and the work's network constraint.
    mutating func androidConnectivityChanged(_ d: UInt32) {
        applyDoze(d, .network(connected: devices[Int(d)].online))
        tryRunWork(d, .refresh)
        tryRunWork(d, .stepSync)
    }

    /// Battery Saver (the `lowPowerMode` setting or fault, or its automatic schedule:
    /// World+BatterySaver; `REFERENCE.md` E): Quick Doze,
    /// and background jobs wait while it is on.
    mutating func batterySaverChanged(_ d: UInt32) {
        applyDoze(d, .quickDoze(devices[Int(d)].lowPowerMode))
        tryRunWork(d, .refresh)
        tryRunWork(d, .stepSync)
    }

    // MARK: - Standby buckets

    /// The app's bucket now; a change is traced and counted.
    @discardableResult
    private mutating func checkBucket(_ d: UInt32) -> StandbyBucket {
        let a = androidIndex(d)
        let bucket = models(d).buckets.bucket(androids[a].bucket, at: now)
        guard bucket != androids[a].lastBucket else { return bucket }
        note(d, "App Standby: bucket \(androids[a].lastBucket) → \(bucket)")
        metrics.platform.bucketChanges += 1
        androids[a].lastBucket = bucket
        return bucket
    }

    /// The next moment the bucket can change with the screen as it is now. Screen-on
    /// thresholds reached during a screen session are applied at its end (the bucket
    /// used for quotas is always computed exactly).
    private mutating func armBucketTimer(_ d: UInt32) {
        let a = androidIndex(d)
        let generation = androids[a].bucketTimer.arm()
        guard let at = models(d).buckets.nextChange(androids[a].bucket, after: now) else { return }
        clock.schedule(.android(.bucketTimer(device: d, generation: generation)), at: at)
    }

    // MARK: - WorkManager and JobScheduler

    /// `enqueueUniquePeriodicWork(KEEP, …)` with the logic's `earliestBegin` as the first
    /// run (its initial delay).
    mutating func enqueueRefreshWork(_ d: UInt32, earliestBegin: SimTime) {
        let a = androidIndex(d)
        guard !androids[a].refresh.enqueued else {
            note(d, "WorkManager: periodic refresh work already enqueued (KEEP)")
            return
        }
        androids[a].refresh.enqueued = true
        androids[a].refresh.spec = WorkSpecState(enqueuedAt: max(earliestBegin, now))
        note(d, "WorkManager: periodic refresh work enqueued, first run from \(format(max(earliestBegin, now)))")
        scheduleWorkCheck(d, .refresh)
    }

    mutating func cancelRefreshWork(_ d: UInt32) {
        let a = androidIndex(d)
        androids[a].refresh.enqueued = false
        androids[a].refresh.deferredSince = nil
        androids[a].refresh.timer.cancel()
        note(d, "WorkManager: periodic refresh work cancelled")
    }

    /// The request a work was enqueued with.
    @inline(__always) private func request(_ m: AndroidModels, _ a: Int, _ work: AndroidWork) -> WorkRequest? {
        work == .refresh ? m.refreshWork : androids[a].stepRequest
    }

    /// A copy of one work's slot (plain values: no retain).
    @inline(__always) func slot(_ a: Int, _ work: AndroidWork) -> AndroidWorkSlot {
        work == .refresh ? androids[a].refresh : androids[a].steps
    }

    mutating func scheduleWorkCheck(_ d: UInt32, _ work: AndroidWork) {
        let a = androidIndex(d)
        guard slot(a, work).enqueued else { return }
        let m = models(d)
        guard let request = request(m, a, work), let due = m.workManager.nextRunTime(request, slot(a, work).spec) else { return }
        let generation = androids[a][work].timer.arm()
        clock.schedule(.android(.workCheck(device: d, work: work, generation: generation)), at: max(due, now))
    }

    /// BatteryService's "battery low" now (``BatteryLowMonitor``: set at ≤ 15 % unplugged,
    /// cleared plugged in or at ≥ 20 %, `REFERENCE.md` E), kept for the hysteresis.
    mutating func updateBatteryLow(_ d: UInt32) {
        let i = Int(d), a = androidIndex(d)
        let level = cohorts[Int(devices[i].cohort)].battery.percent(devices[i].battery, at: now)
        androids[a].batteryLow = models(d).batteryLow.isLow(levelPercent: level, plugged: isCharging(i), wasLow: androids[a].batteryLow)
    }

    /// Starts a work's job if it is due and every gate of `REFERENCE.md` A, B, D and E
    /// lets it: not force-stopped, constraints (network, battery not low), Battery Saver,
    /// Doze (maintenance windows only, unless temp-allow-listed), and the bucket's quota
    /// (charging and foreground exempt).
    mutating func tryRunWork(_ d: UInt32, _ work: AndroidWork) {
        let i = Int(d), a = androidIndex(d)
        let running = work == .refresh ? devices[i].task.running : androids[a].stepJobRunning
        guard slot(a, work).enqueued, !running, !androids[a].forceStopped else { return }
        let m = models(d)
        guard let request = request(m, a, work), let due = m.workManager.nextRunTime(request, slot(a, work).spec), due <= now else { return }
        if request.constraints.requiresBatteryNotLow { updateBatteryLow(d) }
        let network: WorkNetworkType = devices[i].online ? (onWiFi(i, at: now) ? .unmetered : .connected) : .notRequired
        let conditions = DeviceConditions(network: network, charging: isCharging(i), batteryLow: androids[a].batteryLow)
        guard m.workManager.constraintsMet(request.constraints, conditions) else {
            return note(d, "WorkManager: \(work) due; waiting for its constraints (network \(network), battery low \(androids[a].batteryLow))")
        }
        guard !devices[i].lowPowerMode else { return note(d, "WorkManager: \(work) due; held back by Battery Saver") }
        let doze = androids[a].doze
        if doze.restrictsBackgroundWork, !doze.isAllowListed(at: now) {
            if slot(a, work).deferredSince == nil {
                androids[a][work].deferredSince = now
                metrics.platform.dozeDeferrals += 1
                note(d, "WorkManager: \(work) due; deferred by Doze (deep \(doze.deep), light \(doze.light)) to a maintenance window")
            }
            return
        }
        let bucket = checkBucket(d)
        let exempt = isCharging(i) || (devices[i].process == .running && now < devices[i].foregroundUntil)
        guard m.quota.mayStart(androids[a].quota, bucket: bucket, now: now, exempt: exempt) else {
            metrics.platform.quotaDeferrals += 1
            let generation = androids[a][work].timer.arm()
            clock.schedule(.android(.workCheck(device: d, work: work, generation: generation)), after: m.quotaRecheck)
            return note(d, "JobScheduler: \(work) due; the \(bucket) bucket's quota is used up; looks again in \(m.quotaRecheck)")
        }
        if let since = slot(a, work).deferredSince {
            metrics.platform.dozeDeferral.record((now - since).microseconds)
            androids[a][work].deferredSince = nil
        }
        metrics.platform.workManagerDelay.record((now - due).microseconds)
        m.quota.jobStarted(&androids[a].quota, now: now)
        let deadline = m.quota.stopDeadline(androids[a].quota, bucket: bucket, startedAt: now, now: now, exempt: exempt)
        applyDoze(d, .jobsActive(true))
        switch work {
        case .refresh:
            metrics.platform.androidLaunchesByBucket[bucket.rawValue] += 1
            beginRefreshTask(d)
            clock.schedule(.refreshExpires(device: d, serial: devices[i].task.serial), at: deadline)
            note(d, "WorkManager: refresh runs as job \(devices[i].task.serial) (bucket \(bucket), \(now - due) after due); JobScheduler stops it at \(format(deadline))")
            deliverTaskLaunched(d)
        case .stepSync:
            metrics.platform.stepSyncJobs += 1
            androids[a].stepJobRunning = true
            androids[a].stepJobSerial &+= 1
            clock.schedule(.android(.stepJobStops(device: d, serial: androids[a].stepJobSerial)), at: deadline)
            note(d, "WorkManager: step sync runs as job \(androids[a].stepJobSerial) (bucket \(bucket), \(now - due) after due); JobScheduler stops it at \(format(deadline))")
            startStepWorker(d)
        }
    }

    /// JobScheduler's stop deadline: `onStopped`, which the logic hears as its expiration.
    /// The job is over for the OS either way (no watchdog kill on Android).
    mutating func stopRefreshJob(_ d: UInt32) {
        let i = Int(d)
        metrics.platform.jobsStopped += 1
        androids[androidIndex(d)].stopping = true
        note(d, "JobScheduler: job \(devices[i].task.serial) stopped at its deadline")
        deliver(d, .taskExpired)
        if devices[i].task.running { endTask(d) }
    }

    /// The job ended (completed, stopped or killed with the app): the quota session
    /// closes, WorkManager records the result (a completed run starts the next period;
    /// **assumption**: a stopped or killed run is retried with backoff, as WorkManager
    /// counts the attempt at its start) and Doze may end its maintenance window.
    mutating func refreshJobEnded(_ d: UInt32) {
        let i = Int(d), a = androidIndex(d)
        let result: WorkResult = androids[a].stopping || devices[i].task.completions == 0 ? .retry : .success
        androids[a].stopping = false
        jobEnded(d, .refresh, result: result)
    }

    /// A job of `work` ended with `result` (the Worker's `Result`): quota, WorkManager's
    /// next run or backoff, and Doze's view of running jobs.
    mutating func jobEnded(_ d: UInt32, _ work: AndroidWork, result: WorkResult) {
        let i = Int(d), a = androidIndex(d)
        let m = models(d)
        m.quota.jobStopped(&androids[a].quota, now: now)
        if let request = request(m, a, work) {
            m.workManager.runFinished(request, &androids[a][work].spec, result: result, now: now)
            if let next = m.workManager.nextRunTime(request, slot(a, work).spec) {
                note(d, "WorkManager: \(work) run ended (\(result)); next run due \(format(next))")
            }
        }
        scheduleWorkCheck(d, work)
        applyDoze(d, .jobsActive(devices[i].task.running || androids[a].stepJobRunning))
    }

    // MARK: - The manufacturer's policy

    /// Arms the force-stop of an `OEMBackgroundPolicy` that kills background apps, from
    /// the screen going off (none under `stock`).
    private mutating func armOEMKill(_ d: UInt32) {
        let a = androidIndex(d)
        guard !androids[a].forceStopped, let at = models(d).oem.killTime(screenOffAt: now) else { return }
        let generation = androids[a].oemTimer.arm()
        clock.schedule(.android(.oemKill(device: d, generation: generation)), at: at)
    }

    /// The screen has been off the policy's time: unless the app is in the foreground,
    /// it is force-stopped: the process dies (unpersisted writes lost), and no job,
    /// alarm or FCM message reaches it until the user opens it.
    private mutating func oemForceStop(_ d: UInt32) {
        let i = Int(d), a = androidIndex(d)
        guard !androids[a].screen.isOn, !(devices[i].process == .running && now < devices[i].foregroundUntil) else { return }
        metrics.platform.oemForceStops += 1
        note(d, "OS: the manufacturer's policy force-stops the app")
        if devices[i].process != .terminated { terminate(d) }
        androids[a].forceStopped = true
        cancelWhileIdleAlarm(d)
    }
}

extension World {
    /// Memory of one Android device's extra state (its quota history arrays not included).
    public static var bytesPerAndroidDevice: Int { MemoryLayout<AndroidDevice>.stride }
}
