import Foundation
import SimKernel
import AppLogic
import Platform
import Backend
import Scenario

/// The push router (``PushRouter``, seed `001`) on each push user: its inputs and the
/// effects it asks for.
extension World {
    /// Hands one input to user `u`'s router and carries out its effects in order.
    /// `context` is the notification the input concerns (-1: none), for the ledger.
    mutating func deliverPush(_ u: Int, _ input: PushInput, context: Int64) {
        let d = push.truth[u].device
        note(d, "push <- \(input)")
        // The reused buffer, moved out (not copied) while the effects run.
        var effects: [PushEffect] = []
        swap(&effects, &push.effects)
        effects.removeAll(keepingCapacity: true)
        push.route(u, input, now: instant(now), into: &effects)
        var finalFailure = false
        for effect in effects {
            note(d, "push -> \(effect)")
            switch effect {
            case .send(let id, let token, let payload, let priority, let collapseId, let expiration):
                pushSend(u, id, token, payload, priority, collapseId, expiration, context: context)
            case .startTimer(let timer, let at):
                pushStartTimer(u, timer, at: simTime(at), context: context)
            case .sendEmail(let id, let reason):
                push.metrics.emailFallbacks[reason == .allDevicesFailed ? 0 : 1] += 1
                let n = Int(id.rawValue)
                if push.ledger[n].outcome == .pending { push.ledger[n].outcome = .emailed }
            case .markToken(let token, let status):
                push.metrics.tokens[PushMetrics.index(status)] += 1
                if token.generation == push.truth[u].generation { push.truth[u].registryStatus = status }
            case .emailPurgeNotice:
                push.metrics.purgeNotices += 1
            case .purgeDevice:
                push.metrics.purged += 1
                push.truth[u].registryStatus = nil
            case .suppressed(let id, let reason):
                push.metrics.suppressedByReason[PushMetrics.index(reason)] += 1
                let n = Int(id.rawValue)
                if push.ledger[n].outcome == .pending { push.ledger[n].outcome = .suppressed }
            case .held:
                push.metrics.held += 1
            case .summarized(let ids, let last):
                push.metrics.summaries += 1
                for id in ids { push.ledger[Int(id.rawValue)].via = UInt32(last.rawValue) }
                push.summaries[UInt32(last.rawValue)] = ids
            case .sendFailed(_, let reason, let willRetry):
                if willRetry {
                    push.metrics.retries += 1
                } else {
                    push.metrics.failuresByReason[PushMetrics.index(reason)] += 1
                    finalFailure = true
                }
            }
        }
        push.effects = effects
        // Nothing carries the notification any more: every device failed for good, or its
        // last message ended (e.g. APNs replaced it in storage, docs/platform-facts.md G) while the
        // router still awaited that send's answer (found by `explore`, seed 6 of the default).
        if context >= 0 {
            let n = Int(context)
            let entry = push.ledger[n]
            if entry.outcome == .pending, entry.live == 0, !push.users[u].holds(NotificationID(UInt64(n))) {
                if finalFailure {
                    push.ledger[n].outcome = .failed
                } else if entry.lastEnd != .pending {
                    push.ledger[n].outcome = entry.lastEnd
                }
            }
        }
    }

    mutating func pushStartTimer(_ u: Int, _ timer: PushTimer, at: SimTime, context: Int64) {
        var notification: Int64 = -1
        switch timer {
        case .retry: notification = context
        case .escalate(let id), .highDelayCheck(let id): notification = Int64(id.rawValue)
        case .quietHoursEnd, .daily: break
        }
        let slot = PushTimerSlot(user: UInt32(u), timer: timer, notification: notification)
        let index: UInt32
        if let free = push.freeTimers.popLast() {
            index = free
            push.timers[Int(free)] = slot
        } else {
            index = UInt32(push.timers.count)
            push.timers.append(slot)
        }
        clock.schedule(.pushTimer(slot: index), at: max(at, now))
    }

    mutating func pushTimerFires(_ index: UInt32) {
        guard let slot = push.timers[Int(index)] else { return }
        push.timers[Int(index)] = nil
        push.freeTimers.append(index)
        deliverPush(Int(slot.user), .timerFired(slot.timer), context: slot.notification)
    }
}
