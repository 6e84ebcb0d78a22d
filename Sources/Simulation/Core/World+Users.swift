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

    /// The user opens the app: ground truth (the test seen, maybe taken), the token, the
    /// process, the OS, then every feature that hears of an open.
    mutating func openApp(_ d: UInt32, fromNotification: Bool) {
        let i = Int(d)
        core.metrics.appOpens += 1
        observeAppOpened(i)
        core.note(d, fromNotification ? "user opens the app from the notification" : "user opens the app")
        // Ground truth: the user sees an available test, and may take it.
        let usage = core.cohorts[Int(core.devices[i].cohort)].usage
        if truth.isAvailable(i, at: now), !truth.inProgress(i, at: now) {
            if refresh.testSeen(i, window: truth.window(i)), truth.availableAt(i) >= .zero {
                refresh.metrics.testAvailableToSeen.record((now - truth.availableAt(i)).microseconds)
            }
            if core.withStream(.user, of: i, { $0.chance(usage.takeTestProbability) }) {
                core.metrics.testsTaken += 1
                truth.start(i, at: now, duration: usage.testDuration)
                core.clock.schedule(.testCompleted(device: d), after: usage.testDuration)
                core.note(d, "user starts the test")
            }
        }
        // Signing in again (assumption) or refreshing the token in the foreground.
        if !core.devices[i].signedIn { core.devices[i].signedIn = true; core.note(d, "user signs in") }
        tokens.issue(i, at: now)

        resume(d)
        // An open never shortens a foreground stay already planned (a user waiting on an analysis).
        core.devices[i].foregroundUntil = max(core.devices[i].foregroundUntil, now + World.foregroundSession)
        core.clock.schedule(.foregroundSessionEnds(device: d, incarnation: core.devices[i].incarnation), after: World.foregroundSession)
        appOpened(d)
        featuresHearAppOpened(d)
    }


    /// The user finishes the test: the next window's clock starts.
    mutating func userCompletesTest(_ d: UInt32) {
        truth.complete(Int(d), at: now)
        core.note(d, "user completes the test; next window opens at \(core.format(truth.availableAt(Int(d))))")
    }
}
