import Foundation
import SimKernel
import AppLogic
import Platform
import Backend
import Scenario

/// The push service's queue and streams, and the APNs and FCM provider models.
extension World {
    mutating func pushSend(_ u: Int, _ id: PushSendID, _ token: PushToken, _ payload: PushPayload, _ priority: PushPriority,
                                   _ collapseId: String?, _ expiration: Instant, context: Int64) {
        let d = Int(token.device.rawValue)
        observePushSend(user: u, device: d, id, token, expiration: expiration, priority: priority)

        var notification: Int64 = -1
        switch payload.content {
        case .alert(let n, _, _, _), .summary(let n, _): notification = Int64(n.rawValue)
        case .badgeOnly, .validation: break
        }
        if notification >= 0 {
            let n = Int(notification)
            if push.ledger[n].firstSentAt == World.never { push.ledger[n].firstSentAt = now }
            push.ledger[n].live += 1
        }
        let record = PushInflight(user: UInt32(u), send: id, token: token, payload: payload, priority: priority,
                                  collapseId: collapseId, expiration: expiration, notification: notification)
        let slot: UInt32
        if let free = push.freeInflight.popLast() {
            slot = free
            let generation = push.inflight[Int(free)].generation &+ 1
            push.inflight[Int(free)] = record
            push.inflight[Int(free)].generation = generation
        } else {
            slot = UInt32(push.inflight.count)
            push.inflight.append(record)
        }
        let p = PushWorld.provider(token.provider)
        push.metrics.sends[p] += 1
        load.pushSends[p][load.index(now)] &+= 1
        if push.dispatchers[p].streaming < push.concurrency {
            startStream(slot)
        } else if push.dispatchers[p].queue.count >= push.queueLimit {
            // The push service's own queue is full: refused at once, as a 503.
            push.metrics.rejectedByQueue[p] += 1
            load.pushRejected[p][load.index(now)] &+= 1
            push.inflight[Int(slot)].result = .status(503, retryAfter: nil)
            clock.schedule(.pushAnswer(slot: slot, generation: push.inflight[Int(slot)].generation), at: now)
        } else {
            push.dispatchers[p].queue.append(slot)
            let depth = push.dispatchers[p].queue.count
            push.dispatchers[p].peakQueue = max(push.dispatchers[p].peakQueue, depth)
            let b = load.index(now)
            load.pushQueuePeak[p][b] = max(load.pushQueuePeak[p][b], UInt32(clamping: depth))
        }
    }

    /// The send takes a stream and goes to its provider's model.
    mutating func startStream(_ slot: UInt32) {
        let s = Int(slot)
        let record = push.inflight[s]
        let p = PushWorld.provider(record.token.provider)
        push.inflight[s].streaming = true
        push.inflight[s].sentAt = now
        push.dispatchers[p].streaming += 1
        let streaming = push.dispatchers[p].streaming
        push.dispatchers[p].peakStreaming = max(push.dispatchers[p].peakStreaming, streaming)
        let b = load.index(now)
        load.pushStreamingPeak[p][b] = max(load.pushStreamingPeak[p][b], UInt32(clamping: streaming))

        let d = Int(record.token.device.rawValue)
        let u = Int(record.user)
        let message = UInt64(push.messages.count)
        let gatewayToken = GatewayToken(device: UInt32(d), generation: record.token.generation)
        let silent = record.payload.isSilent
        let apnsPriority = PushRouter.apnsPriority(record.priority, silent: silent)
        let answer: GatewayAnswer
        let delivery: GatewayDelivery?
        var route = FCMRoute.direct
        if record.token.provider == .apns {
            let request = APNsGatewayModel.Request(token: gatewayToken, message: message, priority: apnsPriority,
                                                   expiration: simTime(record.expiration), collapseId: record.collapseId,
                                                   payloadBytes: record.payload.bytes)
            (answer, delivery) = push.apns.send(request, deviceOnline: core.devices[d].online, now: now, rng: &core.devices[d].pushStream)
        } else {
            var request = FCMGatewayModel.Request(token: gatewayToken, message: message,
                                                  highPriority: PushRouter.fcmHighPriority(record.priority, silent: silent),
                                                  ttl: max(.zero, simTime(record.expiration) - now), collapseKey: record.collapseId,
                                                  payloadBytes: record.payload.bytes)
            // Doze, the bucket's high-priority limit and a force-stop decide how it reaches the phone.
            route = fcmRoute(d, highPriority: request.highPriority)
            request.highPriority = route.highPriority
            (answer, delivery) = push.fcm.send(request, reach: route.reach, now: now, rng: &core.devices[d].pushStream)
        }
        let timeout = SimDuration(microseconds: push.router.config.providerTimeout.microseconds)
        var after = timeout
        switch answer {
        case .unanswered:
            push.inflight[s].result = .timedOut
        case .rejected(let status, let reason, let retryAfter, let latency):
            after = min(latency, timeout)
            // APNs names the token in its 400 (docs/platform-facts.md G: BadDeviceToken): the token is invalid.
            let result: PushProviderResult = status == 400 && reason == "BadDeviceToken"
                ? .invalidToken(status) : .status(status, retryAfter: retryAfter.map { Interval(microseconds: $0.microseconds) })
            push.inflight[s].result = latency < timeout ? result : .timedOut
        case .accepted(let latency):
            after = min(latency, timeout)
            push.inflight[s].result = latency < timeout ? .accepted : .timedOut
            push.messages.append(PushMessage(user: UInt32(u), notification: record.notification, priority: record.priority,
                                                   silent: silent, apnsPriority: UInt8(apnsPriority), collapsible: record.collapseId != nil,
                                                   wakesApp: route.wakesApp, heldSince: delivery == nil && route.held ? now : World.never))
            if delivery == nil, route.held { metrics.platform.fcmDeferrals += 1 }
            if record.notification >= 0 { push.ledger[Int(record.notification)].live += 1 }
            if let delivery {
                clock.schedule(.pushArrives(message: UInt32(message)), at: delivery.at)
            } else if simTime(record.expiration) > now + latency {
                store(UInt32(message), user: u)
            } else {
                messageEnded(UInt32(message), as: .expired)
            }
        }
        push.inflight[s].latency = after
        clock.schedule(.pushAnswer(slot: slot, generation: push.inflight[s].generation), after: after)
    }

    /// The provider stores an accepted message for an offline device. APNs keeps one per
    /// app: the one it replaces is dropped (docs/platform-facts.md G).
    mutating func store(_ message: UInt32, user u: Int) {
        if push.truth[u].provider == .apns, let old = push.truth[u].stored.first {
            push.truth[u].stored.removeAll()
            messageEnded(old, as: .droppedByProvider)
        }
        push.truth[u].stored.append(message)
    }

    /// A message will never reach the device.
    mutating func messageEnded(_ message: UInt32, as outcome: PushOutcome) {
        let n = push.messages[Int(message)].notification
        guard n >= 0 else { return }
        push.ledger[Int(n)].live -= 1
        push.ledger[Int(n)].lastEnd = outcome
        let entry = push.ledger[Int(n)]
        if entry.outcome == .pending, entry.live == 0, !push.users[Int(entry.user)].holds(NotificationID(UInt64(n))) {
            push.ledger[Int(n)].outcome = outcome
        }
    }

    /// The provider answered (or the 30 s timeout fired, or the service refused the send).
    mutating func pushAnswer(_ slot: UInt32, generation: UInt32) {
        let s = Int(slot)
        guard push.inflight[s].generation == generation, !push.inflight[s].free else { return }
        let record = push.inflight[s]
        push.inflight[s].free = true
        push.inflight[s].collapseId = nil
        push.freeInflight.append(slot)
        let p = PushWorld.provider(record.token.provider)
        let u = Int(record.user)
        if record.streaming {
            push.dispatchers[p].streaming -= 1
            push.metrics.providerLatency[p].record(record.latency.microseconds)
            if let next = push.dispatchers[p].queue.popFirst() { startStream(next) }
        }
        switch record.result {
        case .accepted:
            push.metrics.accepted[p] += 1
        case .timedOut:
            push.metrics.unanswered[p] += 1
        case .invalidToken(let status):
            if let k = PushMetrics.statuses.firstIndex(of: status) { push.metrics.byStatus[p][k] += 1 }
            reportedGone(u, generation: record.token.generation)
        case .status(let status, _):
            if let k = PushMetrics.statuses.firstIndex(of: status) { push.metrics.byStatus[p][k] += 1 }
            if record.streaming, status == 429 || status >= 500 { load.pushRejected[p][load.index(now)] &+= 1 }
            if status == 410 || status == 404 {
                reportedGone(u, generation: record.token.generation)
            } else if status < 500, status != 429, status != 410, status != 404 {
                let nowMicroseconds = instant(now).unixMicroseconds
                push.truth[u].refused.removeAll { $0.expiration < nowMicroseconds }
                push.truth[u].refused.append(RefusedSend(generation: record.token.generation,
                                                               expiration: record.expiration.unixMicroseconds, priority: record.priority))
            }
        }
        if record.notification >= 0 { push.ledger[Int(record.notification)].live -= 1 }
        deliverPush(u, .providerResponse(record.send, record.result), context: record.notification)
    }

    /// The provider reported token `generation` of user `u` unregistered (oracle truth).
    mutating func reportedGone(_ u: Int, generation: UInt32) {
        if !push.truth[u].gone.contains(generation) { push.truth[u].gone.append(generation) }
    }
}
