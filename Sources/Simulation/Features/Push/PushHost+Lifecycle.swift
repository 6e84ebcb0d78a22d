import SimKernel
import AppLogic
import Scenario

/// The token lifecycle as workload (seed `001`, "Token Refresh and Validation"),
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
extension PushHost {
    /// 30 days: the month of the per-device-month rates.
    static var lifecycleMonth: Double { 30.0 * 86_400 }

    mutating func scheduleLifecycle(_ d: UInt32, reinstall: Bool, core: inout WorldCore) {
        let c = Int(core.devices[Int(d)].cohort)
        let perMonth = reinstall ? usages[c].reinstallsPerMonth : usages[c].tokenRotationsPerMonth
        guard perMonth > 0 else { return }
        let u = Int(userOf[Int(d)])
        let gap = SimDuration.fromSeconds(core.streams(of: Int(d)).withStream(.pushLifecycle, at: &truth[u].lifecycle) {
            $0.exponential(mean: PushHost.lifecycleMonth / perMonth)
        })
        guard core.now + gap < core.end else { return }
        schedule(.tokenLifecycle(device: d, reinstall: reinstall), after: gap, core: &core)
    }

    /// The token changes or the app is uninstalled; returns an FCM app's upload of its new
    /// token for the world to deliver (then the next change is scheduled, ``scheduleLifecycle(_:reinstall:core:)``).
    mutating func tokenLifecycle(_ d: UInt32, reinstall: Bool, core: inout WorldCore) -> PushDelivery? {
        let u = Int(userOf[Int(d)])
        let current = truth[u]
        guard current.generation > 0, !current.uninstalled else { return nil }
        if reinstall {
            appUninstalled(u, core: &core)
            return nil
        }

        let generation = current.generation + 1
        truth[u].generation = generation
        truth[u].registryStatus = nil
        metrics.rotations += 1
        core.note(d, "push: the provider issues token g\(generation); g\(current.generation) is unregistered from now")
        if current.provider == .apns {
            apns.tokenIssued(device: gatewayDevice[u], generation: generation)
            return nil  // registered at the next launch (World+Push's pushOnOpen)
        }
        fcm.tokenIssued(device: gatewayDevice[u], generation: generation)
        // The app registers only with permission (as at a launch).
        guard core.devices[Int(d)].notificationCenter.authorization.allowsPosting else { return nil }
        metrics.registrations += 1
        return PushDelivery(user: u, input: .tokenRotated(PushToken(device: PushDeviceID(d), generation: generation, provider: .fcm)), context: -1)
    }

    private mutating func appUninstalled(_ u: Int, core: inout WorldCore) {
        let d = truth[u].device
        truth[u].uninstalled = true
        metrics.uninstalls += 1
        core.note(d, "push: the user uninstalls the app; its tokens are unregistered")
        discardHeldSilentPush(d, forceQuit: false, why: "app uninstalled", core: &core)
        if truth[u].provider == .apns {
            apns.appRemoved(device: gatewayDevice[u])
        } else {
            fcm.appRemoved(device: gatewayDevice[u])
        }
        let stored = truth[u].stored
        truth[u].stored.removeAll()
        for m in stored {
            messageEnded(m, as: .uninstalled)
            messageDone(m)
        }
    }

    /// The user's open after an uninstall: the app is back with a new token, which the
    /// open registers (the registry does not know it yet).
    mutating func reinstalled(_ u: Int, core: inout WorldCore) {
        let d = truth[u].device
        truth[u].uninstalled = false
        truth[u].generation += 1
        truth[u].registryStatus = nil
        metrics.reinstalls += 1
        core.note(d, "push: the user reinstalls the app (token g\(truth[u].generation))")
    }
}
