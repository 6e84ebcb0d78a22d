import Foundation

/// The server-side push pipeline of seed `001` for one user, as a sans-I/O state
/// machine: inputs arrive with the true time `now`; the answers are ``PushEffect``
/// values that a host (a push service's worker, or FleetSim's world) carries out.
/// `PushRouter` holds what every user shares; ``PushUserState`` is one user's state.
///
/// Routing a created notification ("Channel Selection Logic", "Priority-Based Delivery"):
/// 1. The central unread count rises (the in-app notification always exists).
/// 2. A category the user opted out of gets no push.
/// 3. Low priority gets no visible push.
/// 4. Normal priority is skipped when the user was active in-app in the last 5 min
///    (pushed only when the activity is more than 5 min old).
/// 5. Inside quiet hours (the user's IANA time zone) normal is held and batched into one
///    summary at their end, high is queued and sent right after; blocking bypasses them.
/// 6. At most 5 normal pushes per local day and 10 high per local week; blocking is unlimited.
/// 7. Blocking goes to every active device, high and normal to the most recently used
///    one; high goes to every device if not delivered within 5 min, and to email if
///    still not delivered once more than 15 min have passed (at 15 min + 1 µs).
/// 8. When the unread count changes (a notification created, or some read) and no alert
///    of that input carries it, a badge-only silent push goes to every active device
///    ("Badge Management": "Push badge-only update when count changes (silent push)";
///    low priority: "Badge-only silent push to update app icon count").
///
/// Delivery (``PushRetryPolicy``) and the registry (token lifecycle, cleanup, weekly
/// validation, daily badge sync) are in the extensions of this type.
public struct PushRouter: Sendable {
    public var config: PushConfiguration
    public var variants: PushVariants
    let composer: PushComposer
    let policy: PushRetryPolicy

    public init(config: PushConfiguration = .init(), variants: PushVariants = []) {
        self.config = config
        self.variants = variants
        composer = PushComposer(config: config)
        policy = PushRetryPolicy(config: config, variants: variants)
    }

    /// Handles one input at the true time `now`, appending effects in the order they must run.
    public func handle(_ input: PushInput, state: inout PushUserState, now: Instant, into effects: inout [PushEffect]) {
        switch input {
        case .deviceRegistered(let token):
            register(token, use: true, state: &state, now: now, into: &effects)
        case .tokenRotated(let token):
            guard !variants.contains(.ignoresTokenRefresh) else { return }
            register(token, use: false, state: &state, now: now, into: &effects)
        case .userActivity(let device):
            activity(on: device, state: &state, now: now, into: &effects)
        case .notificationCreated(let request):
            if !created(request, state: &state, now: now, into: &effects) { pushBadge(state: &state, now: now, into: &effects) }
        case .notificationsRead(let count):
            let before = state.unread
            state.unread = max(0, state.unread - max(0, count))
            if state.unread != before, !variants.contains(.noBadgePushOnRead) { pushBadge(state: &state, now: now, into: &effects) }
        case .providerResponse(let id, let result):
            response(id, result, state: &state, now: now, into: &effects)
        case .deliveryReceipt(let id, _):
            guard let j = state.jobs.firstIndex(where: { $0.id == id }) else { return }
            state.jobs[j].delivered = true
            settle(j, state: &state, now: now, into: &effects)
        case .timerFired(let timer):
            fired(timer, state: &state, now: now, into: &effects)
        }
    }

    /// The provider's priority for a send: high (APNs 10, FCM high) for high and blocking
    /// alerts, normal (APNs 5, FCM normal) for normal alerts and for every silent push
    /// (docs/platform-facts.md G: silent pushes need 5; H).
    func platformPriority(_ priority: PushPriority, payload: PushPayload) -> PushPlatformPriority {
        if payload.isSilent { return variants.contains(.silentHighPriority) ? .high : .normal }
        return priority < .high ? .normal : .high
    }

    // MARK: - Routing

    /// Routes a created notification; true when an alert went out (it carries the new count).
    private func created(_ request: PushNotificationRequest, state: inout PushUserState, now: Instant, into effects: inout [PushEffect]) -> Bool {
        state.unread += 1
        if !variants.contains(.ignoresOptOut), state.settings.optedOut.contains(request.category) {
            effects.append(.suppressed(request.id, .optedOut))
            return false
        }
        if variants.contains(.lowPriorityAlert) ? request.priority < .low : request.priority == .low {
            effects.append(.suppressed(request.id, .lowPriority))
            return false
        }
        guard mostRecentlyUsed(state) != nil else {
            effects.append(.suppressed(request.id, .noActiveDevice))
            return false
        }
        if request.priority == .normal, let active = state.lastActiveAt, now - active <= activityWindow {
            effects.append(.suppressed(request.id, .activeInApp))
            return false
        }
        if variants.contains(.quietHoursHoldBlocking) ? request.priority <= .blocking : request.priority < .blocking, !variants.contains(.ignoreQuietHours),
           let quiet = state.settings.quietHours, quiet.contains(now, in: state.settings.timeZone, variants: variants) {
            // Inside the same quiet period the pending release is its end: no calendar search.
            let until = state.quietReleaseAt ?? quiet.end(after: now, in: state.settings.timeZone)
            if request.priority == .normal, !variants.contains(.releaseHeldIndividually) {
                state.heldNormal.append(request.id)
            } else {
                state.queuedHigh.append(QueuedPush(request: request, createdAt: now))
            }
            effects.append(.held(request.id, until: until))
            if state.quietReleaseAt == nil {
                state.quietReleaseAt = until
                effects.append(.startTimer(.quietHoursEnd, at: until))
            }
            return false
        }
        return release(request, createdAt: now, state: &state, now: now, into: &effects)
    }

    /// Sends a routed notification now, within the limits; true when it went out.
    @discardableResult
    private func release(_ request: PushNotificationRequest, createdAt: Instant, state: inout PushUserState, now: Instant, into effects: inout [PushEffect]) -> Bool {
        let targets = targets(for: request.priority, state)
        guard !targets.isEmpty else {
            effects.append(.suppressed(request.id, .noActiveDevice))
            return false
        }
        var payloads: [PushPayload] = []
        payloads.reserveCapacity(targets.count)
        for t in targets {
            guard let payload = composer.compose(request, badge: variants.contains(.badgeOffByOne) ? state.unread + 1 : state.unread,
                                                 provider: state.devices[t].token.provider) else {
                effects.append(.suppressed(request.id, .payloadTooLarge))
                return false
            }
            payloads.append(payload)
        }
        if let reason = overLimit(request.priority, state: &state, now: now) {
            effects.append(.suppressed(request.id, reason))
            return false
        }
        var job = PushJob(id: request.id, priority: request.priority, source: .request(request),
                          expiration: createdAt + ttl(request.priority), firstDevice: state.devices[targets[0]].device)
        for (t, payload) in zip(targets, payloads) {
            job.outstanding += 1
            send(.notification(request.id), to: state.devices[t].token, payload: payload, priority: request.priority,
                 collapseId: request.collapseId, expiration: job.expiration, state: &state, into: &effects)
        }
        state.jobs.append(job)
        if request.priority == .high {
            effects.append(.startTimer(.escalate(request.id), at: now + config.highEscalationDelay))
            // Email only when "delayed >15 minutes": a delivery at exactly 15 min is in time.
            if !variants.contains(.noHighEmailFallback) {
                effects.append(.startTimer(.highDelayCheck(request.id), at: now + config.highEmailDelay + Interval(microseconds: 1)))
            }
        }
        return true
    }

    /// The end of quiet hours: queued high pushes go now, held normal ones as one summary.
    func releaseQuietHours(state: inout PushUserState, now: Instant, into effects: inout [PushEffect]) {
        guard let at = state.quietReleaseAt, now >= at else { return }
        state.quietReleaseAt = nil
        let queued = state.queuedHigh
        state.queuedHigh = []
        for q in queued { release(q.request, createdAt: q.createdAt, state: &state, now: now, into: &effects) }

        let held = state.heldNormal
        state.heldNormal = []
        guard let last = held.last else { return }
        func suppressAll(_ reason: PushSuppression) { for id in held { effects.append(.suppressed(id, reason)) } }
        guard let target = mostRecentlyUsed(state) else { return suppressAll(.noActiveDevice) }
        if let active = state.lastActiveAt, now - active <= activityWindow { return suppressAll(.activeInApp) }
        if let reason = overLimit(.normal, state: &state, now: now) { return suppressAll(reason) }
        effects.append(.summarized(held, into: last))
        let token = state.devices[target].token
        let payload = composer.summary(last, count: held.count, badge: state.unread, provider: token.provider)
        let job = PushJob(id: last, priority: .normal, source: .summary(count: held.count),
                          expiration: now + ttl(.normal), firstDevice: token.device, outstanding: 1)
        send(.notification(last), to: token, payload: payload, priority: .normal, collapseId: nil,
             expiration: job.expiration, state: &state, into: &effects)
        state.jobs.append(job)
    }

    /// How long a push of `priority` may wait to be delivered (seed `001`, "Notification
    /// Expiration"); ``PushVariants/ttlNormalHours`` plants the normal TTL read in hours.
    func ttl(_ priority: PushPriority) -> Interval {
        priority == .normal && variants.contains(.ttlNormalHours) ? Interval(microseconds: config.ttlNormal.microseconds / 24) : config.ttl(priority)
    }

    /// How recent in-app activity skips a normal push (seed `001`, "Channel Selection
    /// Logic"); ``PushVariants/activityWindowSeconds`` plants the minutes read as seconds.
    var activityWindow: Interval {
        variants.contains(.activityWindowSeconds) ? Interval(microseconds: config.activityWindow.microseconds / 60) : config.activityWindow
    }

    /// Counts a push against its limit; the reason when the limit is reached.
    private func overLimit(_ priority: PushPriority, state: inout PushUserState, now: Instant) -> PushSuppression? {
        switch priority {
        case .normal:
            let day = LocalTime.day(now, state.settings.timeZone)
            if state.normalDay != day { state.normalDay = day; state.normalCount = 0 }
            guard variants.contains(.normalLimitOffByOne) ? Int(state.normalCount) <= config.normalPerDay
                : Int(state.normalCount) < config.normalPerDay else { return .dailyLimit }
            state.normalCount += 1
        case .high:
            let week = LocalTime.week(now, state.settings.timeZone)
            if state.highWeek != week { state.highWeek = week; state.highCount = 0 }
            guard variants.contains(.highLimitOffByOne) ? Int(state.highCount) <= config.highPerWeek
                : Int(state.highCount) < config.highPerWeek else { return .weeklyLimit }
            state.highCount += 1
        case .blocking, .low:
            break
        }
        return nil
    }

    /// Blocking: every active device. High and normal: the most recently used one.
    private func targets(for priority: PushPriority, _ state: PushUserState) -> [Int] {
        if priority == .blocking { return state.devices.indices.filter { state.devices[$0].status == .active } }
        return mostRecentlyUsed(state).map { [$0] } ?? []
    }

    /// The active device the user used last (``PushDeviceRecord/lastActiveAt``, not the
    /// last push it accepted); on a tie, the one registered first.
    func mostRecentlyUsed(_ state: PushUserState) -> Int? {
        var best: Int?
        for i in state.devices.indices where state.devices[i].status == .active {
            if best == nil || state.devices[i].lastActiveAt > state.devices[best!].lastActiveAt { best = i }
        }
        return best
    }

    private func fired(_ timer: PushTimer, state: inout PushUserState, now: Instant, into effects: inout [PushEffect]) {
        switch timer {
        case .retry(let id): retry(id, state: &state, now: now, into: &effects)
        case .escalate(let id): escalate(id, state: &state, now: now, into: &effects)
        case .highDelayCheck(let id): delayCheck(id, state: &state, now: now, into: &effects)
        case .quietHoursEnd: releaseQuietHours(state: &state, now: now, into: &effects)
        case .daily: maintain(state: &state, now: now, into: &effects)
        }
    }
}
