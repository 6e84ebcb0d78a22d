import SimKernel
import AppLogic
import Backend

/// What the server was told and saw of one push user's token, for the registry's judges
/// (``PushRulesTruth/token``): the generation the world last delivered as a registration or
/// rotation, the registry's status of that token (its last `markToken`), and the times the
/// token rules count from. 24 bytes a push user (22 used: the settings follow it).
struct PushTokenTruth {
    /// While the token is not expired, its last validation: its registration, or a provider
    /// accepting a send to it; once expired, the expiry (a token is never both).
    var since = SimTime.never
    /// The last use of the app: a registration or rotation, an open (`userActivity`), or a
    /// provider accepting a notification for the token (seed `001`, "Device Cleanup").
    var usedAt = SimTime.never
    /// The generation of the last registration or rotation delivered to the server (0: none).
    var registered: UInt32 = 0
    /// ``PushTokenStatus``' raw value + 1 of the registered token (0: none, or purged).
    var status: UInt8 = 0
    var flags: Flags = []

    struct Flags: OptionSet {
        let rawValue: UInt8
        /// A send went to the token since its last validation.
        static let sentSinceValidated = Flags(rawValue: 1 << 0)
        /// The router input being handled emailed the purge notice.
        static let purgeNoticed = Flags(rawValue: 1 << 1)
        /// Every retry of a validation push to the registered token failed softly (5xx,
        /// 429, timeout): the seed expires it.
        static let validationGaveUp = Flags(rawValue: 1 << 2)
        /// The registry deactivated the registered token for disuse, rightly by this
        /// truth's last use, and no use has come since.
        static let dormant = Flags(rawValue: 1 << 3)
    }

    func has(_ s: PushTokenStatus) -> Bool { status == s.rawValue + 1 }
}

/// The routing and registry checks of seed `001`: opt-outs, recent activity, the email
/// when every device failed, the provider priority, and the token lifecycle (expiry,
/// rotation, weekly validation, cleanup), computed from what the world delivered to the
/// router, what the providers answered, the ledger, the settings the scenario drew and
/// the scenario's `logic.push` numbers.
extension PushHost {
    /// Whether category `c` (``PushCategory``'s raw value) is among user `u`'s drawn opt-outs.
    @inline(__always) func optedOut(_ u: Int, category c: UInt8, core: borrowing WorldCore) -> Bool { core.oracle.push.rules[u].settings.optedOut & (1 << c) != 0 }

    /// The world delivers `input` to user `u`'s router: registrations, rotations and opens
    /// are truth of the token's use; a new input starts with no purge notice and no
    /// validation given up.
    @inline(__always) func observeRouterInput(_ u: Int, _ input: PushInput, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        core.oracle.push.rules[u].token.flags.remove(.purgeNoticed)
        if case .providerResponse = input {} else { core.oracle.push.judgedValidationGaveUp = .max }
        switch input {
        case .deviceRegistered(let token), .tokenRotated(let token):
            core.oracle.push.rules[u].token.registered = token.generation
            core.oracle.push.rules[u].token.since = core.now
            core.oracle.push.rules[u].token.usedAt = core.now
            core.oracle.push.rules[u].token.flags.remove([.sentSinceValidated, .validationGaveUp, .dormant])
        case .userActivity:
            core.oracle.push.rules[u].token.usedAt = core.now
            // A token deactivated for disuse is not validated: back in use, its validation
            // is due at the next daily run at the latest.
            if core.oracle.push.rules[u].token.flags.contains(.dormant) {
                core.oracle.push.rules[u].token.since = max(core.oracle.push.rules[u].token.since, core.now - core.oracle.judged.push.validationInterval)
            }
            core.oracle.push.rules[u].token.flags.remove(.dormant)
        default:
            break
        }
    }

    /// The push service sends `id` to `token` for user `u`, before the ledger records it:
    /// - `pushSentToReplacedToken`: never to a token older than the one the server was told of;
    /// - at the first send of an alert or summary, `pushToOptedOutCategory` (no category the
    ///   user turned off) and, for a normal one, `normalPushWhileActive` (no open within
    ///   `logic.push.activityWindow`);
    /// - `tokenValidationLate`: the first send to a token that must be active, by the judge's
    ///   own truth (``tokenMustBeActive(_:at:core:)``), since its last validation comes within
    ///   `validationInterval` + `maintenanceInterval` of it.
    @inline(__always) func observePushRouting(user u: Int, device d: Int, _ id: PushSendID, _ token: PushToken, _ payload: PushPayload,
                                     core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let registered = core.oracle.push.rules[u].token.registered
        core.verify(token.generation >= registered, .pushSentToReplacedToken, device: d, time: core.now,
                    detail: token.generation >= registered ? nil : "send \(id) to \(Self.named(token, core)), replaced by g\(registered) at the server")
        if token.generation == registered, !core.oracle.push.rules[u].token.flags.contains(.sentSinceValidated), tokenMustBeActive(u, core: core) {
            core.oracle.push.rules[u].token.flags.insert(.sentSinceValidated)
            let logic = core.oracle.judged.push
            let due = core.oracle.push.rules[u].token.since + logic.validationInterval + logic.maintenanceInterval
            core.verify(core.now <= due, .tokenValidationLate, device: d, time: core.now,
                        detail: core.now <= due ? nil : "first send to \(Self.named(token, core)) since its validation at "
                            + "\(core.format(core.oracle.push.rules[u].token.since)), later than \(core.format(due))")
        }
        var n = -1, summary = false
        switch payload.content {
        case .alert(let id, _, _, _): n = Int(id.rawValue)
        case .summary(let id, _): n = Int(id.rawValue); summary = true
        case .badgeOnly, .validation: break
        }
        guard n >= 0, ledger[n].firstSentAt == SimTime.never else { return }
        var offCategory = optedOut(u, category: ledger[n].category, core: core)
        if summary, let carried = summaries[UInt32(n)] {
            for c in carried where optedOut(u, category: ledger[Int(c.rawValue)].category, core: core) { offCategory = true }
        }
        core.verify(!offCategory, .pushToOptedOutCategory, device: d, time: core.now,
                    detail: offCategory ? "notification n\(n) pushed in a category the user turned off" : nil)
        guard summary || ledger[n].priority == .normal else { return }
        let opened = core.oracle.refresh.devices[d].lastTrueOpen
        let window = core.oracle.judged.push.activityWindow
        let quiet = opened == SimTime.never || core.now - opened > window
        core.verify(quiet, .normalPushWhileActive, device: d, time: core.now,
                    detail: quiet ? nil : "normal push n\(n) sent \(core.human(core.now - opened)) after the user opened the app")
    }

    /// Send `slot` goes to its provider at the high (`apns-priority` 10, FCM high) or normal
    /// priority: high exactly for a high or blocking alert, by the ledger's priority; a
    /// summary (normal) and every silent push go at normal (`providerPriorityWrong`).
    @inline(__always) func observeProviderPriority(_ slot: UInt32, urgent: Bool, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let record = inflight[Int(slot)]
        var expected = false
        if case .alert(let id, _, _, _) = record.payload.content { expected = ledger[Int(id.rawValue)].priority >= .high }
        core.verify(urgent == expected, .providerPriorityWrong, device: Int(record.token.device.rawValue), time: core.now,
                    detail: urgent == expected ? nil : "send \(record.send) (\(record.payload.content)) to \(record.token.provider) at "
                        + (record.token.provider == .apns ? "apns-priority \(urgent ? 10 : 5)" : "FCM \(urgent ? "high" : "normal") priority"))
    }

    /// A provider answered `record` (a send of user `u`): an acceptance validates the
    /// registered token (and, for a notification, is a use of it); a validation push whose
    /// every retry failed softly (5xx, 429, timeout) may expire its token; any other send
    /// that failed so leaves its token to be validated again.
    @inline(__always) func observeTokenAnswer(user u: Int, _ record: PushInflight, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        core.oracle.push.judgedValidationGaveUp = .max
        switch record.result {
        case .accepted:
            guard record.token.generation == core.oracle.push.rules[u].token.registered, !tokenGone(u, core: core) else { return }
            core.oracle.push.rules[u].token.since = core.now
            core.oracle.push.rules[u].token.flags.remove(.sentSinceValidated)
            if record.notification >= 0 { core.oracle.push.rules[u].token.usedAt = core.now }
        case .timedOut, .status:
            if case .status(let code, _) = record.result, code != 429, code < 500 { return }
            guard (core.oracle.push.retryTruth[Self.retryKey(u, record.send)]?.attempt ?? 0) >= core.oracle.judged.push.retryDelays.count else { return }
            if record.payload.content == .validation {
                core.oracle.push.judgedValidationGaveUp = UInt64(u) << 32 | UInt64(record.token.generation)
                if record.token.generation == core.oracle.push.rules[u].token.registered { core.oracle.push.rules[u].token.flags.insert(.validationGaveUp) }
            } else if record.token.generation == core.oracle.push.rules[u].token.registered {
                // Any other send that failed every retry validated nothing: the token's
                // validation is due again, at the next daily run at the latest.
                core.oracle.push.rules[u].token.since = max(core.oracle.push.rules[u].token.since, core.now - core.oracle.judged.push.validationInterval)
                core.oracle.push.rules[u].token.flags.remove(.sentSinceValidated)
            }
        case .invalidToken:
            break
        }
    }

    /// The router writes `status` for `token` of user `u`:
    /// - `tokenExpiredWithoutCause`: expired only after the provider reported it gone (410,
    ///   404, BadDeviceToken) or after every retry of its validation push failed softly;
    /// - `registryCleanupWrong`: inactive only when unused for `logic.push.inactiveAfter`.
    @inline(__always) func observeTokenMarked(user u: Int, _ token: PushToken, _ status: PushTokenStatus, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let d = Int(truth[u].device)
        let caused = truth[u].gone.contains(token.generation) || core.oracle.push.judgedValidationGaveUp == UInt64(u) << 32 | UInt64(token.generation)
        switch status {
        case .expired:
            core.verify(caused, .tokenExpiredWithoutCause, device: d, time: core.now,
                        detail: caused ? nil : "\(Self.named(token, core)) marked expired, although the provider never reported it gone "
                            + "and no validation push of it failed every retry")
        case .inactive:
            let unused = core.now - core.oracle.push.rules[u].token.usedAt
            let holds = unused >= core.oracle.judged.push.inactiveAfter
            core.verify(holds, .registryCleanupWrong, device: d, time: core.now,
                        detail: holds ? nil : "\(Self.named(token, core)) marked inactive after \(core.human(unused)) without use")
            if holds, token.generation == core.oracle.push.rules[u].token.registered { core.oracle.push.rules[u].token.flags.insert(.dormant) }
        case .active, .revoked:
            break
        }
        guard token.generation == core.oracle.push.rules[u].token.registered else { return }
        // A wrong expiry leaves the token's truth as it was: still validated at `since`.
        if status == .expired, caused { core.oracle.push.rules[u].token.since = core.now }
        core.oracle.push.rules[u].token.status = status.rawValue + 1
    }

    /// Whether the server must hold user `u`'s token active now (seed `001`, "Token Refresh
    /// and Validation" and "Device Cleanup"), by the judge's own truth, never the status
    /// the registry wrote: a token was registered, its provider has not answered it gone
    /// (410, 404, BadDeviceToken) nor failed every retry of its validation push, and it
    /// was used within `logic.push.inactiveAfter` with no deactivation for disuse since.
    /// A wrong expiry by the logic leaves this true, so the checks that read it go on.
    @inline(__always) func tokenMustBeActive(_ u: Int, core: borrowing WorldCore) -> Bool { tokenMustBeActive(u, at: core.now, core: core) }

    /// ``tokenMustBeActive(_:core:)`` with its disuse counted at `t` (`t` >= the last use).
    @inline(__always) func tokenMustBeActive(_ u: Int, at t: SimTime, core: borrowing WorldCore) -> Bool {
        let token = core.oracle.push.rules[u].token
        return token.registered > 0 && !token.flags.contains(.dormant) && t - token.usedAt < core.oracle.judged.push.inactiveAfter
            && !tokenGone(u, core: core)
    }

    /// Whether user `u`'s registered token is expired by the judge's own truth: its provider
    /// answered it gone (410, 404, BadDeviceToken), or every retry of its validation push
    /// failed softly (seed `001`, "Token Refresh and Validation").
    @inline(__always) func tokenGone(_ u: Int, core: borrowing WorldCore) -> Bool {
        core.oracle.push.rules[u].token.flags.contains(.validationGaveUp) || truth[u].gone.contains(core.oracle.push.rules[u].token.registered)
    }

    /// The router emails user `u` that its device is about to be purged.
    @inline(__always) func observePurgeNotice(user u: Int, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        core.oracle.push.rules[u].token.flags.insert(.purgeNoticed)
    }

    /// The router purges user `u`'s device (`registryCleanupWrong`): only a token expired,
    /// by the judge's own truth (``tokenGone(_:)``), for `logic.push.purgeAfter`, and only
    /// after the purge notice in the same router input.
    @inline(__always) func observePurge(user u: Int, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let expired = tokenGone(u, core: core)
        let age = core.now - core.oracle.push.rules[u].token.since
        let noticed = core.oracle.push.rules[u].token.flags.contains(.purgeNoticed)
        let holds = expired && age >= core.oracle.judged.push.purgeAfter && noticed
        core.verify(holds, .registryCleanupWrong, device: Int(truth[u].device), time: core.now,
                    detail: holds ? nil : !noticed ? "device purged without the email notice first"
                        : "device purged \(expired ? "\(core.human(age)) after its token expired" : "although its token is not expired")")
        core.oracle.push.rules[u].token.status = 0
    }

    /// Every device of user `u`'s notification `n` failed for good and nothing carries it
    /// any more: an email must have gone out, if the user enabled email
    /// (`failedPushNotEmailed`, seed `001`, "Fallback Mechanism" and "Disaster Recovery").
    @inline(__always) func observePushFailedEverywhere(user u: Int, notification n: Int, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let enabled = core.oracle.push.rules[u].settings.emailEnabled
        core.verify(!enabled, .failedPushNotEmailed, device: Int(truth[u].device), time: core.now,
                    detail: enabled ? "notification n\(n) failed on every device and the user, who enabled email, got none" : nil)
    }

    /// At the end of the run, `tokenValidationLate` for every token that must still be
    /// active by the judge's own truth, with no send since a validation more than
    /// `validationInterval` + `maintenanceInterval` ago, and in use when that validation fell due.
    @inline(__always) func judgeTokenValidationAtEnd(core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let logic = core.oracle.judged.push
        for u in core.oracle.push.rules.indices where !core.oracle.push.rules[u].token.flags.contains(.sentSinceValidated) {
            let due = core.oracle.push.rules[u].token.since + logic.validationInterval + logic.maintenanceInterval
            guard due < core.end, tokenMustBeActive(u, at: max(due, core.oracle.push.rules[u].token.usedAt), core: core) else { continue }
            core.verify(false, .tokenValidationLate, device: Int(truth[u].device), time: due,
                        detail: "no send to the token validated at \(core.format(core.oracle.push.rules[u].token.since)) by \(core.format(due))")
        }
    }
}
