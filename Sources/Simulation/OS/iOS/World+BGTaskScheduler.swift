import SimKernel
import AppLogic
import Platform

/// iOS `BGTaskScheduler` for the app's `BGAppRefreshTask`: submit, launch by the launch
/// policy (World+LaunchPolicy), expiration and the watchdog.
extension World {
    /// `BGTaskScheduler.submit`: replaces the pending request (one per identifier).
    mutating func submitBGAppRefresh(_ d: UInt32, earliestBegin: SimTime) {
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

    /// A look of the iOS launch policy at the pending request (``LaunchPolicyModel``).
    mutating func launchRefresh(_ d: UInt32, generation: UInt32) {
        let i = Int(d)
        guard devices[i].task.pending.isCurrent(generation), devices[i].task.hasPending else { return }
        let scheduler = cohorts[Int(devices[i].cohort)].scheduler
        if devices[i].task.running {
            // One task at a time: the system tries again a little later.
            clock.schedule(.refreshLaunch(device: d, generation: generation), after: .minutes(1))
            return
        }
        guard launchPolicyGrants(d, generation: generation) else { return }
        devices[i].task.hasPending = false
        let runTime = scheduler.runTimeBeforeExpiration(rng: &devices[i].osStream)
        beginRefreshTask(d)
        clock.schedule(.refreshExpires(device: d, serial: devices[i].task.serial), after: runTime)
        note(d, "OS: BGAppRefreshTask \(devices[i].task.serial) launched, expires in \(human(runTime))")
        deliverTaskLaunched(d)
    }

    /// The task's expiration (``OSSeam``'s `refreshDeadline` checked it still runs):
    /// the expiration handler runs, and the watchdog waits for the completion.
    mutating func expireBGAppRefreshTask(_ d: UInt32, serial: UInt32) {
        let i = Int(d)
        metrics.expirations += 1
        if now - devices[i].task.launchedAt < cohorts[Int(devices[i].cohort)].scheduler.runLimit { metrics.earlyExpirations += 1 }
        note(d, "OS: task \(serial) expires; expiration handler runs")
        deliverRefresh(d, .taskExpired)
        if devices[i].task.running, devices[i].task.serial == serial {
            let grace = cohorts[Int(devices[i].cohort)].scheduler.watchdogGrace
            clock.schedule(.refreshWatchdog(device: d, serial: serial), after: grace)
        }
    }

    /// The watchdog's grace after an expiration ran out with the task still running.
    mutating func watchdogFires(_ d: UInt32, serial: UInt32) {
        let i = Int(d)
        guard devices[i].task.serial == serial, devices[i].task.running else { return }
        metrics.watchdogKills += 1
        observeWatchdogKill(i, serial: serial)
        note(d, "OS: watchdog kills the app (task \(serial) never completed after expiration)")
        terminate(d)
    }
}
