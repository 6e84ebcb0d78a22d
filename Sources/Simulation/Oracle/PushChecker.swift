import Foundation
import SimKernel
import AppLogic
import Backend

/// The oracle's own truth for one push user's rules (seed `001`), 48 bytes: what the
/// server was told of the token, the settings drawn, the sends counted for the frequency
/// limits and the unread count. A router input and a send read several of them; in
/// arrays of their own they took a cache line each (docs/performance.md#state-grouped-by-event-kind).
struct PushRulesTruth {
    var token = PushTokenTruth()
    var settings: PushSettingsTruth
    var cap = PushCapTruth()
    /// The notifications created and not yet read, by the oracle's own count
    /// (Oracle/PushCompositionChecker).
    var unread: Int32 = 0
}

/// The push judges' own state (``Oracle/push``): truth the model never reads.
struct PushJudgeState {
    /// Per push user, the oracle's own truth for seed 001's rules (``PushRulesTruth``):
    /// the settings drawn, the sends counted for the limits, the token's story and the
    /// unread count; the judges never read the router's state.
    var rules: [PushRulesTruth] = []
    /// The token whose validation push the answer being routed gave up on, every retry
    /// failed softly (user << 32 | generation; `.max`: none), for `tokenExpiredWithoutCause`.
    var judgedValidationGaveUp = UInt64.max
    /// The retry chains still alive, by user and send id (looked up, never iterated).
    var retryTruth: [UInt64: PushRetryTruth] = [:]
    /// The send a router input retries (`.timerFired(.retry)`), nil for any other input:
    /// the retry judge's view of the input whose effects are running.
    var judgedRetryOf: PushSendID?
    /// The high pushes sent, by notification (looked up, never iterated), for the email fallback's judge.
    var highTruth: [UInt32: HighPushTruth] = [:]
    /// What the router input now running did to the oracle's unread count (``PushRulesTruth/unread``).
    var unreadDelivery = PushUnreadDelivery()
    /// The notifications held for quiet hours and not yet sent or suppressed, with the end
    /// (Unix microseconds) they were held until (looked up, never iterated).
    var heldUntil: [UInt32: Int64] = [:]
}

/// One push user's settings as the scenario drew them, copied at set-up
/// (``PushRulesTruth/settings``) before the router's settings are built from them: the
/// judges read these, never the router's state. 8 bytes.
struct PushSettingsTruth {
    /// Quiet hours, minutes after local midnight; equal: none.
    var quietStart: Int16
    var quietEnd: Int16
    /// The home zone (``WorldCore/timeZones``), the zone the router's settings use.
    var zone: UInt16
    /// The categories turned off (``PushCategories``' bits).
    var optedOut: UInt8
    var emailEnabled: Bool

    /// "HH:MM-HH:MM", as a scenario writes them.
    var quietHoursText: String {
        func hm(_ m: Int16) -> String { String(format: "%02d:%02d", Int(m) / 60, Int(m) % 60) }
        return "\(hm(quietStart))-\(hm(quietEnd))"
    }
}

/// Push's checks (seed `001`). The judge-only truth they read (tokens reported gone,
/// requests refused, collapse ids shown) is the host's ``PushUserTruth``.
extension PushHost {
    /// The push service sends `id` to `token` (seed `001`): never to a token the provider
    /// reported unregistered and not registered since ("mark device expired"), and never
    /// again a request the provider refused with a client error ("no retry on 4xx").
    @inline(__always) func observePushSend(user u: Int, device d: Int, _ id: PushSendID, _ token: PushToken,
                         expiration: Instant, priority: PushPriority, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        // Fields read in place: a copy of the user's truth would retain its four arrays.
        let gone = truth[u].gone.contains(token.generation)
        core.verify(!gone, .pushSentToUnregisteredToken, device: d, time: core.now,
                    detail: gone ? "send \(id) to \(Self.named(token, core)), which the provider reported unregistered" : nil)
        let again = truth[u].refused.contains(RefusedSend(generation: token.generation, expiration: expiration.unixMicroseconds, priority: priority))
        core.verify(!again, .pushClientErrorRetried, device: d, time: core.now,
                    detail: again ? "send \(id) repeats a request to \(Self.named(token, core)) that the provider refused with a client error" : nil)
    }

    /// The send's judges that read its payload (the sending rules, its composition, a
    /// released send's, its routing), in one call kept out of line, so that the core is
    /// lent to them once: a checker the optimiser leaves out of line copies the core it
    /// borrows at each call (docs/performance.md, "No whole-world copies").
    @inline(never) func observePushPayloadSent(user u: Int, device d: Int, _ id: PushSendID, _ token: PushToken, _ payload: PushPayload,
                                               expiration: Instant, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        observePushSendRules(user: u, device: d, id, payload, expiration: expiration, core: core)
        observePushComposition(user: u, device: d, id, payload, core: core)
        observeReleaseSend(user: u, device: d, id, payload, core: core)
        observePushRouting(user: u, device: d, id, token, payload, core: core)
    }

    /// `token` as a violation's detail names it: by its device's global id, so a shard's
    /// report says what the plain run says (the host numbers its devices per shard).
    static func named(_ token: PushToken, _ core: WorldCore) -> PushToken {
        var global = token
        global.device = PushDeviceID(UInt32(truncatingIfNeeded: core.globalID(Int(token.device.rawValue))))
        return global
    }

    /// Whether Unix second `unix` lies inside user `u`'s quiet hours `[start, end)` on the
    /// home zone's wall clock, across midnight when start > end, none when equal (seed
    /// `001`, "Quiet Hours"), by the oracle's own clock and code.
    @inline(__always) func insideQuietHours(_ u: Int, unix: Int64, core: borrowing WorldCore) -> Bool {
        let s = core.oracle.push.rules[u].settings
        guard s.quietStart != s.quietEnd else { return false }
        let second = core.oracle.zones[Int(s.zone)].wall(unix).second
        let start = Int64(s.quietStart) * 60, end = Int64(s.quietEnd) * 60
        return start < end ? second >= start && second < end : second >= start || second < end
    }

    /// A normal or high push first sent inside the user's quiet hours is not displayed
    /// inside them (seed `001`: held until their end; blocking bypasses them).
    @inline(__always) func observePushDisplayed(user u: Int, device i: Int, notification n: Int, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let sent = ledger[n].firstSentAt
        let start = core.startUnixSeconds
        let inside = sent != SimTime.never && insideQuietHours(u, unix: OracleZone.unixSeconds(sent, startUnixSeconds: start), core: core)
            && insideQuietHours(u, unix: OracleZone.unixSeconds(core.now, startUnixSeconds: start), core: core)
        core.verify(!inside, .pushDisplayedInQuietHours, device: i, time: core.now,
                    detail: inside ? "\(ledger[n].priority) push n\(n) sent at \(core.format(sent)) and displayed inside quiet hours" : nil)
    }

    /// The router holds notification `n` until `until`: now is inside the user's quiet
    /// hours, and `until` is their end: outside them, the second before it inside them (or
    /// a change of the zone's offset in between: a skipped end), at most 25 h away.
    @inline(__always) func observePushHeld(user u: Int, notification n: Int, until: Instant, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let now = OracleZone.unixSeconds(core.now, startUnixSeconds: core.startUnixSeconds)
        let end = OracleZone.floorDiv(until.unixMicroseconds, 1_000_000)
        let zone = Int(core.oracle.push.rules[u].settings.zone)
        let holds = insideQuietHours(u, unix: now, core: core) && !insideQuietHours(u, unix: end, core: core)
            && (insideQuietHours(u, unix: end - 1, core: core) || core.oracle.zones[zone].offset(end - 1) != core.oracle.zones[zone].offset(end))
            && end > now && end - now <= 25 * 3_600
        core.verify(holds, .pushHeldOutsideQuietHours, device: Int(truth[u].device), time: core.now,
                    detail: holds ? nil : "notification n\(n) held until \(core.format(simTime(until))), but its quiet hours \(core.oracle.push.rules[u].settings.quietHoursText) "
                        + "on \(core.timeZones.isEmpty ? "UTC" : core.timeZones[zone]) "
                        + (insideQuietHours(u, unix: now, core: core) ? "do not end then" : "had not begun"))
    }

    /// A collapsible push is displayed: its collapse id is not shown twice on the device
    /// (the OS then replaces the shown one in place, PushHost+Phone's `display`).
    @inline(__always) func observePushDisplayedCollapsible(user u: Int, device i: Int, notification n: Int, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let shownBefore = truth[u].shownCollapsed.contains(UInt32(n))
        core.verify(!shownBefore, .pushCollapseIdShownTwice, device: i, time: core.now,
                    detail: shownBefore ? "push n\(n) displayed again with the same collapse id" : nil)
    }

    /// At the end, notification `n` has no outcome and nothing holds it: it was lost.
    @inline(__always) func observePushLost(device d: Int, notification n: Int, createdAt: SimTime, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        core.verify(false, .pushNotificationLost, device: d, time: createdAt,
                    detail: "notification n\(n) created at \(core.format(createdAt)) was neither delivered, emailed, expired, suppressed nor in flight")
    }
}

// The rules of the push pipeline (seed `001`) that the checks judge: a static member each
// (``ViolationKind``) and their list.
extension ViolationKind {
    /// A request the provider refused with a client error (400, 403, 405, 413) was sent
    /// again (seed `001`: "no retry on 4xx").
    public static var pushClientErrorRetried: ViolationKind { .rule() }
    /// A send to a token the provider had reported unregistered (410/404) before the
    /// device registered it again (seed `001`: "mark device expired").
    public static var pushSentToUnregisteredToken: ViolationKind { .rule() }
    /// A normal or high push first sent inside the user's quiet hours and displayed inside
    /// them (seed `001`, "Quiet Hours": held, and sent at their end; blocking bypasses them),
    /// judged on the home zone's wall clock by the oracle's own ``OracleZone``.
    public static var pushDisplayedInQuietHours: ViolationKind { .rule() }
    /// A push held for quiet hours although they had not begun, or held until an instant
    /// that is not their end: the first instant after `now` at which the home zone's wall
    /// clock leaves them, at most 25 h away; or a held push (alone or in the summary that
    /// carries it) first sent at another instant than that end (seed `001`, "Quiet Hours":
    /// "queue for after quiet hours").
    public static var pushHeldOutsideQuietHours: ViolationKind { .rule() }
    /// More normal pushes (first sends of alerts and summaries) in one of the user's local
    /// days than `logic.push.normalPerDay` (seed `001`, "Push Frequency Limits": 5 a day).
    public static var normalDailyLimitExceeded: ViolationKind { .rule() }
    /// More high pushes (first sends) in one of the user's local Monday-to-Sunday weeks than
    /// `logic.push.highPerWeek` (seed `001`, "Push Frequency Limits": 10 a week).
    public static var highWeeklyLimitExceeded: ViolationKind { .rule() }
    /// A retry sent at another time than its failed answer plus the wait seed `001` sets
    /// ("Retry Logic": 1 s, 5 s, 25 s for a 5xx or a timeout; 429 from 1 min, doubled;
    /// `Retry-After` when longer), or beyond the number of retries.
    public static var pushRetryScheduleWrong: ViolationKind { .rule() }
    /// A push sent after its TTL, or with another expiration than its TTL gives (seed `001`,
    /// "Notification Expiration": high and blocking 24 h, normal 7 d, low and silent 3 d).
    public static var pushExpirationWrong: ViolationKind { .rule() }
    /// A high push still undelivered (as the server knows it) 15 min after its send got no
    /// email at 15 min + 1 µs, or one delivered or failed in time, or of a user without
    /// email, got that email (seed `001`, "Fallback Mechanism": `logic.push.highEmailDelay`).
    public static var highEmailFallbackWrong: ViolationKind { .rule() }
    /// An email fallback to a user who has not enabled email (seed `001`, "Fallback
    /// Mechanism": "if user has email enabled"), by the settings the scenario drew.
    public static var emailWithoutConsent: ViolationKind { .rule() }
    /// A push displayed again on a device where its collapse id is still shown.
    public static var pushCollapseIdShownTwice: ViolationKind { .rule() }
    /// A created notification neither delivered, emailed, expired by its TTL, suppressed
    /// by a rule, failed on every device, dropped by the provider's rules, nor in flight.
    public static var pushNotificationLost: ViolationKind { .rule() }
    /// A low-priority notification sent as a visible alert (seed `001`, "Priority-Based
    /// Delivery": low is in-app only, with a badge-only silent push).
    public static var lowPriorityAlerted: ViolationKind { .rule() }
    /// A push (other than a retry, which resends its first payload) whose badge is not the
    /// user's unread count: the notifications created and not yet read at an open, counted
    /// by the oracle (seed `001`, "Badge Management": the backend keeps the count per user).
    public static var pushBadgeCountWrong: ViolationKind { .rule() }
    /// A notification created or read changed the user's unread count, no alert of that
    /// input carried it, and the user's active token got no badge-only silent push (seed
    /// `001`, "Badge Management": "push badge-only update when count changes").
    public static var unreadChangeNotPushed: ViolationKind { .rule() }
    /// A normal notification created inside the user's quiet hours first sent as an alert
    /// of its own, not in the summary at their end (seed `001`, "Delivery Batching": held
    /// normal pushes go out as one "You have N updates").
    public static var normalNotBatched: ViolationKind { .rule() }
    /// A blocking notification held for quiet hours, or first sent later than its creation
    /// (seed `001`, "Priority-Based Delivery" and "Quiet Hours": blocking is sent at once
    /// and bypasses quiet hours).
    public static var blockingDelayed: ViolationKind { .rule() }
    /// An alert or summary pushed in a category the user turned off, by the settings the
    /// scenario drew (seed `001`, "Granular Opt-In by Category": "Don't send push for that category").
    public static var pushToOptedOutCategory: ViolationKind { .rule() }
    /// A normal push first sent less than `logic.push.activityWindow` (5 min) after the user
    /// opened the app, by the opens the world delivered (seed `001`, "Channel Selection
    /// Logic": "skip push if user active in last 5 minutes").
    public static var normalPushWhileActive: ViolationKind { .rule() }
    /// A notification failed on every device and nothing carries it any more, and the
    /// user, who enabled email, got no email (seed `001`, "Fallback Mechanism": "If push
    /// fails to all devices: Send email notification (if enabled)"; "Disaster Recovery":
    /// email at once when a provider is down).
    public static var failedPushNotEmailed: ViolationKind { .rule() }
    /// A token marked expired although its provider never reported it gone (410, 404, a 400
    /// naming it) and no validation push of it failed every retry softly (seed `001`,
    /// "Validation Process": "Don't mark as expired unless all retries fail").
    public static var tokenExpiredWithoutCause: ViolationKind { .rule() }
    /// A send to a token older than the one the server was last told of (seed `001`,
    /// "Token Rotation": the new token replaces the old one, which is revoked).
    public static var pushSentToReplacedToken: ViolationKind { .rule() }
    /// A send handed to its provider at a priority other than high (`apns-priority` 10, FCM
    /// high) for a high or blocking alert and normal (5, FCM normal) for everything else,
    /// silent pushes included (seed `001`, "Priority-Based Delivery"; docs/platform-facts.md G, H).
    public static var providerPriorityWrong: ViolationKind { .rule() }
    /// A token registered active with no send for more than `logic.push.validationInterval`
    /// + `maintenanceInterval` (7 d + the daily run) after its last validation (seed `001`,
    /// "Validation Process": "validates tokens weekly by sending silent test push").
    public static var tokenValidationLate: ViolationKind { .rule() }
    /// A token marked inactive before `logic.push.inactiveAfter` (90 d) without use, or a
    /// device purged before `purgeAfter` (180 d) after its expiry or without the email
    /// notice first (seed `001`, "Device Cleanup").
    public static var registryCleanupWrong: ViolationKind { .rule() }
}

extension PushFeature {
    /// Its rules, in the order report.json lists them (``FeatureList/rules``).
    static let rules: [ViolationKind] = [
        .pushClientErrorRetried, .pushSentToUnregisteredToken, .pushDisplayedInQuietHours, .pushHeldOutsideQuietHours,
        .normalDailyLimitExceeded, .highWeeklyLimitExceeded, .pushRetryScheduleWrong, .pushExpirationWrong,
        .highEmailFallbackWrong, .emailWithoutConsent, .pushCollapseIdShownTwice, .pushNotificationLost,
        .lowPriorityAlerted, .pushBadgeCountWrong, .unreadChangeNotPushed, .normalNotBatched, .blockingDelayed,
        .pushToOptedOutCategory, .normalPushWhileActive, .failedPushNotEmailed, .tokenExpiredWithoutCause,
        .pushSentToReplacedToken, .providerPriorityWrong, .tokenValidationLate, .registryCleanupWrong
    ]
}
