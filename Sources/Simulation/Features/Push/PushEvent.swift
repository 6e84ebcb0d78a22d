import SimKernel

/// Push's events (seed `001`), kept in one case of ``FeatureEvent`` (World+Push's `pushEvent`).
enum PushEvent {
    /// A source of the device's user fires (``PushHost/sourceFires(_:source:core:)``).
    case source(device: UInt32, source: UInt8)
    /// A broadcast reaches every push user it targets at once (fleet-wide).
    case broadcast(index: UInt16)
    /// A router timer (``PushHost/timers``).
    case timer(slot: UInt32)
    /// A provider's answer to a send, its timeout, or the push service's refusal.
    case answer(slot: UInt32, generation: UInt32)
    /// An accepted message reaches the phone.
    case arrives(message: UInt32)
    /// The token changes (`reinstall` false) or the app is uninstalled (true).
    case tokenLifecycle(device: UInt32, reinstall: Bool)
    /// The silent push the iOS throttle holds is due (``SilentPushThrottle``).
    case silentWaiting(device: UInt32)
}

/// What the push host asks of FCM through the world (``HostRequest/fcm(_:)``): FCM's side on the phone,
/// which the OS seam owns (OS/Android/AndroidHost+FCMDelivery).
enum FCMRequest {
    /// FCM takes send `slot`: how it reaches the phone (Doze, the bucket's high-priority
    /// limit, a force-stop) is decided now, then the host hands it to FCM (``PushHost/sendViaFCM(_:route:core:)``).
    case routeFCM(slot: UInt32, highPriority: Bool)
    /// An FCM message reached the phone: a high-priority one temp-allow-lists the app; a
    /// held one's wait is measured.
    case fcmArrived(wakesApp: Bool, heldSince: SimTime)
}

extension PushHost {
    /// The event hashes' identity of a push event (Core/EventHashes): kind code, payload
    /// and device (nil: fleet-wide). The codes are fixed; they are those of the separate
    /// `WorldEvent` cases push had before it was gathered in one.
    @inline(__always) func eventIdentity(_ event: PushEvent) -> (UInt8, UInt32, UInt32?) {
        switch event {
        case .source(let d, let source): return (26, UInt32(source), d)
        case .broadcast(let index): return (27, UInt32(index), nil)
        case .timer(let slot): return (28, 0, timers[Int(slot)].map { truth[Int($0.user)].device })
        case .answer(let slot, _): return (29, 0, truth[Int(inflight[Int(slot)].user)].device)
        case .arrives(let message): return (30, 0, device(ofMessage: message))
        case .tokenLifecycle(let d, let reinstall): return (31, reinstall ? 1 : 0, d)
        case .silentWaiting(let d): return (32, 0, d)
        }
    }

    /// Schedules a push event: with keyed ties (Core/TieKeys) at the key of its identity,
    /// which only this host's tables tell (a timer's, an answer's or a message's device),
    /// so the state it names must be in place first.
    @inline(__always) mutating func schedule(_ event: PushEvent, at time: SimTime, core: inout WorldCore) {
        guard core.ties.isKeyed else { core.clock.schedule(.push(event), at: time); return }
        core.schedule(.push(event), at: time, identity: eventIdentity(event))
    }

    @inline(__always) mutating func schedule(_ event: PushEvent, after delay: SimDuration, core: inout WorldCore) {
        schedule(event, at: core.now + delay, core: &core)
    }

    /// Whether the event will be dropped by its slot's guard (Core/QueueStats), read when
    /// it is popped at `now`.
    @inline(__always) func isSuperseded(_ event: PushEvent, now: SimTime) -> Bool {
        switch event {
        case .answer(let slot, let generation): return !answerIsCurrent(slot, generation: generation)
        case .timer(let slot): return timers[Int(slot)] == nil
        case .silentWaiting(let d): return !truth[Int(userOf[Int(d)])].silent.isDue(at: now)
        case .source, .broadcast, .arrives, .tokenLifecycle: return false
        }
    }
}

extension PushEvent {
    /// The device whose state the event reads (Core/Prefetch), nil for the events
    /// that name a slot or message rather than a device, and the fleet-wide broadcast.
    @inline(__always) var device: UInt32? {
        switch self {
        case .source(let d, _), .tokenLifecycle(let d, _): return d
        case .silentWaiting(let d): return d
        case .broadcast, .timer, .answer, .arrives: return nil
        }
    }

    /// What a request sent while it is handled was caused by (``LoadCause``).
    var loadCause: LoadCause { .pushWake }
}

extension WorldEvent {
    /// A push event, as the world's queue holds it.
    static func push(_ event: PushEvent) -> WorldEvent { .feature(.push(event)) }
}
