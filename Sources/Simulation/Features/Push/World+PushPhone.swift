import Foundation
import SimKernel
import AppLogic
import Platform
import Backend
import Scenario

/// A push on the phone: delivery, Notification Centre, the silent-push throttle, opens.
extension World {
    /// The device came online (or out of idle): the providers hand over what they stored.
    mutating func pushDeviceReachable(_ d: UInt32) {
        // Never bind the whole `push` to a local: that would copy its arrays at the next write.
        guard push.active else { return }
        let u32 = push.userOf[Int(d)]
        guard u32 >= 0, fcmReachable(Int(d)) else { return }
        let u = Int(u32)
        let stored = push.truth[u].stored
        guard !stored.isEmpty else { return }
        push.truth[u].stored.removeAll()
        // What the provider hands over, compared in place (no array of message ids is built).
        var apnsDelivery: UInt64?
        var flush: FCMGatewayModel.Flush?
        if push.truth[u].provider == .apns {
            apnsDelivery = push.apns.deviceCameOnline(d, now: now)?.message
        } else {
            flush = push.fcm.deviceReachable(d, now: now)
        }
        let discarded = flush?.deletedMessages ?? false
        for m in stored {
            let message = UInt64(m)
            if apnsDelivery == message || flush?.deliveries.contains(where: { $0.message == message }) == true {
                pushArrives(m)
            } else {
                messageEnded(m, as: discarded ? .droppedByProvider : .expired)
            }
        }
    }

    /// A message reaches the phone: the OS's display rules, the user, the receipt.
    mutating func pushArrives(_ message: UInt32) {
        let m = push.messages[Int(message)]
        let u = Int(m.user)
        let d = push.truth[u].device
        let i = Int(d)
        if push.truth[u].uninstalled {
            note(d, "OS: push for an uninstalled app discarded")
            return messageEnded(message, as: .uninstalled)
        }
        if push.truth[u].provider == .fcm { fcmArrived(d, wakesApp: m.wakesApp, heldSince: m.heldSince) }
        if m.silent, push.truth[u].provider == .fcm {
            // An FCM data message reaches the app when FCM delivers it; the iOS throttle is not Android's.
            push.metrics.silent[0] += 1
            return note(d, "OS: data message delivered to the app")
        }
        if m.silent {
            let decision = push.throttle.receive(priority: m.apnsPriority, now: now, lowPowerMode: devices[i].lowPowerMode,
                                                       forceQuit: devices[i].launchPolicy.forceQuit, state: &push.truth[u].silent)
            switch decision {
            case .deliver: push.metrics.silent[0] += 1
            case .coalesced(let at, let newlyScheduled):
                push.metrics.silent[1] += 1
                if newlyScheduled { clock.schedule(.pushSilentWaiting(device: d), at: at) }
            case .dropped: push.metrics.silent[2] += 1
            }
            note(d, "OS: silent push \(decision)")
            return
        }
        let n = Int(m.notification)
        push.ledger[n].live -= 1
        markDelivered(UInt32(n))
        if let carried = push.summaries[UInt32(n)] { for id in carried { markDelivered(UInt32(id.rawValue)) } }
        if push.truth[u].provider == .fcm {
            deliverPush(u, .deliveryReceipt(NotificationID(UInt64(n)), PushDeviceID(d)), context: Int64(n))
        }
        let authorization = devices[i].notificationCenter.authorization
        guard authorization.allowsPosting else {
            push.metrics.notShownWithoutPermission += 1
            note(d, "OS: push n\(n) not shown (permission \(authorization))")
            return
        }
        if m.priority == .normal, let quiet = push.users[u].settings.quietHours {
            observePushDisplayedNormal(user: u, device: i, notification: n, quiet: quiet)
        }
        if m.collapsible {
            if observePushDisplayedCollapsible(user: u, device: i, notification: n) {
                // The OS replaces the shown notification: nothing new in Notification Centre.
                push.metrics.collapsedInPlace += 1
                return
            }
            push.truth[u].shownCollapsed.append(UInt32(n))
        }
        if authorization == .provisional { push.metrics.shownQuietly += 1 } else { push.metrics.shown += 1 }
        note(d, "OS: push n\(n) shown")
        badge.notificationDelivered(LocalNotification(kind: .push, badge: nil), device: d, core: &core)
        // The cohort's fields read in place (a copy of its `PushUsage` would retain its arrays).
        let c = Int(devices[i].cohort)
        if devices[i].pushStream.chance(scenario.fleet[c].push.openProbability) {
            let delay = scenario.fleet[c].push.openDelay.sampleDuration(&devices[i].pushStream)
            guard now + delay < end else { return }
            push.metrics.opened += 1
            push.metrics.timeToOpen.record(delay.microseconds)
            clock.schedule(.notificationTapped(device: d), after: delay)
        } else {
            push.metrics.dismissed += 1
        }
    }

    /// The silent push the throttle held is due: one wake for it and every push merged into
    /// it, unless Low Power Mode, a force-quit or an uninstall came meanwhile (``SilentPushThrottle/deliverWaiting(now:lowPowerMode:forceQuit:state:)``).
    mutating func pushSilentWaiting(_ d: UInt32) {
        let u = Int(push.userOf[Int(d)])
        let merged = push.truth[u].silent.merged
        guard let decision = push.throttle.deliverWaiting(now: now, lowPowerMode: devices[Int(d)].lowPowerMode,
                                                                forceQuit: devices[Int(d)].launchPolicy.forceQuit,
                                                                state: &push.truth[u].silent)
        else { return }
        switch decision {
        case .deliver where push.truth[u].uninstalled:
            push.metrics.silent[4] += 1
            return note(d, "OS: held silent push discarded (app uninstalled)")
        case .deliver: push.metrics.silent[3] += 1
        case .dropped: push.metrics.silent[4] += 1
        case .coalesced(let at, _): return clock.schedule(.pushSilentWaiting(device: d), at: at)
        }
        note(d, "OS: held silent push (\(merged) merged) \(decision)")
    }

    mutating func markDelivered(_ n: UInt32) {
        let entry = push.ledger[Int(n)]
        guard entry.outcome != .delivered else { return }
        push.ledger[Int(n)].outcome = .delivered
        push.metrics.createdToDelivered[Int(entry.priority.rawValue)].record((now - entry.createdAt).microseconds)
    }

    /// An app open: an uninstalled app is reinstalled (a new token); the token is registered
    /// if the registry does not hold it active (a new token: not yet), the open is in-app
    /// activity, and the user reads every notification (README, "the badge").
    mutating func pushOnOpen(_ d: UInt32) {
        guard push.active else { return }
        let u32 = push.userOf[Int(d)]
        guard u32 >= 0 else { return }
        let u = Int(u32)
        push.truth[u].shownCollapsed.removeAll()
        if push.truth[u].uninstalled { pushReinstalled(u) }
        let status = push.truth[u].registryStatus
        if devices[Int(d)].notificationCenter.authorization.allowsPosting, status != .active, status != .inactive {
            pushRegister(d)
        }
        deliverPush(u, .userActivity(PushDeviceID(d)), context: -1)
        let unread = push.users[u].unread
        if unread > 0 { deliverPush(u, .notificationsRead(count: unread), context: -1) }
    }

    /// The app obtains its token (the first time, generation 1) and registers it.
    mutating func pushRegister(_ d: UInt32) {
        let u = Int(push.userOf[Int(d)])
        if push.truth[u].generation == 0 { push.truth[u].generation = 1 }
        let generation = push.truth[u].generation
        if push.truth[u].provider == .apns {
            push.apns.tokenIssued(device: d, generation: generation)
        } else {
            push.fcm.tokenIssued(device: d, generation: generation)
        }
        push.truth[u].gone.removeAll { $0 == generation }
        push.metrics.registrations += 1
        let token = PushToken(device: PushDeviceID(d), generation: generation, provider: push.truth[u].provider)
        deliverPush(u, .deviceRegistered(token), context: -1)
    }
}
