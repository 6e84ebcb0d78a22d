import SimKernel
import AppLogic
import Platform

/// The OS seam: the one place that asks which platform a device runs. The core and the
/// features tell the OS what happened (an open, a charger, connectivity, work to submit,
/// a notification shown) and ask it what it allows, only through these calls; each goes
/// to iOS (OS/iOS: BGTaskScheduler and the launch policy on the core's state, HealthKit
/// wakes) or the Android host (`World.android`, OS/Android: Doze, standby buckets,
/// WorkManager, FCM delivery, Battery Saver, while-idle alarms). What iOS decides that
/// another part carries out (a task's launch and expiration, a watchdog kill, a
/// force-quit) is carried out here, at the point it is decided; Android's, in
/// OS/Android/World+Android.swift. A new OS behaviour goes into its host's folder and
/// is reached from here.
extension WorldCore {
    /// Whether the user force-quit the app and has not opened it since (iOS: the launch
    /// policy's state, `docs/platform-facts.md` F; Android has no such state): for a host that
    /// sees only the core (the iOS throttle of silent notifications).
    @inline(__always) func userForceQuitApp(_ i: Int) -> Bool {
        let slot = launchPolicySlot(i)
        return slot >= 0 && launchPolicies[slot].forceQuit
    }

    /// How long after device `i`'s app finished its background work the OS suspends it
    /// (iOS: `ios.suspensionDelay`, 0 s by default, `BGTask.h`: "as soon as all
    /// background tasks are complete") or caches it (Android: ``AndroidHost/cachedAfterWork``).
    @inline(__always) func suspensionDelay(_ i: Int) -> SimDuration {
        devices[i].isAndroid ? AndroidHost.cachedAfterWork : cohorts[Int(devices[i].cohort)].suspensionDelay
    }
}

extension World {
    /// Android devices have an entry in `android.devices` (``Device/platformSlot``).
    @inline(__always) private func runsAndroid(_ i: Int) -> Bool { core.devices[i].isAndroid }

    // MARK: - Set-up

    /// Time zero: the OS models start, and `work` (the app's background task) was submitted
    /// before the run, due at `firstDue` (nil: not submitted): iOS's pending request under
    /// `work`'s identifier, Android's WorkManager periodic work as `request`.
    mutating func osStart(_ d: UInt32, task work: WorkID, _ request: PeriodicWork, firstDue: SimTime?) {
        if core.cohorts[Int(core.devices[Int(d)].cohort)].android != nil {
            startAndroid(d, work: work, request, firstDue: firstDue)
        } else if let firstDue {
            core.submitBGTaskRequest(d, work, kind: request.iosKind, requirements: request.constraints, earliestBegin: firstDue)
        }
    }

    // MARK: - Background work by id (OS/BackgroundWork.swift)

    /// A run of `work` from `earliestBegin` as the app's background task (a feature's
    /// request for its next run): iOS `BGTaskScheduler.submit` under `work`'s identifier
    /// (replaces that identifier's pending request only), Android WorkManager unique
    /// periodic work as `request` (KEEP).
    mutating func submitTask(_ d: UInt32, _ work: WorkID, _ request: PeriodicWork, earliestBegin: SimTime) {
        if runsAndroid(Int(d)) {
            android.enqueueWork(d, work, request, earliestBegin: earliestBegin, core: &core)
        } else {
            core.submitBGTaskRequest(d, work, kind: request.iosKind, requirements: request.constraints, earliestBegin: earliestBegin)
        }
    }

    /// A feature cancels its request for the next run: `work`'s pending request goes (its
    /// identifier's on iOS, its WorkManager work on Android), the others' stay.
    mutating func cancelTask(_ d: UInt32, _ work: WorkID) {
        let i = Int(d)
        if runsAndroid(i) {
            android.cancelWork(d, work, core: &core)
        } else {
            core.cancelBGTaskRequest(d, work)
        }
    }

    /// Whether a request for `work`'s next run is pending: its identifier's on iOS,
    /// Android's WorkManager work enqueued (the oracle reads it after a 401).
    @inline(__always) func taskRequestPending(_ d: UInt32, _ work: WorkID) -> Bool {
        runsAndroid(Int(d)) ? android.devices[androidIndex(d)][work].enqueued : core.requests(Int(d)).isPending(work)
    }

    /// The work whose request launched the task now or last running (``BackgroundTaskSlot/holder``).
    @inline(__always) func taskHolder(_ i: Int) -> WorkID { WorkID(rawValue: core.devices[i].task.holder)! }

    /// The running task's deadline (`work`'s, task `serial`): iOS's expiration (the
    /// expiration handler runs), Android JobScheduler's stop deadline.
    mutating func taskDeadline(_ d: UInt32, _ work: WorkID, serial: UInt32) {
        let i = Int(d)
        guard core.devices[i].task.serial == serial, core.devices[i].task.running else { return }
        if runsAndroid(i) { return stopJob(d, work, serial: serial) }
        core.bgAppRefreshTaskExpires(d, serial: serial)
        featuresHearTaskExpired(d)
        core.armWatchdog(d, serial: serial)
    }

    /// The task is over for the OS (completed or killed: `end`, for WorkManager).
    mutating func taskEnded(_ d: UInt32, _ work: WorkID, _ end: WorkRunEnd) {
        if runsAndroid(Int(d)) { jobEnded(d, work, end) }
    }

    /// Whether the OS runs periodic work (Android's WorkManager). iOS has none: a feature's
    /// periodic sync rides the app's task launch and HealthKit's deliveries instead.
    func runsPeriodicWork(_ i: Int) -> Bool { runsAndroid(i) }

    /// Set-up: `work` was enqueued as `request` before the run and last ran at `lastRun`,
    /// so its next run is due one interval later (Android; iOS has no periodic work).
    mutating func startPeriodicWork(_ d: UInt32, _ work: WorkID, _ request: PeriodicWork, lastRun: SimTime) {
        guard runsAndroid(Int(d)) else { return }
        android.enqueuedBeforeRun(d, androidIndex(d), work, request, lastRun: lastRun, core: &core)
        android.scheduleWorkCheck(d, work, core: &core)
    }

    /// The logic's `schedulePeriodicWork`: WorkManager unique periodic work (KEEP), no flex,
    /// its first run one interval from now (Android; iOS has no periodic work).
    mutating func enqueuePeriodicWork(_ d: UInt32, _ work: WorkID, _ request: PeriodicWork) {
        if runsAndroid(Int(d)) { android.enqueueWork(d, work, request, earliestBegin: nil, core: &core) }
    }

    /// The logic's `finishWork`: the Worker of `work` returns its result and its job ends
    /// (Android), or HealthKit's completion handler is called (iOS). False when no job of
    /// `work` was running (nothing ended).
    mutating func workFinished(_ d: UInt32, _ work: WorkID, success: Bool) -> Bool {
        guard runsAndroid(Int(d)) else { return true }
        guard android.devices[androidIndex(d)].runsJob(work) else { return false }
        jobEnded(d, work, .returned(success ? .success : .retry))
        return true
    }

    /// The process died: `work`'s job, if running, ends killed (WorkManager reruns a Worker
    /// killed with its process, with backoff).
    mutating func workKilled(_ d: UInt32, _ work: WorkID) {
        if runsAndroid(Int(d)) { jobEnded(d, work, .killed) }
    }

    /// Whether a job of some work holds the process (Android: it is not suspended under it).
    @inline(__always) func workHoldsProcess(_ i: Int) -> Bool {
        let a = core.devices[i].androidIndex
        return a >= 0 && android.devices[a].jobsRunning != 0
    }

    // MARK: - The user, the phone, the network

    /// What the OS learns from an open: the launch policy's history (iOS), the screen and
    /// the standby bucket (Android).
    mutating func appOpened(_ d: UInt32) {
        if runsAndroid(Int(d)) { androidAppOpened(d) } else { core.launchPolicySeesOpen(d, localHour: core.userLocalTime(Int(d), at: now).hour) }
    }

    /// A foreground session ended: on iOS the user may swipe the app away. True when
    /// the user force-quit it.
    mutating func userMayForceQuit(_ d: UInt32) -> Bool {
        guard !runsAndroid(Int(d)), core.userSwipesAppAway(d) else { return false }
        terminate(d)
        return true
    }

    /// The user plugged the phone in or unplugged it (Android: Battery Saver's schedule,
    /// Doze and the work hear of it).
    mutating func chargingChanged(_ d: UInt32) {
        if runsAndroid(Int(d)) { androidChargingChanged(d) }
    }

    /// The device went online or offline (Android: Doze and the network constraint).
    mutating func connectivityChanged(_ d: UInt32) {
        if runsAndroid(Int(d)) { androidConnectivityChanged(d) }
    }

    /// Low Power Mode (setting or fault) turned on or off: Android's Battery Saver; on
    /// iOS a request held back while it was on gets a new launch moment when it ends.
    mutating func lowPowerModeChanged(_ d: UInt32, on: Bool) {
        let i = Int(d)
        if runsAndroid(i) { return batterySaverChanged(d) }
        guard !on, !core.devices[i].lowPowerMode else { return }
        WorkID.forEach { work in
            let requests = core.requests(i)
            let w = Int(work.rawValue)
            if requests.heldBack[w] { core.submitBGTaskRequest(d, work, kind: requests.classes[w].kind, requirements: requests.classes[w].requirements, earliestBegin: now) }
        }
    }

    /// A notification was shown (Android: a notification seen counts as use for the bucket).
    mutating func notificationShown(_ d: UInt32) {
        if runsAndroid(Int(d)) { android.notificationSeen(d, core: &core) }
    }

    /// An FCM message reached the phone (Android only).
    mutating func fcmArrived(_ d: UInt32, wakesApp: Bool, heldSince: SimTime) {
        if runsAndroid(Int(d)) { fcmMessageArrived(d, wakesApp: wakesApp, heldSince: heldSince) }
    }

    // MARK: - Health data

    /// Whether the health store wakes the app when new samples come (iOS HealthKit's
    /// `enableBackgroundDelivery`, OS/iOS/HealthKitDelivery); Android's has no background
    /// delivery.
    func healthStoreDelivers(_ i: Int) -> Bool { !runsAndroid(i) }

    /// Where the step data comes from.
    func healthSource(_ i: Int) -> StepSource { runsAndroid(i) ? .googleFit : .healthKit }

    /// The stale-sync notification's trigger was set for `at` (iOS: a time-interval
    /// trigger, nothing more; Android: the while-idle alarm).
    mutating func staleNotificationTriggerSet(_ d: UInt32, at: SimTime) {
        if runsAndroid(Int(d)) { android.armWhileIdleAlarm(d, at: at, core: &core) }
    }

    /// The stale-sync notification's trigger is due: whether it fires now (an Android
    /// while-idle alarm may be held by deep Doze; its delivery wakes the device, which
    /// Doze hears).
    mutating func staleNotificationMayFire(_ d: UInt32) -> Bool {
        guard runsAndroid(Int(d)) else { return true }
        guard android.whileIdleAlarmFires(d, core: &core) else { return false }
        applyDoze(d, .deviceAwake)
        return true
    }

    // MARK: - FCM on the phone (OS/Android/AndroidHost+FCMDelivery)

    /// How FCM reaches device `d` for a message it accepts.
    mutating func fcmRoute(_ d: Int, highPriority: Bool) -> FCMRoute {
        android.fcmRoute(d, highPriority: highPriority, core: &core)
    }

    /// Whether stored FCM messages may reach device `d` now.
    @inline(__always) mutating func fcmReachable(_ d: Int) -> Bool { android.fcmReachable(d, core: &core) }

    // MARK: - iOS's launch of the app's task (OS/iOS)

    /// A look of the system at the pending request `generation`: when the launch policy
    /// grants it, the task of the work that submitted it begins (the app's process
    /// resumes), its expiration is scheduled, and the features that handle the task hear
    /// of the launch.
    mutating func taskLaunchLooks(_ d: UInt32, generation: UInt32) {
        guard core.taskRequestAwaitsLaunch(d, generation: generation), launchPolicyGrants(d, generation: generation) else { return }
        let runTime = core.taskRequestGranted(d, generation: generation)
        beginAppTask(d, taskHolder(Int(d)))
        core.scheduleTaskExpiry(d, after: runTime)
        featuresHearTaskLaunched(d)
    }

    /// The launch policy's look (OS/iOS/WorldCore+LaunchPolicy) under the conditions
    /// now: the charger, the Wi-Fi, the user's local hour one usage lead ahead, and
    /// whether the device meets a processing request's requirements (external power, a
    /// network: docs/platform-facts.md F).
    mutating func launchPolicyGrants(_ d: UInt32, generation: UInt32) -> Bool {
        let i = Int(d)
        let policy = core.cohorts[Int(core.devices[i].cohort)].launchPolicy
        let charging = core.isCharging(i)
        let requirements = core.requests(i).requirements(of: generation)
        let met = (!requirements.contains(.charging) || charging) && (!requirements.contains(.networkConnected) || core.devices[i].online)
        let conditions = LaunchPolicyModel.Conditions(
            backgroundAppRefresh: core.devices[i].backgroundAppRefresh, lowPowerMode: core.devices[i].lowPowerMode,
            charging: charging, onWiFi: core.onWiFi(i, at: now), requirementsMet: met)
        let hourAhead = core.userLocalTime(i, at: now + policy.usageLead).hour
        return core.launchPolicyGrants(d, generation: generation, conditions, hourAhead: hourAhead)
    }

    /// The watchdog's grace after an expiration ran out with task `serial` still running:
    /// it kills the app.
    mutating func watchdogFires(_ d: UInt32, serial: UInt32) {
        guard core.watchdogKills(d, serial: serial) else { return }
        core.observeWatchdogKill(Int(d), serial: serial)
        core.note(d, "OS: watchdog kills the app (task \(serial) never completed after expiration)")
        terminate(d)
    }
}
