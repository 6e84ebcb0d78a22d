import SimKernel
import AppLogic
import Platform
import Backend

/// The push service's queue and streams, and the APNs and FCM provider models.
extension PushHost {
    /// The push service takes a send of user `u`: it waits for a stream, is refused
    /// (the queue full), or starts at once (FCM's side of it is the world's).
    mutating func send(_ u: Int, _ id: PushSendID, _ token: PushToken, _ payload: PushPayload, _ priority: PushPriority,
                       _ platformPriority: PushPlatformPriority, _ collapseId: String?, _ expiration: Instant, context: Int64,
                       core: inout WorldCore) -> HostRequest? {
        let d = Int(token.device.rawValue)
        let now = core.now
        observePushSend(user: u, device: d, id, token, expiration: expiration, priority: priority, core: core)
        observePushPayloadSent(user: u, device: d, id, token, payload, expiration: expiration, core: core)

        var notification: Int64 = -1
        switch payload.content {
        case .alert(let n, _, _, _), .summary(let n, _): notification = Int64(n.rawValue)
        default: break  // content that is no notification of the ledger
        }
        if notification >= 0 {
            let n = Int(notification)
            if ledger[n].firstSentAt == SimTime.never { ledger[n].firstSentAt = now }
            ledger[n].live += 1
        }
        let record = PushInflight(user: UInt32(u), send: id, token: token, payload: payload, priority: priority,
                                  platformPriority: platformPriority, collapseId: collapseId, expiration: expiration, notification: notification)
        let slot: UInt32
        if let free = freeInflight.popLast() {
            slot = free
            let generation = inflight[Int(free)].generation &+ 1
            inflight[Int(free)] = record
            inflight[Int(free)].generation = generation
        } else {
            slot = UInt32(inflight.count)
            inflight.append(record)
        }
        let p = PushHost.provider(token.provider)
        inflight[Int(slot)].arrivedAt = now
        metrics.sends[p] += 1
        load.sends[p][load.index(now)] &+= 1
        if dispatchers[p].streaming < concurrency {
            return startStream(slot, core: &core)
        } else if dispatchers[p].queue.count >= queueLimit {
            // The push service's own queue is full: refused at once, as a 503.
            metrics.rejectedByQueue[p] += 1
            core.requestRecorder?.send(arrival: now, hold: nil, provider: p, rejected: true)
            load.rejected[p][load.index(now)] &+= 1
            inflight[Int(slot)].result = .status(503, retryAfter: nil)
            schedule(.answer(slot: slot, generation: inflight[Int(slot)].generation), at: now, core: &core)
        } else {
            dispatchers[p].queue.append(slot)
            let depth = dispatchers[p].queue.count
            dispatchers[p].peakQueue = max(dispatchers[p].peakQueue, depth)
            let b = load.index(now)
            load.queuePeak[p][b] = max(load.queuePeak[p][b], UInt32(clamping: depth))
        }
        return nil
    }

    /// The device send `slot` goes to.
    @inline(__always) func device(ofSend slot: UInt32) -> UInt32 { inflight[Int(slot)].token.device.rawValue }

    /// The send takes a stream and goes to its provider's model: APNs at once; for FCM,
    /// the OS seam first decides how the message would reach the phone (a request the
    /// world carries out, then ``sendViaFCM(_:route:core:)``).
    mutating func startStream(_ slot: UInt32, core: inout WorldCore) -> HostRequest? {
        let s = Int(slot)
        let now = core.now
        let p = PushHost.provider(inflight[s].token.provider)
        inflight[s].streaming = true
        inflight[s].sentAt = now
        dispatchers[p].streaming += 1
        let streaming = dispatchers[p].streaming
        dispatchers[p].peakStreaming = max(dispatchers[p].peakStreaming, streaming)
        let b = load.index(now)
        load.streamingPeak[p].note(streaming, bucket: b)
        let urgent = inflight[s].platformPriority == .high
        observeProviderPriority(slot, urgent: urgent, core: core)
        guard inflight[s].token.provider == .apns else { return .fcm(.routeFCM(slot: slot, highPriority: urgent)) }
        let record = inflight[s]
        let d = Int(record.token.device.rawValue)
        let u = Int(record.user)
        let apnsPriority = urgent ? 10 : 5
        let request = APNsGatewayModel.Request(token: GatewayToken(device: gatewayDevice[u], generation: record.token.generation),
                                               message: UInt64(messages.count), priority: apnsPriority,
                                               expiration: simTime(record.expiration), collapseId: record.collapseId,
                                               payloadBytes: record.payload.bytes)
        let online = core.devices[d].online
        let (answer, delivery) = core.streams(of: d).withStream(.push, at: &streams[u]) { apns.send(request, deviceOnline: online, now: now, rng: &$0) }
        providerAnswered(slot, answer, delivery, route: .direct, core: &core)
        return nil
    }

    /// FCM takes send `slot`, reaching the phone by `route` (Doze, the bucket's
    /// high-priority limit and a force-stop decided it: AndroidHost+FCMDelivery).
    mutating func sendViaFCM(_ slot: UInt32, route: FCMRoute, core: inout WorldCore) {
        let s = Int(slot)
        let now = core.now
        let record = inflight[s]
        let u = Int(record.user)
        let request = FCMGatewayModel.Request(token: GatewayToken(device: gatewayDevice[u], generation: record.token.generation),
                                              message: UInt64(messages.count), highPriority: route.highPriority,
                                              ttl: max(.zero, simTime(record.expiration) - now), collapseKey: record.collapseId,
                                              payloadBytes: record.payload.bytes)
        let d = Int(record.token.device.rawValue)
        let (answer, delivery) = core.streams(of: d).withStream(.push, at: &streams[u]) { fcm.send(request, reach: route.reach, now: now, rng: &$0) }
        providerAnswered(slot, answer, delivery, route: route, core: &core)
    }

    /// The provider's model answered send `slot`: the answer event (or the timeout), and
    /// an accepted message's way to the phone (delivered, stored, or expired at once).
    private mutating func providerAnswered(_ slot: UInt32, _ answer: GatewayAnswer, _ delivery: GatewayDelivery?, route: FCMRoute,
                                           core: inout WorldCore) {
        let s = Int(slot)
        let now = core.now
        let record = inflight[s]
        let message = UInt64(messages.count)
        let timeout = SimDuration(microseconds: config.providerTimeout.microseconds)
        var after = timeout
        switch answer {
        case .unanswered:
            inflight[s].result = .timedOut
        case .rejected(let status, let reason, let retryAfter, let latency):
            after = min(latency, timeout)
            // APNs names the token in its 400 (docs/platform-facts.md G: BadDeviceToken): the token is invalid.
            let result: PushProviderResult = status == 400 && reason == "BadDeviceToken"
                ? .invalidToken(status) : .status(status, retryAfter: retryAfter.map { Interval(microseconds: $0.microseconds) })
            inflight[s].result = latency < timeout ? result : .timedOut
        case .accepted(let latency):
            after = min(latency, timeout)
            inflight[s].result = latency < timeout ? .accepted : .timedOut
            let silent = record.payload.isSilent
            messages.append(PushMessage(notification: record.notification, heldSince: delivery == nil && route.held ? now : SimTime.never,
                                        user: record.user, priority: record.priority, silent: silent,
                                        collapsible: record.collapseId != nil, wakesApp: route.wakesApp, urgent: record.platformPriority == .high))
            if delivery == nil, route.held { core.metrics.platform.fcmDeferrals += 1 }
            if record.notification >= 0 { ledger[Int(record.notification)].live += 1 }
            if let delivery {
                schedule(.arrives(message: UInt32(message)), at: delivery.at, core: &core)
            } else if simTime(record.expiration) > now + latency {
                store(UInt32(message), user: Int(record.user))
            } else {
                messageEnded(UInt32(message), as: .expired)
                messageDone(UInt32(message))
            }
        }
        inflight[s].latency = after
        schedule(.answer(slot: slot, generation: inflight[s].generation), after: after, core: &core)
        load.addStreamBusy(PushHost.provider(record.token.provider), from: record.sentAt, to: now + after, end: core.end)
        core.requestRecorder?.send(arrival: record.arrivedAt, hold: now + after - record.sentAt, provider: PushHost.provider(record.token.provider), rejected: false)
    }

    /// The provider stores an accepted message for an offline device. APNs keeps one per
    /// app: the one it replaces is dropped (docs/platform-facts.md G).
    mutating func store(_ message: UInt32, user u: Int) {
        if truth[u].provider == .apns, let old = truth[u].stored.first {
            truth[u].stored.removeAll()
            messageEnded(old, as: .droppedByProvider)
            messageDone(old)
        }
        truth[u].stored.append(message)
    }

    /// Message `message` will not be read again: it reached the phone (after
    /// `pushArrives`), or ended while stored or at once. Every accepted message comes here
    /// exactly once, unless the run ends first (scheduled to arrive, or stored).
    mutating func messageDone(_ message: UInt32) { messages.release(Int(message)) }

    /// A message will never reach the device.
    mutating func messageEnded(_ message: UInt32, as outcome: PushOutcome) {
        let n = messages[Int(message)].notification
        guard n >= 0 else { return }
        ledger[Int(n)].live -= 1
        ledger[Int(n)].lastEnd = outcome
        let entry = ledger[Int(n)]
        if entry.outcome == .pending, entry.live == 0, !users[Int(entry.user)].holds(NotificationID(UInt64(n))) {
            ledger[Int(n)].outcome = outcome
        }
    }

    /// The provider answered (or the 30 s timeout fired, or the service refused the send):
    /// the slot and its stream are freed; returns the send that takes the stream next, if
    /// any (nil when the answer is stale: ``answerIsCurrent(_:generation:)``).
    mutating func answerFreesStream(_ slot: UInt32) -> UInt32? {
        let s = Int(slot)
        inflight[s].free = true
        inflight[s].collapseId = nil
        freeInflight.append(slot)
        guard inflight[s].streaming else { return nil }
        let p = PushHost.provider(inflight[s].token.provider)
        dispatchers[p].streaming -= 1
        // Freed at its answer: taken at `sentAt`, answered `latency` later.
        load.streamingPeak[p].note(dispatchers[p].streaming, bucket: load.index(inflight[s].sentAt + inflight[s].latency))
        metrics.providerLatency[p].record(inflight[s].latency.microseconds)
        return dispatchers[p].queue.popFirst()
    }

    /// An answer event of `slot` is current (not a stale generation or an answered send).
    @inline(__always) func answerIsCurrent(_ slot: UInt32, generation: UInt32) -> Bool {
        inflight[Int(slot)].generation == generation && !inflight[Int(slot)].free
    }

    /// The answer of send `slot` (freed, after the next send took its stream) is counted
    /// and goes to the router.
    mutating func accountAnswer(_ slot: UInt32, core: inout WorldCore) -> PushDelivery {
        let record = inflight[Int(slot)]
        let p = PushHost.provider(record.token.provider)
        let u = Int(record.user)
        switch record.result {
        case .accepted:
            metrics.accepted[p] += 1
        case .timedOut:
            metrics.unanswered[p] += 1
        case .invalidToken(let status):
            if let k = PushMetrics.statuses.firstIndex(of: status) { metrics.byStatus[p][k] += 1 }
            reportedGone(u, generation: record.token.generation)
        case .status(let status, _):
            if let k = PushMetrics.statuses.firstIndex(of: status) { metrics.byStatus[p][k] += 1 }
            if record.streaming, status == 429 || status >= 500 { load.rejected[p][load.index(core.now)] &+= 1 }
            if status == 410 || status == 404 {
                reportedGone(u, generation: record.token.generation)
            } else if status < 500, status != 429, status != 410, status != 404 {
                let nowMicroseconds = instant(core.now).unixMicroseconds
                truth[u].refused.removeAll { $0.expiration < nowMicroseconds }
                truth[u].refused.append(RefusedSend(generation: record.token.generation,
                                                    expiration: record.expiration.unixMicroseconds, priority: record.priority))
            }
        }
        if record.notification >= 0 { ledger[Int(record.notification)].live -= 1 }
        observePushAnswered(user: u, record.send, record.result, core: core)
        observeTokenAnswer(user: u, record, core: core)
        if record.result == .accepted, record.token.provider == .apns { observeHighDeliveryKnown(record.notification, core: core) }
        return PushDelivery(user: u, input: .providerResponse(record.send, record.result), context: record.notification)
    }

    /// The provider reported token `generation` of user `u` unregistered (oracle truth).
    mutating func reportedGone(_ u: Int, generation: UInt32) {
        if !truth[u].gone.contains(generation) { truth[u].gone.append(generation) }
    }
}
