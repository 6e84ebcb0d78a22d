import SimKernel
import AppLogic
import Platform
import Backend

/// What the providers stored for a device that became reachable, and what they hand over.
struct PushHandover {
    var stored: [UInt32]
    /// The one message APNs hands over (it keeps one per app), compared in place.
    var apnsDelivery: UInt64?
    var flush: FCMGatewayModel.Flush?

    /// Whether stored message `m` reaches the device (else it ended: ``unreached``).
    func delivers(_ m: UInt32) -> Bool {
        let message = UInt64(m)
        return apnsDelivery == message || flush?.deliveries.contains(where: { $0.message == message }) == true
    }

    /// How a stored message the provider does not hand over ended.
    var unreached: PushOutcome { flush?.deletedMessages ?? false ? .droppedByProvider : .expired }
}

/// A push on the phone: delivery, Notification Centre, the silent-push throttle, opens.
/// The world sequences the steps of an arrival (World+Push's `pushArrives`), since FCM's
/// side on the phone, the delivery receipt and Notification Centre come between them.
extension PushHost {
    /// Device `d` came online (or out of idle) and may receive: the providers hand over
    /// what they stored (nil: nothing stored).
    mutating func handOver(_ d: UInt32, core: inout WorldCore) -> PushHandover? {
        let u = Int(userOf[Int(d)])
        guard !truth[u].stored.isEmpty else { return nil }
        var handover = PushHandover(stored: truth[u].stored)
        truth[u].stored.removeAll()
        if truth[u].provider == .apns {
            handover.apnsDelivery = apns.deviceCameOnline(gatewayDevice[u], now: core.now)?.message
        } else {
            handover.flush = fcm.deviceReachable(gatewayDevice[u], now: core.now)
        }
        return handover
    }

    /// The device message `message` goes to.
    @inline(__always) func device(ofMessage message: UInt32) -> UInt32 { truth[Int(messages[Int(message)].user)].device }

    /// A message reaches the phone; false when the app is uninstalled (the phone discards it).
    mutating func arrives(_ message: UInt32, core: inout WorldCore) -> Bool {
        let u = Int(messages[Int(message)].user)
        guard truth[u].uninstalled else { return true }
        core.note(truth[u].device, "OS: push for an uninstalled app discarded")
        messageEnded(message, as: .uninstalled)
        return false
    }

    /// FCM's side of an arrival on the phone (a high-priority message's allow-list, a held
    /// one's wait), for the world; nil for APNs.
    @inline(__always) func fcmArrival(_ message: UInt32) -> HostRequest? {
        let m = messages[Int(message)]
        guard truth[Int(m.user)].provider == .fcm else { return nil }
        return .fcm(.fcmArrived(wakesApp: m.wakesApp, heldSince: m.heldSince))
    }

    /// The message reaches the app or the OS's display rules. A silent one ends here (FCM:
    /// the app has it; iOS: the throttle decides): returns false. An alert counts as
    /// delivered, with the notifications it carries.
    mutating func reachesApp(_ message: UInt32, core: inout WorldCore) -> Bool {
        let m = messages[Int(message)]
        let u = Int(m.user)
        let d = truth[u].device
        let i = Int(d)
        if m.silent, truth[u].provider == .fcm {
            // An FCM data message reaches the app when FCM delivers it; the iOS throttle is not Android's.
            metrics.silent[0] += 1
            core.note(d, "OS: data message delivered to the app")
            return false
        }
        if m.silent, !core.cohorts[Int(core.devices[i].cohort)].throttlesInForeground,
           core.devices[i].process == .running, core.now < core.devices[i].foregroundUntil {
            // `ios.foregroundSilentPush: delivered`: the running app in the foreground hears it at once.
            metrics.silent[0] += 1
            core.note(d, "OS: silent push delivered to the app in the foreground")
            return false
        }
        if m.silent {
            let decision = throttle.receive(priority: UInt8(m.apnsPriority), now: core.now,
                                            conditions: Self.silentPushConditions(i, core), state: &truth[u].silent)
            switch decision {
            case .deliver: metrics.silent[0] += 1
            case .coalesced(let at, let newlyScheduled):
                metrics.silent[1] += 1
                if newlyScheduled {
                    metrics.silent[5] += 1
                    schedule(.silentWaiting(device: d), at: at, core: &core)
                }
            case .dropped: metrics.silent[2] += 1
            }
            core.note(d) { c in "OS: silent push \(Self.words(decision, c))" }
            return false
        }
        let n = Int(m.notification)
        ledger[n].live -= 1
        markDelivered(UInt32(n), now: core.now)
        if let carried = summaries[UInt32(n)] { for id in carried { markDelivered(UInt32(id.rawValue), now: core.now) } }
        return true
    }

    /// FCM devices send a delivery receipt for an alert that reached them.
    @inline(__always) func receipt(_ message: UInt32) -> PushDelivery? {
        let m = messages[Int(message)]
        let u = Int(m.user)
        guard truth[u].provider == .fcm else { return nil }
        let n = m.notification
        return PushDelivery(user: u, input: .deliveryReceipt(NotificationID(UInt64(n)), PushDeviceID(truth[u].device)), context: n)
    }

    /// The OS displays the alert when the permission allows it, unless its collapse id
    /// replaces one shown; returns the notification for Notification Centre.
    mutating func display(_ message: UInt32, core: inout WorldCore) -> LocalNotification? {
        let m = messages[Int(message)]
        let u = Int(m.user)
        let d = truth[u].device
        let i = Int(d)
        let n = Int(m.notification)
        let authorization = core.devices[i].notificationCenter.authorization
        guard authorization.allowsPosting else {
            metrics.notShownWithoutPermission += 1
            core.note(d, "OS: push n\(n) not shown (permission \(authorization))")
            return nil
        }
        if m.priority == .normal || m.priority == .high { observePushDisplayed(user: u, device: i, notification: n, core: core) }
        if m.collapsible {
            observePushDisplayedCollapsible(user: u, device: i, notification: n, core: core)
            if truth[u].shownCollapsed.contains(UInt32(n)) {
                // The OS replaces the shown notification: nothing new in Notification Centre.
                metrics.collapsedInPlace += 1
                return nil
            }
            truth[u].shownCollapsed.append(UInt32(n))
        }
        if authorization == .provisional { metrics.shownQuietly += 1 } else { metrics.shown += 1 }
        core.note(d, "OS: push n\(n) shown")
        return LocalNotification(kind: .push)
    }

    /// The user sees the displayed push: opens it (an app open, later) or dismisses it.
    mutating func userSees(_ message: UInt32, core: inout WorldCore) {
        let u = Int(messages[Int(message)].user)
        let d = truth[u].device
        let i = Int(d)
        // The cohort's two fields, taken from the host's copy of its section (the whole
        // `PushUsage` would retain its arrays).
        let c = Int(core.devices[i].cohort)
        let open = usages[c].openProbability, openDelay = usages[c].openDelay
        if let delay = core.streams(of: i).withStream(.push, at: &streams[u], {
            $0.chance(open) ? openDelay.sampleDuration(&$0) : nil
        }) {
            guard core.now + delay < core.end else { return }
            metrics.opened += 1
            metrics.timeToOpen.record(delay.microseconds)
            core.schedule(.notificationTapped(device: d), after: delay)
        } else {
            metrics.dismissed += 1
        }
    }

    /// The silent push the throttle held is due: one wake for it, unless
    /// Background App Refresh or Low Power Mode stops it now (``SilentPushThrottle/deliverWaiting(now:conditions:state:)``).
    /// Nothing when the hold ended earlier (delivered at a launch, discarded at a kill).
    mutating func silentWaiting(_ d: UInt32, core: inout WorldCore) {
        let u = Int(userOf[Int(d)])
        let merged = truth[u].silent.merged
        guard let decision = throttle.deliverWaiting(now: core.now, conditions: Self.silentPushConditions(Int(d), core),
                                                     state: &truth[u].silent)
        else { return }
        switch decision {
        case .deliver: metrics.silent[3] += 1
        case .dropped: metrics.silent[4] += 1
        case .coalesced: return
        }
        core.note(d) { c in "OS: held silent push (\(merged) merged) \(Self.words(decision, c))" }
    }

    /// The user launches the app: the push the throttle holds is delivered now, before
    /// anything else of the open (``SilentPushThrottle/deliverHeldAtLaunch(state:)``).
    private mutating func heldSilentPushAtLaunch(_ d: UInt32, core: inout WorldCore) {
        let u = Int(userOf[Int(d)])
        guard let merged = throttle.deliverHeldAtLaunch(state: &truth[u].silent) else { return }
        metrics.silent[6] += 1
        core.note(d, "OS: held silent push (\(merged) merged) delivered at the launch")
    }

    /// The user force-quit the app, or something killed it (`why`: the trace's words): the
    /// push the throttle holds is discarded (``SilentPushThrottle/discardHeld(state:)``).
    mutating func discardHeldSilentPush(_ d: UInt32, forceQuit: Bool, why: String, core: inout WorldCore) {
        let u = Int(userOf[Int(d)])
        guard let merged = throttle.discardHeld(state: &truth[u].silent) else { return }
        metrics.silent[forceQuit ? 7 : 8] += 1
        core.note(d, "OS: held silent push (\(merged) merged) discarded (\(why))")
    }

    /// Device `i`'s settings and the user's force-quit, as the throttle reads them.
    @inline(__always) static func silentPushConditions(_ i: Int, _ core: borrowing WorldCore) -> SilentPushThrottle.Conditions {
        SilentPushThrottle.Conditions(backgroundAppRefresh: core.devices[i].backgroundAppRefresh,
                                      lowPowerMode: core.devices[i].lowPowerMode, forceQuit: core.userForceQuitApp(i))
    }

    /// A throttle decision as a replay reads it: its times in human units, not as the
    /// enum prints them (`deliver(runtime: 30s)`).
    static func words(_ decision: SilentPushThrottle.Decision, _ core: borrowing WorldCore) -> String {
        switch decision {
        case .deliver(let runtime): return "delivered; the handler may run \(core.human(runtime))"
        case .coalesced(let at, let newlyScheduled):
            return newlyScheduled ? "held until \(core.format(at))" : "merged into the one held until \(core.format(at))"
        case .dropped(let reason): return "dropped (\(reason))"
        }
    }

    mutating func markDelivered(_ n: UInt32, now: SimTime) {
        let entry = ledger[Int(n)]
        guard entry.outcome != .delivered else { return }
        ledger[Int(n)].outcome = .delivered
        metrics.createdToDelivered[Int(entry.priority.rawValue)].record((now - entry.createdAt).microseconds, at: now.microseconds)
    }

    // MARK: - Opens and registration

    /// An app open: the silent push the throttle holds is delivered first ("immediately",
    /// ``heldSilentPushAtLaunch(_:core:)``); an uninstalled app is reinstalled (a new token). Returns the push user
    /// (nil: the device runs no push) and whether the app registers its token now: with
    /// permission, when the registry does not hold it active (a new token: not yet). The
    /// world then delivers the open as in-app activity and the user reading every
    /// notification (docs/model.md: an open reads every notification).
    mutating func appOpened(_ d: UInt32, core: inout WorldCore) -> (user: Int, registers: Bool)? {
        guard active else { return nil }
        let u32 = userOf[Int(d)]
        guard u32 >= 0 else { return nil }
        let u = Int(u32)
        heldSilentPushAtLaunch(d, core: &core)
        // Read first: a change through the out-of-line lists costs more than a look.
        if !truth[u].shownCollapsed.isEmpty { truth[u].shownCollapsed.removeAll() }
        if truth[u].uninstalled { reinstalled(u, core: &core) }
        let status = truth[u].registryStatus
        let registers = core.devices[Int(d)].notificationCenter.authorization.allowsPosting && status != .active && status != .inactive
        return (u, registers)
    }

    /// The user has read every notification at the open (nil: none unread).
    @inline(__always) func notificationsRead(_ u: Int) -> PushDelivery? {
        let unread = users[u].unread
        return unread > 0 ? PushDelivery(user: u, input: .notificationsRead(count: unread), context: -1) : nil
    }

    /// The app obtains its token (the first time, generation 1) and registers it.
    mutating func register(_ d: UInt32) -> PushDelivery {
        let u = Int(userOf[Int(d)])
        if truth[u].generation == 0 { truth[u].generation = 1 }
        let generation = truth[u].generation
        if truth[u].provider == .apns {
            apns.tokenIssued(device: gatewayDevice[u], generation: generation)
        } else {
            fcm.tokenIssued(device: gatewayDevice[u], generation: generation)
        }
        if truth[u].gone.contains(generation) { truth[u].gone.removeAll { $0 == generation } }
        metrics.registrations += 1
        let token = PushToken(device: PushDeviceID(d), generation: generation, provider: truth[u].provider)
        return PushDelivery(user: u, input: .deviceRegistered(token), context: -1)
    }
}
