import SimKernel
import AppLogic
import Reports

/// The world's side of the push host: its events, the one loop that delivers a router
/// input and executes its effects, and the steps of an arrival, an open and a reachable
/// device, where FCM's side on the phone (the OS seam), Notification Centre and further router
/// inputs come between the host's steps. Every draw and schedule stays in the order the
/// pipeline had as one function.
extension World {
    /// Set-up: every push user with permission registers its token, then its sources and
    /// token lifecycle are scheduled; then the broadcasts.
    mutating func startPush() {
        guard features.push.active else { return }
        for d in core.devices.indices where features.push.userOf[d] >= 0 {
            if core.devices[d].notificationCenter.authorization.allowsPosting { deliverPush(features.push.register(UInt32(d))) }
            features.push.scheduleWorkload(UInt32(d), core: &core)
        }
        features.push.scheduleBroadcasts(core: &core)
    }

    mutating func pushEvent(_ event: PushEvent) {
        switch event {
        case .source(let d, let source):
            deliverPush(features.push.sourceFires(d, source: Int(source), core: &core))
            features.push.scheduleSource(d, source: Int(source), core: &core)
        case .broadcast(let k):
            fleetWideEvents += 1
            let purpose = StreamPurpose("broadcast.\(k)")
            for d in core.devices.indices {
                if let delivery = features.push.broadcastReaches(d, Int(k), purpose: purpose, core: &core) { deliverPush(delivery) }
            }
        case .timer(let slot):
            if let delivery = features.push.timerFires(slot) { deliverPush(delivery) }
        case .answer(let slot, let generation):
            guard features.push.answerIsCurrent(slot, generation: generation) else { return }
            if let next = features.push.answerFreesStream(slot) { startPushStream(next) }
            deliverPush(features.push.accountAnswer(slot, core: &core))
        case .arrives(let message):
            pushArrives(message)
            features.push.messageDone(message)
        case .tokenLifecycle(let d, let reinstall):
            if let rotated = features.push.tokenLifecycle(d, reinstall: reinstall, core: &core) { deliverPush(rotated) }
            features.push.scheduleLifecycle(d, reinstall: reinstall, core: &core)
        case .silentWaiting(let d):
            let wakes = features.push.metrics.silentWakes
            features.push.silentWaiting(d, core: &core)
            if features.push.metrics.silentWakes > wakes { silentPushWakes(d) }
        }
    }

    // MARK: - Deliver an input, execute its effects

    /// One input to a user's router; its effects run in order, each carried out at once.
    mutating func deliverPush(_ delivery: PushDelivery) {
        let u = delivery.user
        var effects = features.push.route(u, delivery.input, core: &core)
        var finalFailure = false
        for effect in effects {
            if let request = features.push.execute(effect, user: u, context: delivery.context, finalFailure: &finalFailure, core: &core) {
                carryOut(request, device: features.push.truth[u].device)
            }
        }
        features.push.routed(u, context: delivery.context, finalFailure: finalFailure, effects: &effects, core: &core)
        features.push.judgeUnreadPushed(user: u, core: core)
    }

    /// A queued send takes the stream an answer freed.
    private mutating func startPushStream(_ slot: UInt32) {
        if let request = features.push.startStream(slot, core: &core) { carryOut(request, device: features.push.device(ofSend: slot)) }
    }

    /// The push host's requests: FCM's side on the phone, through the OS seam.
    mutating func carryOut(_ request: FCMRequest, device d: UInt32) {
        switch request {
        case .routeFCM(let slot, let highPriority):
            let route = fcmRoute(Int(d), highPriority: highPriority)
            features.push.sendViaFCM(slot, route: route, core: &core)
        case .fcmArrived(let wakesApp, let heldSince):
            fcmArrived(d, wakesApp: wakesApp, heldSince: heldSince)
        }
    }

    // MARK: - The phone

    /// A message reaches the phone: FCM's side, the app or the OS's display rules, the
    /// receipt, Notification Centre, the user.
    mutating func pushArrives(_ message: UInt32) {
        let d = features.push.device(ofMessage: message)
        guard features.push.arrives(message, core: &core) else { return }
        if let request = features.push.fcmArrival(message) { carryOut(request, device: d) }
        let wakes = features.push.metrics.silentWakes
        guard features.push.reachesApp(message, core: &core) else {
            if features.push.metrics.silentWakes > wakes { silentPushWakes(d) }
            return
        }
        if let receipt = features.push.receipt(message) { deliverPush(receipt) }
        guard let notification = features.push.display(message, core: &core) else { return }
        carryOut(.notify(notification), device: d)
        features.push.userSees(message, core: &core)
    }

    /// The app was terminated: the silent push the throttle holds is discarded, a
    /// force-quit's (the launch policy marked it before terminating) or a kill's (the
    /// trace line before says which kill).
    mutating func pushOnTermination(_ d: UInt32) {
        guard features.push.active, features.push.userOf[Int(d)] >= 0 else { return }
        let forceQuit = core.userForceQuitApp(Int(d))
        features.push.discardHeldSilentPush(d, forceQuit: forceQuit, why: forceQuit ? "force-quit" : "app terminated", core: &core)
    }

    /// A silent push reaches an iOS app that is not running: the system launches it (or
    /// resumes it) in the background (Apple, `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`),
    /// a real wake: one `pushHandling` operation on the energy books that costs the launch
    /// (``backgroundLaunch(_:)``), and the app is suspended after the handler as after a
    /// task (``WorldCore/suspensionDelay(_:)``), unless something else holds it. The handler
    /// itself takes no time: the app's logic does nothing on a silent push (seed 001's
    /// needs no fetch). A running app hears it at no launch cost. (Android's FCM data
    /// messages are not this path.)
    mutating func silentPushWakes(_ d: UInt32) {
        let i = Int(d)
        guard core.cohorts[Int(core.devices[i].cohort)].platform == .ios, core.devices[i].process != .running else { return }
        core.note(d, "OS: the silent push wakes the app in the background")
        features.push.silentWakeCounts[Int(features.push.userOf[i])] += 1
        core.devices[i].ledger.begin(.pushHandling)
        backgroundLaunch(d)
        core.devices[i].ledger.end()
        core.schedule(.suspendAfterTask(device: d, serial: core.devices[i].task.serial), after: core.suspensionDelay(i))
    }

    /// The device came online (or out of idle): the providers hand over what they stored.
    mutating func pushDeviceReachable(_ d: UInt32) {
        guard features.push.active, features.push.userOf[Int(d)] >= 0, fcmReachable(Int(d)) else { return }
        guard let handover = features.push.handOver(d, core: &core) else { return }
        for m in handover.stored {
            if handover.delivers(m) { pushArrives(m) } else { features.push.messageEnded(m, as: handover.unreached) }
            features.push.messageDone(m)
        }
    }

    /// An app open: the silent push the throttle holds delivered at once, the token
    /// registered if the registry does not hold it active, the open as in-app activity,
    /// and the user reading every notification (docs/model.md: an open reads every notification).
    mutating func pushOnOpen(_ d: UInt32) {
        guard let (u, registers) = features.push.appOpened(d, core: &core) else { return }
        if registers { deliverPush(features.push.register(d)) }
        deliverPush(PushDelivery(user: u, input: .userActivity(PushDeviceID(d)), context: -1))
        if let read = features.push.notificationsRead(u) { deliverPush(read) }
    }
}

// MARK: - What it hears as a feature (Features/FeatureHooks.swift)

extension PushHost: FeatureHooks {
    @inline(__always) static func hearAppOpened(_ d: UInt32, in world: inout World<Logics>) { world.pushOnOpen(d) }
    @inline(__always) static func hearReachable(_ d: UInt32, in world: inout World<Logics>) { world.pushDeviceReachable(d) }
    @inline(__always) static func prefetchOpening(_ i: Int, android a: Int, in world: inout World<Logics>) { world.features.push.prefetchUser(of: i) }
    @inline(__always) static func wakeups(_ i: Int, in world: borrowing World<Logics>) -> UInt32 { world.features.push.silentPushWakes(of: i) }
    static func report(into parts: inout ReportParts, world: borrowing World<Logics>) { world.features.push.report(into: &parts, duration: world.scenario.duration) }
}
