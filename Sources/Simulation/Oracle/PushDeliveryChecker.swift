import SimKernel
import AppLogic
import Backend
import Scenario

/// One push user's counts of the pushes that went out, by the oracle's own local day and
/// week of the home zone (``OracleZone``), for the frequency limits (seed `001`, "Push
/// Frequency Limits"). 12 bytes a push user (``PushRulesTruth/cap``).
struct PushCapTruth {
    var normalDay: Int32 = .min
    var highWeek: Int32 = .min
    var normalSent: UInt16 = 0
    var highSent: UInt16 = 0
}

/// A send of one retry chain, as the providers answered it (``PushHost/retryTruth``, by
/// user and send id; only the chains still alive): how many answers of the chain failed
/// before this send, and this send's failed answer (`answeredAt` never until then).
struct PushRetryTruth {
    var attempt: Int
    var answeredAt = SimTime.never
    var result = PushProviderResult.timedOut
}

/// What the server knew of one high push, for the email fallback's judge
/// (``PushHost/highTruth``, by notification; judged when the ledger closes): when a
/// delivery became known (APNs accepted a send, the logic's documented assumption, or an
/// FCM receipt reached the router), when its send failed for good, and when a delayed
/// email went out. `SimTime.never`: not (yet).
struct HighPushTruth {
    var deliveredKnownAt = SimTime.never
    var failedAt = SimTime.never
    var delayedEmailAt = SimTime.never
}

/// The delivery rules' checks (seed `001`): the frequency limits, the retry schedule and
/// the TTLs, computed from what the providers answered, the ledger and the scenario's
/// `logic.push` numbers (what the user asked for, not the router's configuration).
extension PushHost {
    static func retryKey(_ u: Int, _ id: PushSendID) -> UInt64 { UInt64(u) << 32 | UInt64(id.rawValue) }

    /// The push service sends `id` (payload `payload`, expiring at `expiration`) for user `u`.
    /// Called before the ledger records the send.
    @inline(__always) func observePushSendRules(user u: Int, device d: Int, _ id: PushSendID, _ payload: PushPayload,
                                       expiration: Instant, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let logic = core.oracle.judged.push
        let now = instant(core.now)
        let retryOf = core.oracle.push.judgedRetryOf
        var notification = -1, summary = false
        switch payload.content {
        case .alert(let n, _, _, _): notification = Int(n.rawValue)
        case .summary(let n, _): notification = Int(n.rawValue); summary = true
        case .badgeOnly, .validation: break
        }
        // The TTL (seed 001, "Notification Expiration"): nothing is sent after it; an alert's
        // runs from its creation by priority, a summary's (normal) and a silent push's (low) from its first send.
        let expected: Instant?
        if notification >= 0, !summary {
            expected = instant(ledger[notification].createdAt) + Interval(microseconds: Self.ttl(ledger[notification].priority, logic).microseconds)
        } else if retryOf == nil {
            expected = now + Interval(microseconds: (summary ? logic.ttlNormal : logic.ttlLow).microseconds)
        } else {
            expected = nil
        }
        let ttlHolds = now < expiration && (expected.map { $0 == expiration } ?? true)
        core.verify(ttlHolds, .pushExpirationWrong, device: d, time: core.now,
                    detail: ttlHolds ? nil : "send \(id) expires at \(core.format(simTime(expiration)))"
                        + (expected.map { ", not at \(core.format(simTime($0)))" } ?? ", before it is sent"))
        if let old = retryOf { judgeRetry(user: u, device: d, old: old, new: id, logic: logic, core: core) }
        // The limits (seed 001, "Push Frequency Limits"): the first send of a normal alert or
        // summary counts against the day, of a high alert against the (Monday) week.
        guard notification >= 0, ledger[notification].firstSentAt == SimTime.never else { return }
        let priority = summary ? PushPriority.normal : ledger[notification].priority
        guard priority == .normal || priority == .high else { return }
        if priority == .high, !summary { core.oracle.push.highTruth[UInt32(notification)] = HighPushTruth() }
        let day = core.oracle.zones[Int(core.oracle.push.rules[u].settings.zone)].wall(OracleZone.unixSeconds(core.now, startUnixSeconds: core.startUnixSeconds)).day
        if priority == .normal {
            if core.oracle.push.rules[u].cap.normalDay != Int32(day) { core.oracle.push.rules[u].cap.normalDay = Int32(day); core.oracle.push.rules[u].cap.normalSent = 0 }
            core.oracle.push.rules[u].cap.normalSent &+= 1
            let holds = Int(core.oracle.push.rules[u].cap.normalSent) <= logic.normalPerDay
            core.verify(holds, .normalDailyLimitExceeded, device: d, time: core.now,
                        detail: holds ? nil : "normal push n\(notification) is the \(core.oracle.push.rules[u].cap.normalSent)th of the user's local day (limit \(logic.normalPerDay))")
        } else {
            let week = Int32(OracleZone.floorDiv(day + 3, 7))
            if core.oracle.push.rules[u].cap.highWeek != week { core.oracle.push.rules[u].cap.highWeek = week; core.oracle.push.rules[u].cap.highSent = 0 }
            core.oracle.push.rules[u].cap.highSent &+= 1
            let holds = Int(core.oracle.push.rules[u].cap.highSent) <= logic.highPerWeek
            core.verify(holds, .highWeeklyLimitExceeded, device: d, time: core.now,
                        detail: holds ? nil : "high push n\(notification) is the \(core.oracle.push.rules[u].cap.highSent)th of the user's local week (limit \(logic.highPerWeek))")
        }
    }

    /// The TTL of `priority` in the scenario's `logic.push`: high and blocking 24 h, normal 7 d, low 3 d by default.
    static func ttl(_ priority: PushPriority, _ logic: PushLogicConfig) -> SimDuration {
        switch priority {
        case .blocking, .high: logic.ttlHigh
        case .normal: logic.ttlNormal
        case .low: logic.ttlLow
        }
    }

    /// Send `new` retries send `old` (seed `001`, "Retry Logic"; docs/platform-facts.md H):
    /// at most `retryDelays.count` retries, a 5xx or a timeout after `retryDelays[attempt]`,
    /// a 429 after `rateLimitBackoff` doubled at each attempt, `Retry-After` when longer,
    /// counted from the failed answer.
    @inline(__always) private func judgeRetry(user u: Int, device d: Int, old: PushSendID, new: PushSendID, logic: PushLogicConfig, core: borrowing WorldCore) {
        let key = Self.retryKey(u, old)
        let failed = core.oracle.push.retryTruth.removeValue(forKey: key)
        var expected: SimDuration?
        if let f = failed, f.answeredAt != SimTime.never, f.attempt < logic.retryDelays.count {
            switch f.result {
            case .timedOut: expected = logic.retryDelays[f.attempt]
            case .status(let code, let retryAfter) where code == 429 || code >= 500:
                let base = code == 429 ? SimDuration(microseconds: logic.rateLimitBackoff.microseconds << Int64(f.attempt)) : logic.retryDelays[f.attempt]
                expected = max(base, SimDuration(microseconds: retryAfter?.microseconds ?? 0))
            default: expected = nil
            }
        }
        let holds = expected.map { failed!.answeredAt + $0 == core.now } ?? false
        core.verify(holds, .pushRetryScheduleWrong, device: d, time: core.now,
                    detail: holds ? nil : "send \(new) retries \(old) " + (expected.map { "at \(core.format(core.now)), not at \(core.format(failed!.answeredAt + $0))" }
                        ?? "although its answer allows no retry (attempt \(failed.map { $0.attempt + 1 } ?? 0))"))
        core.oracle.push.retryTruth[Self.retryKey(u, new)] = PushRetryTruth(attempt: (failed?.attempt ?? 0) + 1)
    }

    /// A provider answered send `id` of user `u` with `result` (truth): a failure that may be
    /// retried is kept for the retry's check, anything else ends the chain.
    @inline(__always) func observePushAnswered(user u: Int, _ id: PushSendID, _ result: PushProviderResult, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let key = Self.retryKey(u, id)
        switch result {
        case .timedOut, .status:
            var entry = core.oracle.push.retryTruth[key] ?? PushRetryTruth(attempt: 0)
            entry.answeredAt = core.now
            entry.result = result
            core.oracle.push.retryTruth[key] = entry
        case .accepted, .invalidToken:
            core.oracle.push.retryTruth.removeValue(forKey: key)
        }
    }

    /// The router emails user `u` about notification `n`: only with email enabled.
    @inline(__always) func observeEmailFallback(user u: Int, notification n: Int, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let enabled = core.oracle.push.rules[u].settings.emailEnabled
        core.verify(enabled, .emailWithoutConsent, device: Int(truth[u].device), time: core.now,
                    detail: enabled ? nil : "email about n\(n) to a user who has not enabled email")
    }

    /// The router gave send `id` up: its chain ends.
    @inline(__always) func observePushGivenUp(user u: Int, _ id: PushSendID, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        core.oracle.push.retryTruth.removeValue(forKey: Self.retryKey(u, id))
    }
}

extension PushHost {
    /// What the server learns of high push `n`: a delivery (APNs acceptance, FCM receipt).
    @inline(__always) func observeHighDeliveryKnown(_ n: Int64, core: borrowing WorldCore) {
        guard core.oracle.watching, n >= 0, let entry = core.oracle.push.highTruth[UInt32(n)], entry.deliveredKnownAt == SimTime.never else { return }
        core.oracle.push.highTruth[UInt32(n)]!.deliveredKnownAt = core.now
    }

    /// High push `n`'s send failed for good, or a delayed email for it went out.
    @inline(__always) func observeHighEnded(_ n: Int64, email: EmailFallbackReason?, core: borrowing WorldCore) {
        guard core.oracle.watching, n >= 0, core.oracle.push.highTruth[UInt32(n)] != nil else { return }
        if email == .highPriorityDelayed {
            if core.oracle.push.highTruth[UInt32(n)]!.delayedEmailAt == SimTime.never { core.oracle.push.highTruth[UInt32(n)]!.delayedEmailAt = core.now }
        } else if email == nil, core.oracle.push.highTruth[UInt32(n)]!.failedAt == SimTime.never {
            core.oracle.push.highTruth[UInt32(n)]!.failedAt = core.now
        }
    }

    /// `highEmailFallbackWrong` for high push `n`, at the end of the run (seed `001`,
    /// "Fallback Mechanism": email when still undelivered more than 15 min after the send).
    /// Its check falls at `firstSentAt + highEmailDelay + 1 µs`, if inside the run: an
    /// email-enabled user whose push was neither known delivered by `firstSentAt +
    /// highEmailDelay` nor failed for good (that one is emailed at once, as failed) gets the
    /// delayed email exactly then; any other gets none. A delivery or failure known in the
    /// very instant of the check may come either side of it (same-instant order).
    @inline(__always) func judgeHighEmail(_ n: Int, core: borrowing WorldCore) {
        guard core.oracle.watching, let entry = core.oracle.push.highTruth[UInt32(n)] else { return }
        let deadline = ledger[n].firstSentAt + core.oracle.judged.push.highEmailDelay
        let check = deadline + SimDuration(microseconds: 1)
        guard check < core.end else { return }
        let u = Int(ledger[n].user)
        if entry.deliveredKnownAt == check || entry.failedAt == check { return }
        // `SimTime.never` is the earliest time: "not known" must not read as "known in time".
        let deliveredInTime = entry.deliveredKnownAt != SimTime.never && entry.deliveredKnownAt <= deadline
        let failedInTime = entry.failedAt != SimTime.never && entry.failedAt <= deadline
        let due = core.oracle.push.rules[u].settings.emailEnabled && !deliveredInTime && !failedInTime
        let holds = due ? entry.delayedEmailAt == check : entry.delayedEmailAt == SimTime.never
        core.verify(holds, .highEmailFallbackWrong, device: Int(truth[u].device), time: deadline,
                    detail: holds ? nil : "high push n\(n) sent at \(core.format(ledger[n].firstSentAt)): "
                        + (due ? "undelivered 15 min later, no email at \(core.format(check))" + (entry.delayedEmailAt == SimTime.never ? "" : " (at \(core.format(entry.delayedEmailAt)))")
                           : "emailed as delayed at \(core.format(entry.delayedEmailAt)), although " + (core.oracle.push.rules[u].settings.emailEnabled ? "delivered or failed in time" : "email is off")))
    }
}

/// Quiet hours' release and blocking (seed `001`, "Quiet Hours": held normal and high
/// pushes go out at their end; "Priority-Based Delivery": blocking at once, bypassing them).
extension PushHost {
    /// The router holds notification `n` until `until`: a blocking one must not be held;
    /// any other is remembered (``heldUntil``) for the check of its release.
    @inline(__always) func observeHeldRelease(user u: Int, notification n: Int, until: Instant, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let blocking = ledger[n].priority == .blocking
        core.verify(!blocking, .blockingDelayed, device: Int(truth[u].device), time: core.now,
                    detail: blocking ? "blocking notification n\(n) held for quiet hours until \(core.format(simTime(until)))" : nil)
        core.oracle.push.heldUntil[UInt32(n)] = until.unixMicroseconds
    }

    /// The push service sends `payload` (send `id`) for user `u`, before the ledger records
    /// it: a held notification's first send, or the summary's that carries it, comes at the
    /// end it was held until; a blocking notification's first send at its creation.
    @inline(__always) func observeReleaseSend(user u: Int, device d: Int, _ id: PushSendID, _ payload: PushPayload, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        switch payload.content {
        case .alert(let nid, _, _, _):
            let n = Int(nid.rawValue)
            judgeReleased(n, device: d, send: id, core: core)
            if ledger[n].priority == .blocking, ledger[n].firstSentAt == SimTime.never {
                let created = ledger[n].createdAt
                core.verify(created == core.now, .blockingDelayed, device: d, time: core.now,
                            detail: created == core.now ? nil : "blocking notification n\(n) created at \(core.format(created)) first sent at \(core.format(core.now))")
            }
        case .summary(let last, _):
            for carried in summaries[UInt32(last.rawValue)] ?? [] { judgeReleased(Int(carried.rawValue), device: d, send: id, core: core) }
        case .badgeOnly, .validation:
            break
        }
    }

    /// Held notification `n` goes out now (send `id`): now must be the end it was held until.
    @inline(__always) private func judgeReleased(_ n: Int, device d: Int, send id: PushSendID, core: borrowing WorldCore) {
        guard !core.oracle.push.heldUntil.isEmpty, let until = core.oracle.push.heldUntil.removeValue(forKey: UInt32(n)) else { return }
        let at = instant(core.now).unixMicroseconds
        core.verify(at == until, .pushHeldOutsideQuietHours, device: d, time: core.now,
                    detail: at == until ? nil : "notification n\(n) held until \(core.format(simTime(Instant(unixMicroseconds: until)))) first sent at \(core.format(core.now)) (send \(id))")
    }

    /// Notification `n` is suppressed (at a release: the activity window, a limit, no
    /// active device): it leaves the held ones unsent.
    @inline(__always) func observeSuppressedHeld(_ n: Int, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        core.oracle.push.heldUntil.removeValue(forKey: UInt32(n))
    }
}
