import SimKernel
import AppLogic
import Platform
import Backend

/// The push router (``PushRouter``, seed `001`) on each push user: deliver an input,
/// execute the effects it asks for (the loop is the world's `deliverPush`).
extension PushHost {
    /// User `u`'s router handles `input`; its effects come back in the reused buffer,
    /// moved out (not copied) while they run: hand it back with ``routed(_:context:finalFailure:effects:core:)``.
    /// (The optimizer still copies `router`, 465 bytes, for the call while `users[u]` is
    /// borrowed inout, as it did when this was `World.deliverPush`: about 0.03 % of a
    /// push run's instructions.)
    mutating func route(_ u: Int, _ input: PushInput, core: inout WorldCore) -> [PushEffect] {
        core.note(truth[u].device, "push <- \(input)")
        if case .timerFired(.retry(let old)) = input { core.oracle.push.judgedRetryOf = old } else { core.oracle.push.judgedRetryOf = nil }
        observeRouterInput(u, input, core: core)
        if case .deliveryReceipt(let id, _) = input { observeHighDeliveryKnown(Int64(id.rawValue), core: core) }
        observeUnreadInput(user: u, input, core: core)
        var buffer: [PushEffect] = []
        swap(&buffer, &effects)
        // Emptied by popping, as in `World.deliver`: cheaper than `removeAll(keepingCapacity:)`.
        while buffer.popLast() != nil {}
        router.handle(input, state: &users[u], now: instant(core.now), into: &buffer)
        return buffer
    }

    /// Carries out one effect of user `u`'s router; returns what only the world can do
    /// (FCM's side of a send). `context` is the notification the input concerns (-1:
    /// none); `finalFailure` is set when a send failed for good.
    mutating func execute(_ effect: PushEffect, user u: Int, context: Int64, finalFailure: inout Bool,
                          core: inout WorldCore) -> HostRequest? {
        core.note(truth[u].device, "push -> \(effect)")
        switch effect {
        case .send(let id, let token, let payload, let priority, let platformPriority, let collapseId, let expiration):
            return send(u, id, token, payload, priority, platformPriority, collapseId, expiration, context: context, core: &core)
        case .startTimer(let timer, let at):
            startTimer(u, timer, at: simTime(at), context: context, core: &core)
        case .sendEmail(let id, let reason):
            metrics.emailFallbacks[reason == .allDevicesFailed ? 0 : 1] += 1
            observeHighEnded(Int64(id.rawValue), email: reason, core: core)
            observeEmailFallback(user: u, notification: Int(id.rawValue), core: core)
            let n = Int(id.rawValue)
            if ledger[n].outcome == .pending { ledger[n].outcome = .emailed }
        case .markToken(let token, let status):
            metrics.tokens[PushMetrics.index(status)] += 1
            observeTokenMarked(user: u, token, status, core: core)
            if token.generation == truth[u].generation { truth[u].registryStatus = status }
        case .emailPurgeNotice:
            metrics.purgeNotices += 1
            observePurgeNotice(user: u, core: core)
        case .purgeDevice:
            metrics.purged += 1
            observePurge(user: u, core: core)
            truth[u].registryStatus = nil
        case .suppressed(let id, let reason):
            metrics.suppressedByReason[PushMetrics.index(reason)] += 1
            let n = Int(id.rawValue)
            observeSuppressedHeld(n, core: core)
            if ledger[n].outcome == .pending { ledger[n].outcome = .suppressed }
        case .held(let id, let until):
            metrics.held += 1
            observePushHeld(user: u, notification: Int(id.rawValue), until: until, core: core)
            observeHeldRelease(user: u, notification: Int(id.rawValue), until: until, core: core)
        case .summarized(let ids, let last):
            metrics.summaries += 1
            for id in ids { ledger[Int(id.rawValue)].via = UInt32(last.rawValue) }
            summaries[UInt32(last.rawValue)] = ids
        case .sendFailed(let id, let reason, let willRetry):
            if !willRetry {
                observePushGivenUp(user: u, id, core: core)
                observeHighEnded(context, email: nil, core: core)
            }
            if willRetry {
                metrics.retries += 1
            } else {
                metrics.failuresByReason[PushMetrics.index(reason)] += 1
                finalFailure = true
            }
        }
        return nil
    }

    /// The effects have run: the buffer comes back, and the ledger settles the notification
    /// nothing carries any more: every device failed for good, or its last message ended
    /// (e.g. APNs replaced it in storage, docs/platform-facts.md G) while the router still
    /// awaited that send's answer (found by `explore`, seed 6 of the default).
    mutating func routed(_ u: Int, context: Int64, finalFailure: Bool, effects buffer: inout [PushEffect], core: inout WorldCore) {
        swap(&buffer, &effects)
        guard context >= 0 else { return }
        let n = Int(context)
        let entry = ledger[n]
        if entry.outcome == .pending, entry.live == 0, !users[u].holds(NotificationID(UInt64(n))) {
            if finalFailure {
                ledger[n].outcome = .failed
                observePushFailedEverywhere(user: u, notification: n, core: core)
            } else if entry.lastEnd != .pending {
                ledger[n].outcome = entry.lastEnd
            }
        }
    }

    // MARK: - The router's timers

    private mutating func startTimer(_ u: Int, _ timer: PushTimer, at: SimTime, context: Int64, core: inout WorldCore) {
        var notification: Int64 = -1
        switch timer {
        case .retry: notification = context
        case .escalate(let id), .highDelayCheck(let id): notification = Int64(id.rawValue)
        case .quietHoursEnd, .daily: break
        }
        let slot = PushTimerSlot(user: UInt32(u), timer: timer, notification: notification)
        let index: UInt32
        if let free = freeTimers.popLast() {
            index = free
            timers[Int(free)] = slot
        } else {
            index = UInt32(timers.count)
            timers.append(slot)
        }
        schedule(.timer(slot: index), at: max(at, core.now), core: &core)
    }

    /// Router timer `index` fires (nil: it was already taken).
    mutating func timerFires(_ index: UInt32) -> PushDelivery? {
        guard let slot = timers[Int(index)] else { return nil }
        timers[Int(index)] = nil
        freeTimers.append(index)
        return PushDelivery(user: Int(slot.user), input: .timerFired(slot.timer), context: slot.notification)
    }
}
