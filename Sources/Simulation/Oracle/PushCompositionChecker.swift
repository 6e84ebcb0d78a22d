import SimKernel
import AppLogic

/// What one router input did to the badge, for ``PushHost/judgeUnreadPushed(user:core:)``
/// (seed `001`, "Badge Management"): the oracle's unread count before the input, and
/// whether an alert or a badge-only push went out while its effects ran. One router input
/// runs at a time (``World/deliverPush(_:)``), so the host keeps one.
struct PushUnreadDelivery {
    var unreadBefore: Int32 = 0
    var alertSent = false
    var badgeSent = false
}

/// The composition rules' checks (seed `001`): low priority gets no visible push, the
/// badge carries the unread count and follows its changes, and normal pushes held through
/// quiet hours go out as one summary. The unread count is the oracle's own
/// (``PushRulesTruth/unread``): one more at each notification created, none after the
/// user read them all at an open (docs/model.md: an open reads every notification).
extension PushHost {
    /// A router input of user `u` begins: the oracle's unread count follows it.
    @inline(__always) func observeUnreadInput(user u: Int, _ input: PushInput, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        core.oracle.push.unreadDelivery = PushUnreadDelivery(unreadBefore: core.oracle.push.rules[u].unread)
        switch input {
        case .notificationCreated: core.oracle.push.rules[u].unread &+= 1
        case .notificationsRead: core.oracle.push.rules[u].unread = 0
        default: break
        }
    }

    /// The push service sends `payload` (send `id`) for user `u`. Called before the ledger
    /// records the send (`firstSentAt` still `SimTime.never` for a first send).
    @inline(__always) func observePushComposition(user u: Int, device d: Int, _ id: PushSendID, _ payload: PushPayload, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        switch payload.content {
        case .alert(let nid, _, _, _):
            core.oracle.push.unreadDelivery.alertSent = true
            let n = Int(nid.rawValue)
            let low = ledger[n].priority == .low
            core.verify(!low, .lowPriorityAlerted, device: d, time: core.now,
                        detail: low ? "low-priority notification n\(n) sent as a visible alert (send \(id))" : nil)
            if ledger[n].priority == .normal, ledger[n].firstSentAt == SimTime.never {
                let created = ledger[n].createdAt
                let inside = insideQuietHours(u, unix: OracleZone.unixSeconds(created, startUnixSeconds: core.startUnixSeconds), core: core)
                core.verify(!inside, .normalNotBatched, device: d, time: core.now,
                            detail: inside ? "normal notification n\(n) created at \(core.format(created)) inside quiet hours "
                                + "\(core.oracle.push.rules[u].settings.quietHoursText) sent as an alert of its own, not in a summary" : nil)
            }
        case .summary:
            core.oracle.push.unreadDelivery.alertSent = true
        case .badgeOnly:
            core.oracle.push.unreadDelivery.badgeSent = true
        case .validation:
            break
        }
        // A retry resends the payload of its first attempt, with the count of then.
        guard core.oracle.push.judgedRetryOf == nil else { return }
        let expected = Int(core.oracle.push.rules[u].unread)
        core.verify(payload.badge == expected, .pushBadgeCountWrong, device: d, time: core.now,
                    detail: payload.badge == expected ? nil : "send \(id) carries badge \(payload.badge), the user has \(expected) unread")
    }

    /// The effects of user `u`'s router input have run: when the input changed the unread
    /// count and no alert carried it, a user whose token must be active, by the judge's
    /// own token truth (``tokenMustBeActive(_:core:)``), got a badge-only push.
    @inline(__always) func judgeUnreadPushed(user u: Int, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let b = core.oracle.push.unreadDelivery
        guard core.oracle.push.rules[u].unread != b.unreadBefore, !b.alertSent, tokenMustBeActive(u, core: core) else { return }
        core.verify(b.badgeSent, .unreadChangeNotPushed, device: Int(truth[u].device), time: core.now,
                    detail: b.badgeSent ? nil : "unread count \(b.unreadBefore) -> \(core.oracle.push.rules[u].unread) with no alert and no badge-only push")
    }
}
