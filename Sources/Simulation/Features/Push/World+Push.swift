import SimKernel
import AppLogic

/// The world's side of the push host: its events, the one loop that delivers a router
/// input and executes its effects, and the steps of an arrival, an open and a reachable
/// device, where FCM's side on the phone (the OS seam), the badge and further router
/// inputs come between the host's steps. Every draw and schedule stays in the order the
/// pipeline had as one function.
extension World {
    /// Set-up: every push user with permission registers its token, then its sources and
    /// token lifecycle are scheduled; then the broadcasts.
    mutating func startPush() {
        guard push.active else { return }
        for d in core.devices.indices where push.userOf[d] >= 0 {
            if core.devices[d].notificationCenter.authorization.allowsPosting { deliverPush(push.register(UInt32(d))) }
            push.scheduleWorkload(UInt32(d), core: &core)
        }
        push.scheduleBroadcasts(core: &core)
    }

    mutating func pushEvent(_ event: PushEvent) {
        switch event {
        case .source(let d, let source):
            deliverPush(push.sourceFires(d, source: Int(source), core: &core))
            push.scheduleSource(d, source: Int(source), core: &core)
        case .broadcast(let k):
            fleetWideEvents += 1
            let purpose = StreamPurpose("broadcast.\(k)")
            for d in core.devices.indices {
                if let delivery = push.broadcastReaches(d, Int(k), purpose: purpose, core: &core) { deliverPush(delivery) }
            }
        case .timer(let slot):
            if let delivery = push.timerFires(slot) { deliverPush(delivery) }
        case .answer(let slot, let generation):
            guard push.answerIsCurrent(slot, generation: generation) else { return }
            if let next = push.answerFreesStream(slot) { startPushStream(next) }
            deliverPush(push.accountAnswer(slot, core: &core))
        case .arrives(let message):
            pushArrives(message)
            push.messageDone(message)
        case .tokenLifecycle(let d, let reinstall):
            if let rotated = push.tokenLifecycle(d, reinstall: reinstall, core: &core) { deliverPush(rotated) }
            push.scheduleLifecycle(d, reinstall: reinstall, core: &core)
        case .silentWaiting(let d):
            push.silentWaiting(d, core: &core)
        }
    }

    // MARK: - Deliver an input, execute its effects

    /// One input to a user's router; its effects run in order, each carried out at once.
    mutating func deliverPush(_ delivery: PushDelivery) {
        let u = delivery.user
        var effects = push.route(u, delivery.input, core: &core)
        var finalFailure = false
        for effect in effects {
            if let request = push.execute(effect, user: u, context: delivery.context, finalFailure: &finalFailure, core: &core) {
                carryOut(request, device: push.truth[u].device)
            }
        }
        push.routed(u, context: delivery.context, finalFailure: finalFailure, effects: &effects)
    }

    /// A queued send takes the stream an answer freed.
    private mutating func startPushStream(_ slot: UInt32) {
        if let request = push.startStream(slot, core: &core) { carryOut(request, device: push.device(ofSend: slot)) }
    }

    /// The push host's requests: FCM's side on the phone, through the OS seam.
    mutating func carryOut(_ request: PushRequest, device d: UInt32) {
        switch request {
        case .routeFCM(let slot, let highPriority):
            let route = fcmRoute(Int(d), highPriority: highPriority)
            push.sendViaFCM(slot, route: route, core: &core)
        case .fcmArrived(let wakesApp, let heldSince):
            fcmArrived(d, wakesApp: wakesApp, heldSince: heldSince)
        }
    }

    // MARK: - The phone

    /// A message reaches the phone: FCM's side, the app or the OS's display rules, the
    /// receipt, Notification Centre and the badge, the user.
    mutating func pushArrives(_ message: UInt32) {
        let d = push.device(ofMessage: message)
        guard push.arrives(message, core: &core) else { return }
        if let request = push.fcmArrival(message) { carryOut(request, device: d) }
        guard push.reachesApp(message, core: &core) else { return }
        if let receipt = push.receipt(message) { deliverPush(receipt) }
        guard let notification = push.display(message, core: &core) else { return }
        carryOut(.notify(notification), device: d)
        push.userSees(message, core: &core)
    }

    /// The device came online (or out of idle): the providers hand over what they stored.
    mutating func pushDeviceReachable(_ d: UInt32) {
        guard push.active, push.userOf[Int(d)] >= 0, fcmReachable(Int(d)) else { return }
        guard let handover = push.handOver(d, core: &core) else { return }
        for m in handover.stored {
            if handover.delivers(m) { pushArrives(m) } else { push.messageEnded(m, as: handover.unreached) }
            push.messageDone(m)
        }
    }

    /// An app open: the token registered if the registry does not hold it active, the open
    /// as in-app activity, and the user reading every notification (README, "the badge").
    mutating func pushOnOpen(_ d: UInt32) {
        guard let (u, registers) = push.appOpened(d, core: &core) else { return }
        if registers { deliverPush(push.register(d)) }
        deliverPush(PushDelivery(user: u, input: .userActivity(PushDeviceID(d)), context: -1))
        if let read = push.notificationsRead(u) { deliverPush(read) }
    }
}
