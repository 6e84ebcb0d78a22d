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
