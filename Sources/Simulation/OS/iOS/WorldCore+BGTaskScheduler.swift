import SimKernel
import AppLogic
import Platform

/// iOS `BGTaskScheduler` for the app's `BGAppRefreshTask`: submit, launch by the launch
/// policy (WorldCore+LaunchPolicy), expiration and the watchdog. The OS's side only: what
/// the app does at a launch or an expiration, and a watchdog kill's end of the process,
/// are carried out by the OS seam (OS/OSSeam.swift, ``World/taskLaunchLooks(_:generation:)``).
extension WorldCore {
    /// `BGTaskScheduler.submit`: replaces the pending request (one per identifier).
    mutating func submitBGTaskRequest(_ d: UInt32, earliestBegin: SimTime) {
        let i = Int(d)
        let scheduler = cohorts[Int(devices[i].cohort)].scheduler
        switch scheduler.submit(backgroundAppRefresh: devices[i].backgroundAppRefresh) {
        case .unavailable:
            metrics.submitUnavailable += 1
            devices[i].task.hasPending = false
            devices[i].task.pending.cancel()
            note(d, "OS: submit failed: unavailable (Background App Refresh off)")
        case .accepted:
            let generation = devices[i].task.pending.arm()
            devices[i].task.hasPending = true
            devices[i].task.heldBack = false
            scheduleFirstLook(d, earliestBegin: earliestBegin, generation: generation)
        }
    }

    /// A look of the system at the pending request `generation`: whether it is still
    /// pending and no task runs (one task at a time: the system tries again a little
    /// later), so the launch policy decides.
    mutating func taskRequestAwaitsLaunch(_ d: UInt32, generation: UInt32) -> Bool {
        let i = Int(d)
        guard devices[i].task.pending.isCurrent(generation), devices[i].task.hasPending else { return false }
        if devices[i].task.running {
            schedule(.taskLaunch(device: d, generation: generation), after: .minutes(1))
            return false
        }
        return true
    }

    /// The launch policy granted the pending request: it is no longer pending, and the
    /// task's run time before its expiration is drawn.
    mutating func taskRequestGranted(_ d: UInt32) -> SimDuration {
        let i = Int(d)
        let scheduler = cohorts[Int(devices[i].cohort)].scheduler
        devices[i].task.hasPending = false
        return withStream(.os, of: i) { scheduler.runTimeBeforeExpiration(rng: &$0) }
    }

    /// The task just begun expires `runTime` from now.
    mutating func scheduleTaskExpiry(_ d: UInt32, after runTime: SimDuration) {
        let i = Int(d)
        devices[i].timerEntries.expiry = scheduleRetractably(.taskExpires(device: d, serial: devices[i].task.serial), at: now + runTime)
        note(d) { c in "OS: BGAppRefreshTask \(c.devices[i].task.serial) launched, expires in \(c.human(runTime))" }
    }

    /// The task's expiration (the OS seam's `taskDeadline` checked it still runs),
    /// counted; the expiration handler runs next.
    mutating func bgAppRefreshTaskExpires(_ d: UInt32, serial: UInt32) {
        let i = Int(d)
        metrics.expirations += 1
        if now - devices[i].task.launchedAt < cohorts[Int(devices[i].cohort)].scheduler.runLimit { metrics.earlyExpirations += 1 }
        note(d, "OS: task \(serial) expires; expiration handler runs")
    }

    /// After the expiration handler: the watchdog waits for the completion.
    mutating func armWatchdog(_ d: UInt32, serial: UInt32) {
        let i = Int(d)
        guard devices[i].task.running, devices[i].task.serial == serial else { return }
        schedule(.taskWatchdog(device: d, serial: serial), after: cohorts[Int(devices[i].cohort)].scheduler.watchdogGrace)
    }

    /// The watchdog's grace after an expiration ran out: whether task `serial` still
    /// runs, so the watchdog kills the app (counted).
    mutating func watchdogKills(_ d: UInt32, serial: UInt32) -> Bool {
        let i = Int(d)
        guard devices[i].task.serial == serial, devices[i].task.running else { return false }
        metrics.watchdogKills += 1
        return true
    }
}
