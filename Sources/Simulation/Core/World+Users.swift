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
        let users = cohorts[Int(devices[i].cohort)].users
        let zone = Int(devices[i].clock.location)
        guard let at = users.nextAppOpen(after: now, rng: &core.devices[i].openStream, zone: &localZones[zone], startUnixSeconds: startUnixSeconds)
        else { return }
        clock.schedule(.userOpensApp(device: d), at: at)
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
        metrics.appOpens += 1
        observeAppOpened(i)
        note(d, fromNotification ? "user opens the app from the notification" : "user opens the app")
        // Ground truth: the user sees an available test, and may take it.
        let usage = cohorts[Int(devices[i].cohort)].usage
        if truth.isAvailable(i, at: now), !truth.inProgress(i, at: now) {
            let window = truth.lastCompletedAt(i)
            if observeTestSeen(i, window: window), truth.availableAt(i) >= .zero {
                metrics.testAvailableToSeen.record((now - truth.availableAt(i)).microseconds)
            }
            if devices[i].userStream.chance(usage.takeTestProbability) {
                metrics.testsTaken += 1
                truth.start(i, at: now, duration: usage.testDuration)
                clock.schedule(.testCompleted(device: d), after: usage.testDuration)
                note(d, "user starts the test")
            }
        }
        // Signing in again (assumption) or refreshing the token in the foreground.
        if !devices[i].signedIn { devices[i].signedIn = true; note(d, "user signs in") }
        tokens.issue(i, at: now)

        resume(d)
        // An open never shortens a foreground stay already planned (a user waiting on an analysis).
        devices[i].foregroundUntil = max(devices[i].foregroundUntil, now + World.foregroundSession)
        clock.schedule(.foregroundSessionEnds(device: d, incarnation: devices[i].incarnation), after: World.foregroundSession)
        appOpened(d)
        deliverRefresh(d, .appOpened)
        badge.appOpened(d, core: &core)
        continuationOnOpen(d)
        pushOnOpen(d)
        if cohorts[Int(devices[i].cohort)].stepSync {
            let context = stepContext(i)
            deliverStepSync(d, .appOpened(context))
        }
    }


    /// The user finishes the test: the next window's clock starts.
    mutating func userCompletesTest(_ d: UInt32) {
        truth.complete(Int(d), at: now)
        note(d, "user completes the test; next window opens at \(format(truth.availableAt(Int(d))))")
    }
}
