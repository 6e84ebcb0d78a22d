import SimKernel
import AppLogic
import Backend

extension World {
    /// The push service sends `id` to `token` (seed `001`): never to a token the provider
    /// reported unregistered and not registered since ("mark device expired"), and never
    /// again a request the provider refused with a client error ("no retry on 4xx").
    mutating func observePushSend(user u: Int, device d: Int, _ id: PushSendID, _ token: PushToken,
                                  expiration: Instant, priority: PushPriority) {
        // Fields read in place: a copy of the user's truth would retain its four arrays.
        let gone = push.truth[u].gone.contains(token.generation)
        verify(!gone, .pushSentToUnregisteredToken, device: d, time: now,
               detail: gone ? "send \(id) to \(token), which the provider reported unregistered" : nil)
        let again = push.truth[u].refused.contains(RefusedSend(generation: token.generation, expiration: expiration.unixMicroseconds, priority: priority))
        verify(!again, .pushClientErrorRetried, device: d, time: now,
               detail: again ? "send \(id) repeats a request to \(token) that the provider refused with a client error" : nil)
    }

    /// A normal push sent inside the user's quiet hours is not displayed inside them (seed `001`).
    mutating func observePushDisplayedNormal(user u: Int, device i: Int, notification n: Int, quiet: QuietHours) {
        let zone = push.users[u].settings.timeZone
        let sent = push.ledger[n].firstSentAt
        let inside = sent != World.never && quiet.contains(instant(sent), in: zone) && quiet.contains(instant(now), in: zone)
        verify(!inside, .pushDisplayedInQuietHours, device: i, time: now,
               detail: inside ? "normal push n\(n) sent at \(format(sent)) and displayed inside quiet hours" : nil)
    }

    /// A collapsible push is displayed: its collapse id is not shown twice on the device.
    /// Returns whether it was already shown (the OS then replaces it in place).
    mutating func observePushDisplayedCollapsible(user u: Int, device i: Int, notification n: Int) -> Bool {
        let shownBefore = push.truth[u].shownCollapsed.contains(UInt32(n))
        verify(!shownBefore, .pushCollapseIdShownTwice, device: i, time: now,
               detail: shownBefore ? "push n\(n) displayed again with the same collapse id" : nil)
        return shownBefore
    }

    /// At the end, notification `n` has no outcome and nothing holds it: it was lost.
    mutating func observePushLost(device d: Int, notification n: Int, createdAt: SimTime) {
        verify(false, .pushNotificationLost, device: d, time: createdAt,
               detail: "notification n\(n) created at \(format(createdAt)) was neither delivered, emailed, expired, suppressed nor in flight")
    }
}
