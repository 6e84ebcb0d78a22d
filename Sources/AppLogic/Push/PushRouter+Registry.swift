/// The device registry and token lifecycle (seed `001`, "Device Registration Flow",
/// "Token Refresh and Validation", "Device Deactivation", "Device Cleanup", "Badge
/// Management"):
/// - a device registers after permission is granted; a user may have several;
/// - a new token for a known device revokes the old one (kept for audit by the host);
/// - a 410 or 404 expires the token; the device re-registers at its next launch;
/// - app use reactivates an inactive device;
/// - once a day: devices unused for 90 days become inactive, devices expired for 180
///   days are purged, each after an email to the user ("User notified via email before
///   purging"; **Assumption**: in the same daily run, just before the purge, since seed
///   `001` gives no notice period; an account notice, sent whether or not the user
///   enabled notification emails); when the unread count differs from the badge last pushed, a
///   badge-only silent push goes to every active device; otherwise tokens not validated
///   for 7 days get a silent test push (an accepted push of any kind validates a token).
///
/// **Assumption**: a newly registered token counts as validated; its first test push is 7 days later.
extension PushRouter {
    /// A registration (`use`: at an app launch) or a token rotation (not a use of the app).
    func register(_ token: PushToken, use: Bool, state: inout PushUserState, now: Instant, into effects: inout [PushEffect]) {
        if let d = state.devices.firstIndex(where: { $0.device == token.device }) {
            let old = state.devices[d]
            let lastActiveAt = use ? now : old.lastActiveAt
            if old.token == token {
                state.devices[d].lastUsedAt = now
                state.devices[d].lastActiveAt = lastActiveAt
                guard old.status != .active else { return armDaily(state: &state, now: now, into: &effects) }
            } else if old.status != .revoked {
                effects.append(.markToken(old.token, .revoked))
            }
            state.devices[d] = PushDeviceRecord(token: token, now: now, lastActiveAt: lastActiveAt)
        } else {
            state.devices.append(PushDeviceRecord(token: token, now: now, lastActiveAt: now))
        }
        effects.append(.markToken(token, .active))
        armDaily(state: &state, now: now, into: &effects)
    }

    func activity(on device: PushDeviceID, state: inout PushUserState, now: Instant, into effects: inout [PushEffect]) {
        state.lastActiveAt = now
        guard let d = state.devices.firstIndex(where: { $0.device == device }) else { return }
        state.devices[d].lastUsedAt = now
        state.devices[d].lastActiveAt = now
        if state.devices[d].status == .inactive {
            state.devices[d].setInUse(true)
            effects.append(.markToken(state.devices[d].token, .active))
        }
    }

    /// The provider reported the token gone: expired, out of the active list.
    func expire(_ token: PushToken, state: inout PushUserState, now: Instant, into effects: inout [PushEffect]) {
        guard let d = state.devices.firstIndex(where: { $0.token == token }),
              state.devices[d].status == .active || state.devices[d].status == .inactive else { return }
        state.devices[d].expire(at: now)
        effects.append(.markToken(token, .expired))
    }

    private func armDaily(state: inout PushUserState, now: Instant, into effects: inout [PushEffect]) {
        guard state.nextDailyAt == nil else { return }
        let at = now + config.maintenanceInterval
        state.nextDailyAt = at
        effects.append(.startTimer(.daily, at: at))
    }

    func maintain(state: inout PushUserState, now: Instant, into effects: inout [PushEffect]) {
        guard let due = state.nextDailyAt, now >= due else { return }
        state.nextDailyAt = nil
        var d = 0
        while d < state.devices.count {
            let record = state.devices[d]
            if record.status == .active && now - record.lastUsedAt >= config.inactiveAfter {
                state.devices[d].setInUse(false)
                effects.append(.markToken(record.token, .inactive))
            } else if record.status == .expired, let expired = record.expiredAt, now - expired >= config.purgeAfter {
                state.devices.remove(at: d)
                if !variants.contains(.purgeWithoutNotice) { effects.append(.emailPurgeNotice(record.device)) }
                effects.append(.purgeDevice(record.device))
                continue
            }
            d += 1
        }
        // A badge push validates the token as well, so a device gets one or the other.
        let badgeDrift = state.unread != state.lastBadgeSent
        for record in state.devices where record.status == .active {
            if badgeDrift {
                sendSilent(.badgeOnly, to: record.token, state: &state, now: now, into: &effects)
            } else if let validated = record.lastValidatedAt,
                      now - validated >= (variants.contains(.validationUsesInactiveAfter) ? config.inactiveAfter : config.validationInterval),
                      !state.sends.contains(where: { $0.token == record.token && $0.purpose == .validation }) {
                sendSilent(.validation, to: record.token, state: &state, now: now, into: &effects)
            }
        }
        if !state.devices.isEmpty { armDaily(state: &state, now: now, into: &effects) }
    }
}
