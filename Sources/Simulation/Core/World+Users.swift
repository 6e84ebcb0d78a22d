import SimKernel
import AppLogic
import Platform
import Scenario

/// The users: app opens on the diurnal curve in each user's true local time
/// (``UserBehaviorModel``), and the iOS force-quit.
extension World {
    /// Schedules the user's next app open: a Poisson process of `usage.appOpensPerDay`
    /// shaped by the diurnal curve in the user's local time.
    mutating func scheduleNextOpen(_ d: UInt32) {
        let i = Int(d)
        let users = core.cohorts[Int(core.devices[i].cohort)].users
        let zone = Int(core.devices[i].clock.location)
        let (now, startUnixSeconds) = (now, core.startUnixSeconds)
        guard let at = core.withStream(.open, of: i, {
            users.nextAppOpen(after: now, rng: &$0, zone: &localZones[zone], startUnixSeconds: startUnixSeconds)
        }) else { return }
        core.clock.schedule(.userOpensApp(device: d), at: at)
    }

    /// The user opens the app by habit, and the next open is drawn.
    mutating func userOpensApp(_ d: UInt32) {
        openApp(d, fromNotification: false)
        scheduleNextOpen(d)
    }

    /// The user opens the app: the features' ground truth (a test seen, maybe taken), the
    /// token, the process, the OS, then every feature that hears of an open.
    mutating func openApp(_ d: UInt32, fromNotification: Bool) {
        let i = Int(d)
        core.metrics.appOpens += 1
        observeAppOpened(i)
        core.note(d, fromNotification ? "user opens the app from the notification" : "user opens the app")
        featuresHearOpening(d)
        // Signing in again (assumption) or renewing the token in the foreground.
        if !core.devices[i].signedIn { core.devices[i].signedIn = true; core.note(d, "user signs in") }
        tokens.issue(i, at: now)

        resume(d)
        // An open never shortens a foreground stay already planned (a user waiting on an analysis).
        core.devices[i].foregroundUntil = max(core.devices[i].foregroundUntil, now + World.foregroundSession)
        core.clock.schedule(.foregroundSessionEnds(device: d, incarnation: core.devices[i].incarnation), after: World.foregroundSession)
        appOpened(d)
        featuresHearAppOpened(d)
    }
}
