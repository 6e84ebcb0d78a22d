/// Delivery (seed `001`, "Retry Logic" and "Fallback Mechanism"): each send is
/// answered by its provider; ``PushRetryPolicy`` decides retries; a notification whose
/// every device failed falls back to email; a high one goes to every device at 5 min
/// and to email at 15 min without delivery.
///
/// Delivery as the server knows it: a receipt (FCM delivery data, or an open) for
/// either provider; for APNs, which gives no delivery confirmation (seed `001`,
/// "Receipt Tracking"), acceptance by APNs. **Assumption**: an accepted APNs send counts
/// as delivered for the 5 min and 15 min rules.
extension PushRouter {
    func send(_ purpose: PushSendRecord.Purpose, to token: PushToken, payload: PushPayload, priority: PushPriority,
              collapseId: String?, expiration: Instant, state: inout PushUserState, into effects: inout [PushEffect]) {
        state.nextSend &+= 1
        let id = PushSendID(state.nextSend)
        state.sends.append(PushSendRecord(id: id, purpose: purpose, token: token, payload: payload, priority: priority,
                                          collapseId: collapseId, expiration: expiration))
        state.lastBadgeSent = payload.badge
        effects.append(.send(id, to: token, payload: payload, priority: priority, platformPriority: platformPriority(priority, payload: payload),
                             collapseId: collapseId, expiration: expiration))
    }

    /// A silent push (badge-only or validation) with the low TTL. Badge pushes share the
    /// collapse id "badge", so a newer one replaces an older one still stored.
    func sendSilent(_ content: PushContent, to token: PushToken, state: inout PushUserState, now: Instant, into effects: inout [PushEffect]) {
        let payload = composer.silent(content, badge: state.unread, provider: token.provider)
        let purpose: PushSendRecord.Purpose = content == .validation ? .validation : .badge
        send(purpose, to: token, payload: payload, priority: .low, collapseId: content == .badgeOnly ? "badge" : nil,
             expiration: now + config.ttlLow, state: &state, into: &effects)
    }

    /// The unread count changed and no alert carries it: a badge-only silent push to every
    /// active device (seed `001`, "Badge Management").
    func pushBadge(state: inout PushUserState, now: Instant, into effects: inout [PushEffect]) {
        for d in state.devices.indices where state.devices[d].status == .active {
            sendSilent(.badgeOnly, to: state.devices[d].token, state: &state, now: now, into: &effects)
        }
    }

    func response(_ id: PushSendID, _ result: PushProviderResult, state: inout PushUserState, now: Instant, into effects: inout [PushEffect]) {
        guard let s = state.sends.firstIndex(where: { $0.id == id && !$0.waitingRetry }) else { return }
        let record = state.sends[s]
        switch policy.decide(result, retries: record.retries) {
        case .accepted:
            _ = state.removeSend(at: s)
            let d = state.devices.firstIndex(where: { $0.token == record.token })
            if let d { state.devices[d].validated(at: now) }
            guard case .notification(let nid) = record.purpose else { return }
            // A delivered notification keeps the device out of the 90-day deactivation
            // (`lastUsedAt`); a silent push does not. Routing ranks by `lastActiveAt` instead.
            if let d { state.devices[d].lastUsedAt = now }
            guard let j = state.jobs.firstIndex(where: { $0.id == nid }) else { return }
            state.jobs[j].outstanding -= 1
            state.jobs[j].accepted = true
            if record.token.provider == .apns { state.jobs[j].delivered = true }
            settle(j, state: &state, now: now, into: &effects)

        case .retry(let wait, let reason):
            guard now + wait < record.expiration else {
                // The TTL passes before the next attempt could be made.
                effects.append(.sendFailed(id, reason, willRetry: false))
                return ended(s, reason: .expired, expireToken: false, state: &state, now: now, into: &effects)
            }
            effects.append(.sendFailed(id, reason, willRetry: true))
            state.sends[s].retries += 1
            state.sends[s].waitingRetry = true
            effects.append(.startTimer(.retry(id), at: now + wait))

        case .fail(let reason, let expireToken):
            effects.append(.sendFailed(id, reason, willRetry: false))
            ended(s, reason: reason, expireToken: expireToken, state: &state, now: now, into: &effects)
        }
    }

    /// A send failed for good.
    private func ended(_ s: Int, reason: PushFailureReason, expireToken: Bool, state: inout PushUserState, now: Instant, into effects: inout [PushEffect]) {
        let record = state.removeSend(at: s)
        // A validation push whose retries all failed softly expires the token too
        // ("Validation Process": "don't mark as expired unless all retries fail").
        let soft: Bool
        switch reason {
        case .timedOut, .serverError, .rateLimited: soft = true
        case .unregistered, .clientError, .expired: soft = false
        }
        if expireToken || ((record.purpose == .validation || variants.contains(.expireOnServerError)) && soft) {
            expire(record.token, state: &state, now: now, into: &effects)
        }
        guard case .notification(let nid) = record.purpose, let j = state.jobs.firstIndex(where: { $0.id == nid }) else { return }
        state.jobs[j].outstanding -= 1
        settle(j, state: &state, now: now, into: &effects)
    }

    func retry(_ old: PushSendID, state: inout PushUserState, now: Instant, into effects: inout [PushEffect]) {
        guard let s = state.sends.firstIndex(where: { $0.id == old && $0.waitingRetry }) else { return }
        let record = state.sends[s]
        // Never send to a token that has stopped being active meanwhile.
        guard state.devices.contains(where: { $0.token == record.token && $0.status == .active }) else {
            effects.append(.sendFailed(old, .unregistered, willRetry: false))
            return ended(s, reason: .unregistered, expireToken: false, state: &state, now: now, into: &effects)
        }
        state.nextSend &+= 1
        let id = PushSendID(state.nextSend)
        state.sends[s].id = id
        state.sends[s].waitingRetry = false
        effects.append(.send(id, to: record.token, payload: record.payload, priority: record.priority,
                             platformPriority: platformPriority(record.priority, payload: record.payload),
                             collapseId: record.collapseId, expiration: record.expiration))
    }

    /// Ends a job whose sends have all ended, unless a high push still awaits its 15 min check.
    func settle(_ j: Int, state: inout PushUserState, now: Instant, into effects: inout [PushEffect]) {
        let job = state.jobs[j]
        guard job.outstanding == 0 else { return }
        if !job.accepted {
            // Every device tried failed. A high push tries the other devices at once.
            if job.priority == .high && !job.escalated && sendToOthers(j, state: &state, now: now, into: &effects) { return }
            if !job.emailed, !variants.contains(.noEmailOnFailure) { email(job.id, .allDevicesFailed, state: state, into: &effects) }
            state.removeJob(at: j)
            return
        }
        if job.priority == .high && !job.delivered && !job.delayChecked { return }
        state.removeJob(at: j)
    }

    func escalate(_ id: NotificationID, state: inout PushUserState, now: Instant, into effects: inout [PushEffect]) {
        guard let j = state.jobs.firstIndex(where: { $0.id == id }), !state.jobs[j].delivered, !state.jobs[j].escalated else { return }
        _ = sendToOthers(j, state: &state, now: now, into: &effects)
    }

    /// High priority: send to every active device but the first; false if there is none.
    private func sendToOthers(_ j: Int, state: inout PushUserState, now: Instant, into effects: inout [PushEffect]) -> Bool {
        state.jobs[j].escalated = true
        let job = state.jobs[j]
        guard case .request(let request) = job.source else { return false }
        var sent = false
        for d in state.devices.indices where state.devices[d].status == .active && state.devices[d].device != job.firstDevice {
            let token = state.devices[d].token
            guard let payload = composer.compose(request, badge: state.unread, provider: token.provider) else { continue }
            state.jobs[j].outstanding += 1
            sent = true
            send(.notification(job.id), to: token, payload: payload, priority: job.priority, collapseId: request.collapseId,
                 expiration: job.expiration, state: &state, into: &effects)
        }
        return sent
    }

    func delayCheck(_ id: NotificationID, state: inout PushUserState, now: Instant, into effects: inout [PushEffect]) {
        guard let j = state.jobs.firstIndex(where: { $0.id == id }) else { return }
        state.jobs[j].delayChecked = true
        if !state.jobs[j].delivered && !state.jobs[j].emailed {
            state.jobs[j].emailed = true
            email(id, .highPriorityDelayed, state: state, into: &effects)
        }
        settle(j, state: &state, now: now, into: &effects)
    }

    private func email(_ id: NotificationID, _ reason: EmailFallbackReason, state: PushUserState, into effects: inout [PushEffect]) {
        guard state.settings.emailEnabled || variants.contains(.emailIgnoresSetting) else { return }
        effects.append(.sendEmail(id, reason: reason))
    }
}
