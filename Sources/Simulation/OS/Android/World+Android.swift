import SimKernel
import AppLogic
import Platform

/// Android devices in the world: where the Android host's mechanisms (`AndroidHost`, its
/// files in this folder) hand on to another part, at the point they always did, so every
/// draw and schedule keeps its order. Doze releasing held work and FCM messages, a work's
/// job starting (the feature that declared it runs it: ``featureWorkRuns(_:_:_:)``) or
/// stopped (``featureWorkStopped(_:_:serial:)``), FCM handing messages to the app, the
/// manufacturer's policy ending the process; and Android's events and timers dispatched.
/// Doze (`docs/platform-facts.md` A) is driven by screen, charging, motion and network;
/// App Standby Buckets and JobScheduler quotas (B); the features' declared works
/// (``WorkID``) run as WorkManager unique periodic work (D).
extension World {
    /// Device `d`'s index in the Android host's arrays (-1 for an iOS device).
    func androidIndex(_ d: UInt32) -> Int { core.devices[Int(d)].androidIndex }

    /// Set-up at time zero (``AndroidHost/start(_:work:_:firstDue:core:)``), then the
    /// user's alarm clock, drawn from its own stream (`user.alarmClock`), the screen's
    /// and motion's first events, and the work's first look.
    mutating func startAndroid(_ d: UInt32, work: WorkID, _ request: PeriodicWork, firstDue: SimTime?) {
        android.start(d, work: work, request, firstDue: firstDue, core: &core)
        if android.setUpAlarmClock(d, core: &core) { setNextAlarmClockRing(d) }
        android.scheduleScreenSession(d, core: &core)
        android.scheduleMotion(d, core: &core)
        if firstDue != nil { android.scheduleWorkCheck(d, work, core: &core) }
    }

    mutating func androidEvent(_ event: AndroidEvent) {
        switch event {
        case .screenSessionStarts(let d):
            let (length, next) = android.drawScreenSession(d, length: true, at: now, core: &core)
            screenSession(d, length: length)
            if let next { android.scheduleNextSession(d, at: next, core: &core) }
        case .screenOff(let d, let generation):
            guard android.screenOff(d, generation: generation, core: &core) else { return }
            applyDoze(d, .screen(on: false))
            android.screenWentOff(d, core: &core)
        case .motion(let d):
            core.note(d, "OS: significant motion")
            applyDoze(d, .motion)
            android.scheduleMotion(d, core: &core)
        case .timer(let d, let generation, let timer):
            androidTimerFires(d, timer, generation: generation)
        case .jobStops(let d, let serial, let work):
            guard android.jobStopIsCurrent(d, serial: serial, work: work, core: &core) else { return }
            stopJob(d, work, serial: serial)
        }
    }

    /// An Android timer's event: stale ones are dropped (``AndroidHost/timerIsCurrent(_:_:generation:core:)``),
    /// current ones go to their mechanism.
    mutating func androidTimerFires(_ d: UInt32, _ timer: AndroidTimer, generation: UInt32) {
        guard android.timerIsCurrent(d, timer, generation: generation, core: &core) else { return }
        switch timer {
        case .doze:
            android.devices[androidIndex(d)].dozeTimerAt = nil
            applyDoze(d, .timer)
        case .bucket: android.bucketTimerFires(d, core: &core)
        case .work(let work): tryRunWork(d, work)
        case .oemKill: oemForceStop(d)
        case .batterySaverLevel: if android.updateAutoBatterySaver(d, core: &core) { batterySaverChanged(d) }
        case .alarmClock: alarmClockRings(d)
        }
    }

    // MARK: - Doze

    /// Feeds Doze one input (``AndroidHost/feedDoze(_:_:core:)``); when it stops holding
    /// background work back, every declared work may run and FCM hands over what it holds.
    mutating func applyDoze(_ d: UInt32, _ input: DozeInput) {
        guard android.feedDoze(d, input, core: &core) else { return }
        tryEveryWork(d)
        flushFCM(d)
    }

    /// The device went online or offline: Doze's light maintenance waits for network,
    /// and the work's network constraint.
    mutating func androidConnectivityChanged(_ d: UInt32) {
        applyDoze(d, .network(connected: core.devices[Int(d)].online))
        tryEveryWork(d)
    }

    /// Battery Saver (the `lowPowerMode` setting or fault, or its automatic schedule:
    /// AndroidHost+BatterySaver; `docs/platform-facts.md` E): Quick Doze, and background
    /// jobs wait while it is on.
    mutating func batterySaverChanged(_ d: UInt32) {
        applyDoze(d, .quickDoze(core.devices[Int(d)].lowPowerMode))
        tryEveryWork(d)
    }

    /// The user plugged the phone in or unplugged it (through the OS seam's
    /// `chargingChanged`): Battery Saver's automatic schedule turns off when plugged in,
    /// Doze leaves idle while charging and comes back unplugged, BatteryService's
    /// "battery low" clears, and every declared work may run (a charging job is exempt
    /// from the bucket's quota). The battery itself is the core's (Core/World+Energy).
    mutating func androidChargingChanged(_ d: UInt32) {
        if android.updateAutoBatterySaver(d, core: &core) { applyDoze(d, .quickDoze(core.devices[Int(d)].lowPowerMode)) }
        applyDoze(d, .charging(core.isCharging(Int(d))))
        android.updateBatteryLow(d, core: &core)
        tryEveryWork(d)
    }

    // MARK: - The user and the screen

    /// The user opens the app: strong usage for App Standby (ACTIVE, held 1 h), the
    /// screen on for the foreground session, and a force-stopped app runs again.
    mutating func androidAppOpened(_ d: UInt32) {
        let a = androidIndex(d)
        screenSession(d, length: World.foregroundSession)
        if android.devices[a].forceStopped {
            android.devices[a].forceStopped = false
            core.note(d, "OS: the app is no longer stopped (opened by the user)")
            tryEveryWork(d)
            if !android.dozeNow(d, core: &core).restrictsBackgroundWork { flushFCM(d) }
        }
        core.androidModels(d).buckets.appUsed(state: &android.devices[a].bucket, now: now)
        android.checkBucket(d, core: &core)
        android.armBucketTimer(d, core: &core)
    }

    /// A screen session of `length` starts now; Doze hears a screen turned on.
    mutating func screenSession(_ d: UInt32, length: SimDuration) {
        if android.screenSession(d, length: length, core: &core) { applyDoze(d, .screen(on: true)) }
    }

    // MARK: - Alarms

    /// The user's alarm clock's next ring is set (AndroidHost+AlarmClock): Doze is told.
    mutating func setNextAlarmClockRing(_ d: UInt32) {
        guard let ring = android.setNextAlarmClockRing(d, core: &core) else { return }
        applyDoze(d, .nextWakeFromIdleAlarm(ring))
        core.note(d) { c in "AlarmManager: alarm clock set for \(c.format(ring))" }
    }

    /// The alarm clock rings: the next day's is set (Doze then sees that one), and the
    /// device is awake, so a non-waking light Doze alarm whose window has opened fires.
    mutating func alarmClockRings(_ d: UInt32) {
        core.note(d, "AlarmManager: the alarm clock rings")
        setNextAlarmClockRing(d)
        applyDoze(d, .deviceAwake)
    }

    /// The manufacturer's policy force-stops the app (AndroidHost+OEMPolicy): the process
    /// dies (unpersisted writes lost), and no job, alarm or FCM message reaches it until
    /// the user opens it.
    mutating func oemForceStop(_ d: UInt32) {
        guard android.oemForceStops(d, core: &core) else { return }
        if core.devices[Int(d)].process != .terminated { terminate(d) }
        android.forceStopped(d, core: &core)
    }

    // MARK: - Work

    /// Tries every declared work, in id order (something lets due work run).
    @inline(__always) mutating func tryEveryWork(_ d: UInt32) {
        WorkID.forEach { tryRunWork(d, $0) }
    }

    /// Starts a work's job if it is due and every gate lets it
    /// (``AndroidHost/dueWork(_:_:core:)``, ``AndroidHost/jobMayStart(_:_:_:due:network:core:)``):
    /// Doze hears that a job is active, and the feature that declared the work runs it.
    mutating func tryRunWork(_ d: UInt32, _ work: WorkID) {
        guard let (due, request) = android.dueWork(d, work, core: &core) else { return }
        let i = Int(d)
        let network: WorkNetworkType = core.devices[i].online ? (core.onWiFi(i, at: now) ? .unmetered : .connected) : .notRequired
        guard let job = android.jobMayStart(d, work, request, due: due, network: network, core: &core) else { return }
        applyDoze(d, .jobsActive(true))
        android.devices[androidIndex(d)].jobsRunning |= work.bit
        featureWorkRuns(work, d, job)
    }

    /// JobScheduler's stop deadline for `work`'s job `serial` (its own stop,
    /// ``AndroidHost/runWorker(_:_:_:core:)``, or the app's task's deadline): `onStopped`,
    /// which the feature hears (``featureWorkStopped(_:_:serial:)``); then the job ends
    /// stopped by the system, if the feature has not ended it. The job is over for the OS
    /// either way (no watchdog kill on Android).
    mutating func stopJob(_ d: UInt32, _ work: WorkID, serial: UInt32) {
        core.metrics.platform.jobsStopped += 1
        android.devices[androidIndex(d)].jobsStopping |= work.bit
        featureWorkStopped(work, d, serial: serial)
        jobEnded(d, work, .stoppedBySystem)
    }

    /// `work` runs as a Worker of its own (``AndroidHost/runWorker(_:_:_:core:)``); returns its serial.
    mutating func runWorker(_ d: UInt32, _ work: WorkID, _ job: AndroidJobStart) -> UInt32 {
        android.runWorker(d, work, job, core: &core)
    }

    /// The job of `work` ended (``AndroidHost/jobEnded(_:_:_:core:)``): Doze hears whether
    /// jobs still run, which may end its maintenance window.
    mutating func jobEnded(_ d: UInt32, _ work: WorkID, _ ending: WorkRunEnd) {
        guard android.jobEnded(d, work, ending, core: &core) else { return }
        applyDoze(d, .jobsActive(android.devices[androidIndex(d)].jobsRunning != 0))
    }

    // MARK: - FCM

    /// Doze stopped restricting or the app was opened: FCM hands over what it holds, if
    /// anything (``AndroidHost/fcmMayHandOver(_:core:)``).
    mutating func flushFCM(_ d: UInt32) {
        guard android.fcmMayHandOver(d, core: &core) else { return }
        featuresHearReachable(d)
    }

    /// An FCM message reached the phone: a high-priority one temp-allow-lists the app
    /// (Doze hears it); a held one's wait is measured.
    mutating func fcmMessageArrived(_ d: UInt32, wakesApp: Bool, heldSince: SimTime) {
        if wakesApp {
            core.metrics.platform.fcmHighPriorityNow += 1
            core.note(d, "FCM: high-priority message; the app is temp-allow-listed")
            applyDoze(d, .highPriorityMessage)
        }
        if heldSince != SimTime.never { core.metrics.platform.fcmDeferral.record((now - heldSince).microseconds) }
    }
}
