import SimKernel
import AppLogic
import Scenario

/// The token lifecycle as workload (seed `001`, "Token Refresh and Validation"; issue 5),
/// so 410 / 404 answers and the registry's transitions happen in ordinary runs:
/// - **Token change** (`fleet[].push.tokenRotationsPerMonth`, a Poisson process per
///   device): the provider issues a new token and the old one answers 410 (APNs) / 404
///   (FCM). An FCM app hears `onTokenRefresh` and uploads the new token at once
///   (`tokenRotated`: the registry revokes the old one); an iOS app gets its new APNs token
///   at its next launch and registers it then, so sends in between meet a 410.
///   **Assumption**: the upload of an FCM token takes no time and never fails.
/// - **Uninstall** (`fleet[].push.reinstallsPerMonth`): from then on the provider answers
///   410 / 404 to every token of the app and drops what it stored; a push on its way is
///   discarded by the phone (outcome `uninstalled`). The user's next open is the reinstall:
///   a new token, registered as at any launch. **Assumptions**: the reinstall keeps the
///   notification permission, and the uninstall touches push only (the other features'
///   background work and Notification Centre are not modelled as removed meanwhile).
/// A device without a token (never registered) or already uninstalled has no event.
extension World {
    /// 30 days: the month of the per-device-month rates.
    static let pushLifecycleMonth = 30.0 * 86_400

    mutating func schedulePushLifecycle(_ d: UInt32, reinstall: Bool) {
        let usage = scenario.fleet[Int(devices[Int(d)].cohort)].push
        let perMonth = reinstall ? usage.reinstallsPerMonth : usage.tokenRotationsPerMonth
        guard perMonth > 0 else { return }
        let u = Int(push.userOf[Int(d)])
        let gap = SimDuration.fromSeconds(push.truth[u].lifecycle.exponential(mean: World.pushLifecycleMonth / perMonth))
        guard now + gap < end else { return }
        clock.schedule(.pushTokenLifecycle(device: d, reinstall: reinstall), after: gap)
    }

    mutating func pushTokenLifecycle(_ d: UInt32, reinstall: Bool) {
        let u = Int(push.userOf[Int(d)])
        defer { schedulePushLifecycle(d, reinstall: reinstall) }
        let truth = push.truth[u]
        guard truth.generation > 0, !truth.uninstalled else { return }
        if reinstall { return appUninstalled(u) }

        let generation = truth.generation + 1
        push.truth[u].generation = generation
        push.truth[u].registryStatus = nil
        push.metrics.rotations += 1
        note(d, "push: the provider issues token g\(generation); g\(truth.generation) is unregistered from now")
        if truth.provider == .apns {
            push.apns.tokenIssued(device: d, generation: generation)
            return  // registered at the next launch (pushOnOpen)
        }
        push.fcm.tokenIssued(device: d, generation: generation)
        // The app registers only with permission (as at a launch).
        guard devices[Int(d)].notificationCenter.authorization.allowsPosting else { return }
        push.metrics.registrations += 1
        deliverPush(u, .tokenRotated(PushToken(device: PushDeviceID(d), generation: generation, provider: .fcm)), context: -1)
    }

    private mutating func appUninstalled(_ u: Int) {
        let d = push.truth[u].device
        push.truth[u].uninstalled = true
        push.metrics.uninstalls += 1
        note(d, "push: the user uninstalls the app; its tokens are unregistered")
        if push.truth[u].provider == .apns {
            push.apns.appRemoved(device: d)
        } else {
            push.fcm.appRemoved(device: d)
        }
        let stored = push.truth[u].stored
        push.truth[u].stored.removeAll()
        for m in stored { messageEnded(m, as: .uninstalled) }
    }

    /// The user's open after an uninstall: the app is back with a new token, which the
    /// open registers (the registry does not know it yet).
    mutating func pushReinstalled(_ u: Int) {
        let d = push.truth[u].device
        push.truth[u].uninstalled = false
        push.truth[u].generation += 1
        push.truth[u].registryStatus = nil
        push.metrics.reinstalls += 1
        note(d, "push: the user reinstalls the app (token g\(push.truth[u].generation))")
    }
}
