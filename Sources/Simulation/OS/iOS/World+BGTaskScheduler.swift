import SimKernel
import AppLogic
import Platform

/// iOS `BGTaskScheduler` for the app's `BGAppRefreshTask`: submit, launch by the launch
/// policy (World+LaunchPolicy), expiration and the watchdog.
extension World {
    /// `BGTaskScheduler.submit`: replaces the pending request (one per identifier).
    mutating func submitBGAppRefresh(_ d: UInt32, earliestBegin: SimTime) {
        let i = Int(d)
        let scheduler = core.cohorts[Int(core.devices[i].cohort)].scheduler
        switch scheduler.submit(backgroundAppRefresh: core.devices[i].backgroundAppRefresh) {
        case .unavailable:
            core.metrics.submitUnavailable += 1
            core.devices[i].task.hasPending = false
            core.devices[i].task.pending.cancel()
            core.note(d, "OS: submit failed: unavailable (Background App Refresh off)")
        case .accepted:
            let generation = core.devices[i].task.pending.arm()
            core.devices[i].task.hasPending = true
            core.devices[i].task.heldBack = false
            scheduleFirstLook(d, earliestBegin: earliestBegin, generation: generation)
        }
    }

    /// A look of the iOS launch policy at the pending request (``LaunchPolicyModel``).
    mutating func launchRefresh(_ d: UInt32, generation: UInt32) {
        let i = Int(d)
        guard core.devices[i].task.pending.isCurrent(generation), core.devices[i].task.hasPending else { return }
        let scheduler = core.cohorts[Int(core.devices[i].cohort)].scheduler
        if core.devices[i].task.running {
            // One task at a time: the system tries again a little later.
            core.clock.schedule(.refreshLaunch(device: d, generation: generation), after: .minutes(1))
            return
        }
        guard launchPolicyGrants(d, generation: generation) else { return }
        core.devices[i].task.hasPending = false
        let runTime = core.withStream(.os, of: i) { scheduler.runTimeBeforeExpiration(rng: &$0) }
        beginRefreshTask(d)
        core.devices[i].timerEntries.expiry = core.clock.scheduleRetractably(.refreshExpires(device: d, serial: core.devices[i].task.serial), at: now + runTime)
        core.note(d, "OS: BGAppRefreshTask \(core.devices[i].task.serial) launched, expires in \(core.human(runTime))")
        featuresHearTaskLaunched(d)
    }

    /// The task's expiration (the OS seam's `taskDeadline` checked it still runs):
    /// the expiration handler runs, and the watchdog waits for the completion.
    mutating func expireBGAppRefreshTask(_ d: UInt32, serial: UInt32) {
        let i = Int(d)
        core.metrics.expirations += 1
        if now - core.devices[i].task.launchedAt < core.cohorts[Int(core.devices[i].cohort)].scheduler.runLimit { core.metrics.earlyExpirations += 1 }
        core.note(d, "OS: task \(serial) expires; expiration handler runs")
        featuresHearTaskExpired(d)
        if core.devices[i].task.running, core.devices[i].task.serial == serial {
            let grace = core.cohorts[Int(core.devices[i].cohort)].scheduler.watchdogGrace
            core.clock.schedule(.refreshWatchdog(device: d, serial: serial), after: grace)
        }
    }

    /// The watchdog's grace after an expiration ran out with the task still running.
    mutating func watchdogFires(_ d: UInt32, serial: UInt32) {
        let i = Int(d)
        guard core.devices[i].task.serial == serial, core.devices[i].task.running else { return }
        core.metrics.watchdogKills += 1
        core.observeWatchdogKill(i, serial: serial)
        core.note(d, "OS: watchdog kills the app (task \(serial) never completed after expiration)")
        terminate(d)
    }
}
