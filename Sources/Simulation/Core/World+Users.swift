import SimKernel
import Platform
import Scenario

/// The users: app opens on the diurnal curve in each user's true local time
/// (``UserBehaviorModel``), and the iOS force-quit.
extension World {
    /// The user's true local time at `t` (where they are, no clock skew).
    mutating func userLocalTime(_ i: Int, at t: SimTime) -> LocalTime {
        devices[i].clock.userLocalTime(at: t, startUnixSeconds: startUnixSeconds, zones: &localZones)
    }

    /// Schedules the user's next app open: a Poisson process of `usage.appOpensPerDay`
    /// shaped by the diurnal curve in the user's local time.
    mutating func scheduleNextOpen(_ d: UInt32) {
        let i = Int(d)
        let users = cohorts[Int(devices[i].cohort)].users
        let zone = Int(devices[i].clock.location)
        guard let at = users.nextAppOpen(after: now, rng: &devices[i].openStream, zone: &localZones[zone], startUnixSeconds: startUnixSeconds)
        else { return }
        clock.schedule(.userOpensApp(device: d), at: at)
    }

    /// What the OS learns from an open: the launch policy's history (iOS), the
    /// screen and the standby bucket (Android).
    mutating func platformSeesOpen(_ d: UInt32) {
        let i = Int(d)
        if devices[i].android >= 0 { return androidAppOpened(d) }
        let model = cohorts[Int(devices[i].cohort)].launchPolicy
        let hour = userLocalTime(i, at: now).hour
        let wasForceQuit = devices[i].launchPolicy.forceQuit
        devices[i].launchPolicy.appOpened(at: now, localHour: hour, model: model)
        if wasForceQuit { note(d, "OS: launch policy: the app was opened again after a force-quit; launches allowed") }
        // A request the policy blocked (force-quit) gets a new look.
        if devices[i].task.heldBack, devices[i].task.hasPending, !devices[i].lowPowerMode {
            lookAgainSoon(d)
        }
    }

    /// iOS: when a foreground session ends, the user may swipe the app away
    /// (`usage.forceQuitProbability`, an **assumption**). The app is terminated and the
    /// launch policy launches nothing until the next open (`REFERENCE.md` F).
    /// Returns true when the user force-quit the app.
    mutating func userMayForceQuit(_ d: UInt32) -> Bool {
        let i = Int(d)
        guard devices[i].android < 0 else { return false }
        let p = cohorts[Int(devices[i].cohort)].usage.forceQuitProbability
        guard p > 0, devices[i].userStream.chance(p) else { return false }
        metrics.platform.forceQuits += 1
        note(d, "user force-quits the app (swipes it away in the app switcher)")
        devices[i].launchPolicy.userForceQuits()
        terminate(d)
        return true
    }
}
