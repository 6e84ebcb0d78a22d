import SimKernel
import AppLogic
import Backend

/// Push's checks (seed `001`). The judge-only truth they read (tokens reported gone,
/// requests refused, collapse ids shown) is the host's ``PushUserTruth``.
extension PushHost {
    /// The push service sends `id` to `token` (seed `001`): never to a token the provider
    /// reported unregistered and not registered since ("mark device expired"), and never
    /// again a request the provider refused with a client error ("no retry on 4xx").
    func observePushSend(user u: Int, device d: Int, _ id: PushSendID, _ token: PushToken,
                         expiration: Instant, priority: PushPriority, core: inout WorldCore) {
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

    /// A normal push sent inside the user's quiet hours is not displayed inside them (seed `001`).
    func observePushDisplayedNormal(user u: Int, device i: Int, notification n: Int, quiet: QuietHours, core: inout WorldCore) {
        guard core.oracle.watching else { return }
        let zone = users[u].settings.timeZone
        let sent = ledger[n].firstSentAt
        let inside = sent != World.never && quiet.contains(instant(sent), in: zone) && quiet.contains(instant(core.now), in: zone)
        core.verify(!inside, .pushDisplayedInQuietHours, device: i, time: core.now,
                    detail: inside ? "normal push n\(n) sent at \(core.format(sent)) and displayed inside quiet hours" : nil)
    }

    /// A collapsible push is displayed: its collapse id is not shown twice on the device
    /// (the OS then replaces the shown one in place, PushHost+Phone's `display`).
    func observePushDisplayedCollapsible(user u: Int, device i: Int, notification n: Int, core: inout WorldCore) {
        guard core.oracle.watching else { return }
        let shownBefore = truth[u].shownCollapsed.contains(UInt32(n))
        core.verify(!shownBefore, .pushCollapseIdShownTwice, device: i, time: core.now,
                    detail: shownBefore ? "push n\(n) displayed again with the same collapse id" : nil)
    }

    /// At the end, notification `n` has no outcome and nothing holds it: it was lost.
    func observePushLost(device d: Int, notification n: Int, createdAt: SimTime, core: inout WorldCore) {
        guard core.oracle.watching else { return }
        core.verify(false, .pushNotificationLost, device: d, time: createdAt,
                    detail: "notification n\(n) created at \(core.format(createdAt)) was neither delivered, emailed, expired, suppressed nor in flight")
    }
}
