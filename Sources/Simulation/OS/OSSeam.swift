import SimKernel
import AppLogic
import Platform

/// The OS seam: the one place that asks which platform a device runs. The core and the
/// features tell the OS what happened (an open, a charger, connectivity, work to submit,
/// a notification shown) and ask it what it allows, only through these calls; each goes
/// to the iOS host (OS/iOS: BGTaskScheduler, the launch policy, HealthKit wakes) or the
/// Android host (OS/Android: Doze, standby buckets, WorkManager, FCM delivery, Battery
/// Saver, while-idle alarms). A new OS behaviour goes into its host's folder and is
/// reached from here.
extension WorldCore {
    /// Whether the user force-quit the app and has not opened it since (iOS: the launch
    /// policy's state, `docs/platform-facts.md` F; Android has no such state): for a host that
    /// sees only the core (push's silent-push throttle).
    @inline(__always) func userForceQuitApp(_ i: Int) -> Bool {
        let slot = launchPolicySlot(i)
        return slot >= 0 && launchPolicies[slot].forceQuit
    }
}

extension World {
    /// Android devices have an entry in `androids` (``Device/platformSlot``).
    @inline(__always) private func runsAndroid(_ i: Int) -> Bool { core.devices[i].isAndroid }

    // MARK: - Set-up

    /// Time zero: the OS models start and the refresh work submitted before the run is
    /// due at `firstRefreshDue` (nil: no refresh work at all: the cohort has no refresh,
    /// and on iOS no step sync that would own the task either).
    mutating func osStart(_ d: UInt32, firstRefreshDue: SimTime?) {
        if core.cohorts[Int(core.devices[Int(d)].cohort)].android != nil {
            startAndroid(d, firstDue: firstRefreshDue)
        } else if let firstRefreshDue {
            submitRefresh(d, earliestBegin: firstRefreshDue)
        }
    }

    // MARK: - The refresh work

    /// The refresh logic's `scheduleRefresh`: iOS `BGTaskScheduler.submit` (replaces the
    /// pending request), Android WorkManager unique periodic work (KEEP).
    mutating func submitRefresh(_ d: UInt32, earliestBegin: SimTime) {
        if runsAndroid(Int(d)) { enqueueRefreshWork(d, earliestBegin: earliestBegin) } else { submitBGAppRefresh(d, earliestBegin: earliestBegin) }
    }

    /// The refresh logic's `cancelScheduledRefresh`.
    mutating func cancelRefresh(_ d: UInt32) {
        let i = Int(d)
        core.devices[i].task.hasPending = false
        core.devices[i].task.pending.cancel()
        if runsAndroid(i) { cancelRefreshWork(d) }
    }

    /// The running refresh task's deadline: iOS's expiration (the expiration handler
    /// runs), Android JobScheduler's stop deadline.
    mutating func refreshDeadline(_ d: UInt32, serial: UInt32) {
        let i = Int(d)
        guard core.devices[i].task.serial == serial, core.devices[i].task.running else { return }
        if runsAndroid(i) { stopRefreshJob(d) } else { expireBGAppRefreshTask(d, serial: serial) }
    }

    /// The refresh task is over for the OS (completed or killed).
    mutating func refreshTaskEnded(_ d: UInt32) {
        if runsAndroid(Int(d)) { refreshJobEnded(d) }
    }

    /// iOS: the step sync rides the refresh launch; Android runs it as its own periodic work.
    func stepSyncRidesRefreshLaunch(_ i: Int) -> Bool { !runsAndroid(i) }

    // MARK: - The user, the phone, the network

    /// What the OS learns from an open: the launch policy's history (iOS), the screen and
    /// the standby bucket (Android).
    mutating func appOpened(_ d: UInt32) {
        if runsAndroid(Int(d)) { androidAppOpened(d) } else { launchPolicySeesOpen(d) }
    }

    /// A foreground session ended: on iOS the user may swipe the app away. True when
    /// the user force-quit it.
    mutating func userMayForceQuit(_ d: UInt32) -> Bool {
        runsAndroid(Int(d)) ? false : iOSUserMayForceQuit(d)
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
        if !on, core.devices[i].task.heldBack, !core.devices[i].lowPowerMode {
            submitRefresh(d, earliestBegin: now)
        }
    }

    /// A notification was shown (Android: a notification seen counts as use for the bucket).
    mutating func notificationShown(_ d: UInt32) {
        if runsAndroid(Int(d)) { androidNotificationSeen(d) }
    }

    /// An FCM message reached the phone (Android only).
    mutating func fcmArrived(_ d: UInt32, wakesApp: Bool, heldSince: SimTime) {
        if runsAndroid(Int(d)) { fcmMessageArrived(d, wakesApp: wakesApp, heldSince: heldSince) }
    }

    // MARK: - The step sync's work

    /// Set-up: the step sync's OS triggers start (iOS HealthKit deliveries, Android
    /// WorkManager periodic work that last ran at `lastSync`).
    mutating func startStepSyncWork(_ d: UInt32, lastSync: SimTime) {
        if runsAndroid(Int(d)) { startAndroidStepWork(d, lastSync: lastSync) } else { stepSync.scheduleHealthDelivery(d, core: &core) }
    }

    /// The logic's `schedulePeriodicWork`: WorkManager on Android; iOS has no periodic
    /// work (BGTaskScheduler and HealthKit deliveries drive the sync).
    mutating func schedulePeriodicStepWork(_ d: UInt32, interval: Interval, constraints: AppLogic.WorkConstraints) {
        if runsAndroid(Int(d)) { enqueueStepWork(d, interval: interval, constraints: constraints) }
    }

    /// The logic's `finishWork`: the Worker's result (Android) or HealthKit's completion
    /// handler (iOS).
    mutating func stepWorkFinished(_ d: UInt32, success: Bool) {
        if runsAndroid(Int(d)) { stepWorkerFinished(d, success: success) } else { healthKitWakeFinished(d) }
    }

    /// Whether an Android step-sync job holds the process (it is not suspended under it).
    @inline(__always) func stepJobHoldsProcess(_ i: Int) -> Bool {
        let a = core.devices[i].androidIndex
        return a >= 0 && androids[a].stepJobRunning
    }

    /// Where the step data comes from.
    func healthSource(_ i: Int) -> StepSource { runsAndroid(i) ? .googleFit : .healthKit }

    /// The stale-sync notification's trigger was set for `at` (iOS: a time-interval
    /// trigger, nothing more; Android: the while-idle alarm).
    mutating func staleNotificationTriggerSet(_ d: UInt32, at: SimTime) {
        if runsAndroid(Int(d)) { armWhileIdleAlarm(d, at: at) }
    }

    /// The stale-sync notification's trigger is due: whether it fires now (an Android
    /// while-idle alarm may be held by deep Doze).
    mutating func staleNotificationMayFire(_ d: UInt32) -> Bool {
        runsAndroid(Int(d)) ? whileIdleAlarmFires(d) : true
    }
}
