import Foundation
import SimKernel
import AppLogic
import Platform
import Backend
import Scenario

/// Seed `001`'s pipeline in the world (issue 5):
/// - **Workload**: each push user's sources (`fleet[].push.sources`) are Poisson processes;
///   a broadcast creates one notification for every push user it reaches at one instant.
/// - **Registration**: a user whose permission allows notifications obtains a token and
///   registers it at time zero (the app was in use before the run) and again at an app
///   open when the registry does not hold it active (after a 410, say).
/// - **Effects**: a send waits in the push service's queue for one of the provider's
///   ``PushBackendConfig/concurrency`` streams, goes to the APNs (iOS) or FCM (Android)
///   model, and its answer comes back as an event after the provider's latency; no
///   answer is a timeout after `PushConfiguration.providerTimeout` (30 s, seed `001`).
/// - **The phone**: an alert reaches Notification Centre when the permission allows it
///   (provisional: quietly), counts toward the badge through ``BadgeManager``, and is
///   opened with the cohort's `openProbability` (an open is an app open) or dismissed;
///   a notification with a collapse id already shown replaces it in place. A silent
///   push to an iPhone goes through ``SilentPushThrottle`` (Low Power Mode and a force-quit
///   drop it; one held by the throttle is delivered when its time comes); an FCM data
///   message reaches the app when FCM delivers it. FCM devices
///   send delivery receipts. **Decision**: the payload's `badge` is not applied by the
///   OS: the app's ``BadgeManager`` owns the badge (README, "the badge").
extension World {
    var pushConfig: PushConfiguration { pushWorld!.router.config }

    func instant(_ t: SimTime) -> Instant { Instant(unixMicroseconds: startUnixSeconds * 1_000_000 + t.microseconds) }
    func simTime(_ i: Instant) -> SimTime { SimTime(microseconds: i.unixMicroseconds - startUnixSeconds * 1_000_000) }

    // MARK: - Set-up

    /// Builds the push users of the cohorts that run `push`, registers those with
    /// permission, and schedules their sources and the broadcasts.
    mutating func startPush() {
        guard cohorts.contains(where: \.runsPush) else { return }
        var pw = PushWorld(scenario: scenario, deviceCount: devices.count)
        var zones: [TimeZone] = timeZones.map { TimeZone(identifier: $0) ?? TimeZone(secondsFromGMT: 0)! }
        if zones.isEmpty { zones = [TimeZone(secondsFromGMT: 0)!] }
        for d in devices.indices {
            let cohort = cohorts[Int(devices[d].cohort)]
            guard cohort.runsPush else { continue }
            let usage = scenario.fleet[Int(devices[d].cohort)].push
            var setup = RandomStream(seed: scenario.seed, entity: UInt64(d), purpose: "push.setup")
            let quiet = usage.quietHours.pick(&setup).map { QuietHours(startHour: $0.startMinute / 60, startMinute: $0.startMinute % 60,
                                                                         endHour: $0.endMinute / 60, endMinute: $0.endMinute % 60) }
            var optedOut = PushCategories()
            for (k, share) in usage.optOut.enumerated() where setup.chance(share) { optedOut.insert(PushCategories(PushCategory.allCases[k])) }
            let email = setup.chance(usage.emailEnabled)
            let settings = PushUserSettings(timeZone: zones[Int(devices[d].homeTimeZone)], quietHours: quiet, optedOut: optedOut, emailEnabled: email)
            pw.userOf[d] = Int32(pw.users.count)
            pw.users.append(PushUserState(settings: settings))
            pw.truth.append(PushUserTruth(device: UInt32(d), silent: SilentPushState(throttle: pw.throttle, now: .zero),
                                          provider: cohort.platform == .android ? .fcm : .apns,
                                          lifecycle: RandomStream(seed: scenario.seed, entity: UInt64(d), purpose: "push.lifecycle")))
        }
        pushWorld = pw
        load = LoadSeries(duration: scenario.duration)
        for d in devices.indices where pushWorld!.userOf[d] >= 0 {
            if devices[d].notificationCenter.authorization.allowsPosting { pushRegister(UInt32(d)) }
            for s in PushSourceName.allCases.indices { schedulePushSource(UInt32(d), source: s) }
            schedulePushLifecycle(UInt32(d), reinstall: false)
            schedulePushLifecycle(UInt32(d), reinstall: true)
        }
        for (k, b) in scenario.broadcasts.enumerated() where SimTime.zero + b.at < end {
            clock.schedule(.pushBroadcast(index: UInt16(k)), at: .zero + b.at)
        }
    }

    private mutating func schedulePushSource(_ d: UInt32, source: Int) {
        let perDay = scenario.fleet[Int(devices[Int(d)].cohort)].push.sources[source].perDay
        guard perDay > 0 else { return }
        let gap = SimDuration.fromSeconds(devices[Int(d)].pushStream.exponential(mean: 86_400 / perDay))
        clock.schedule(.pushSource(device: d, source: UInt8(source)), after: gap)
    }

    // MARK: - Workload

    mutating func pushSourceFires(_ d: UInt32, source: Int) {
        let priority = scenario.fleet[Int(devices[Int(d)].cohort)].push.sources[source].priority.pick(&devices[Int(d)].pushStream)
        let name = PushSourceName.allCases[source]
        createPush(d, source: source, category: name.category, priority: priority, collapseId: nil)
        schedulePushSource(d, source: source)
    }

    mutating func pushBroadcast(_ k: Int) {
        let b = scenario.broadcasts[k]
        let purpose = StreamPurpose("broadcast.\(k)")
        for d in devices.indices where pushWorld!.userOf[d] >= 0 {
            if let name = b.cohort, cohorts[Int(devices[d].cohort)].name != name { continue }
            if b.fraction < 1 {
                var stream = RandomStream(seed: scenario.seed, entity: UInt64(d), purpose: purpose)
                guard stream.chance(b.fraction) else { continue }
            }
            createPush(UInt32(d), source: 4, category: b.category, priority: b.priority, collapseId: pushWorld!.broadcastCollapseIds[k])
        }
    }

    /// A notification is created for the user of device `d` (seed `001`, "Trigger Sources").
    private mutating func createPush(_ d: UInt32, source: Int, category: PushCategoryName, priority name: PushPriorityName, collapseId: String?) {
        let u = Int(pushWorld!.userOf[Int(d)])
        let id = UInt32(pushWorld!.ledger.count)
        let priority = PushPriority.allCases[PushPriorityName.allCases.firstIndex(of: name)!]
        pushWorld!.ledger.append(PushLedgerEntry(user: UInt32(u), createdAt: now, via: id, priority: priority))
        pushWorld!.metrics.createdBySource[source] += 1
        pushWorld!.metrics.createdByPriority[Int(priority.rawValue)] += 1
        let request = PushNotificationRequest(
            id: NotificationID(UInt64(id)), category: PushCategory.allCases[PushCategoryName.allCases.firstIndex(of: category)!],
            priority: priority, title: World.pushTitles[source], body: World.pushBodies[source], collapseId: collapseId, dataBytes: 64)
        note(d, "push: notification n\(id) created (\(PushMetrics.sourceNames[source]), \(name.rawValue))")
        pushInput(u, .notificationCreated(request), context: Int64(id))
    }

    /// **Assumption**: fixed texts per source (the fleet does not vary content; 64 bytes of `data`).
    static let pushTitles = ["Assignment due soon", "New feedback from your teacher", "A new challenge is waiting", "Announcement", "Announcement"]
    static let pushBodies = ["Your assignment is due tomorrow at 9:00 AM. Tap to review it.",
                             "Your teacher left feedback on your last submission.",
                             "Beat your streak: today's challenge takes 5 minutes.",
                             "News from your school.", "News for everyone."]

    // MARK: - The router

    /// Hands one input to user `u`'s router and carries out its effects in order.
    /// `context` is the notification the input concerns (-1: none), for the ledger.
    mutating func pushInput(_ u: Int, _ input: PushInput, context: Int64) {
        let d = pushWorld!.truth[u].device
        note(d, "push <- \(input)")
        // The reused buffer, moved out (not copied) while the effects run.
        var effects: [PushEffect] = []
        swap(&effects, &pushWorld!.effects)
        effects.removeAll(keepingCapacity: true)
        pushWorld!.route(u, input, now: instant(now), into: &effects)
        var finalFailure = false
        for effect in effects {
            note(d, "push -> \(effect)")
            switch effect {
            case .send(let id, let token, let payload, let priority, let collapseId, let expiration):
                pushSend(u, id, token, payload, priority, collapseId, expiration, context: context)
            case .startTimer(let timer, let at):
                pushStartTimer(u, timer, at: simTime(at), context: context)
            case .sendEmail(let id, let reason):
                pushWorld!.metrics.emailFallbacks[reason == .allDevicesFailed ? 0 : 1] += 1
                let n = Int(id.rawValue)
                if pushWorld!.ledger[n].outcome == .pending { pushWorld!.ledger[n].outcome = .emailed }
            case .markToken(let token, let status):
                pushWorld!.metrics.tokens[PushMetrics.index(status)] += 1
                if token.generation == pushWorld!.truth[u].generation { pushWorld!.truth[u].registryStatus = status }
            case .emailPurgeNotice:
                pushWorld!.metrics.purgeNotices += 1
            case .purgeDevice:
                pushWorld!.metrics.purged += 1
                pushWorld!.truth[u].registryStatus = nil
            case .suppressed(let id, let reason):
                pushWorld!.metrics.suppressedByReason[PushMetrics.index(reason)] += 1
                let n = Int(id.rawValue)
                if pushWorld!.ledger[n].outcome == .pending { pushWorld!.ledger[n].outcome = .suppressed }
            case .held:
                pushWorld!.metrics.held += 1
            case .summarized(let ids, let last):
                pushWorld!.metrics.summaries += 1
                for id in ids { pushWorld!.ledger[Int(id.rawValue)].via = UInt32(last.rawValue) }
                pushWorld!.summaries[UInt32(last.rawValue)] = ids
            case .sendFailed(_, let reason, let willRetry):
                if willRetry {
                    pushWorld!.metrics.retries += 1
                } else {
                    pushWorld!.metrics.failuresByReason[PushMetrics.index(reason)] += 1
                    finalFailure = true
                }
            }
        }
        pushWorld!.effects = effects
        // Nothing carries the notification any more: every device failed for good, or its
        // last message ended (e.g. APNs replaced it in storage, REFERENCE.md G) while the
        // router still awaited that send's answer (found by `explore`, seed 6 of the default).
        if context >= 0 {
            let n = Int(context)
            let entry = pushWorld!.ledger[n]
            if entry.outcome == .pending, entry.live == 0, !pushWorld!.users[u].holds(NotificationID(UInt64(n))) {
                if finalFailure {
                    pushWorld!.ledger[n].outcome = .failed
                } else if entry.lastEnd != .pending {
                    pushWorld!.ledger[n].outcome = entry.lastEnd
                }
            }
        }
    }

    private mutating func pushStartTimer(_ u: Int, _ timer: PushTimer, at: SimTime, context: Int64) {
        var notification: Int64 = -1
        switch timer {
        case .retry: notification = context
        case .escalate(let id), .highDelayCheck(let id): notification = Int64(id.rawValue)
        case .quietHoursEnd, .daily: break
        }
        let slot = PushTimerSlot(user: UInt32(u), timer: timer, notification: notification)
        let index: UInt32
        if let free = pushWorld!.freeTimers.popLast() {
            index = free
            pushWorld!.timers[Int(free)] = slot
        } else {
            index = UInt32(pushWorld!.timers.count)
            pushWorld!.timers.append(slot)
        }
        clock.schedule(.pushTimer(slot: index), at: max(at, now))
    }

    mutating func pushTimerFires(_ index: UInt32) {
        guard let slot = pushWorld!.timers[Int(index)] else { return }
        pushWorld!.timers[Int(index)] = nil
        pushWorld!.freeTimers.append(index)
        pushInput(Int(slot.user), .timerFired(slot.timer), context: slot.notification)
    }

    // MARK: - The push service and the providers

    private mutating func pushSend(_ u: Int, _ id: PushSendID, _ token: PushToken, _ payload: PushPayload, _ priority: PushPriority,
                                   _ collapseId: String?, _ expiration: Instant, context: Int64) {
        let d = Int(token.device.rawValue)
        observePushSend(user: u, device: d, id, token, expiration: expiration, priority: priority)

        var notification: Int64 = -1
        switch payload.content {
        case .alert(let n, _, _, _), .summary(let n, _): notification = Int64(n.rawValue)
        case .badgeOnly, .validation: break
        }
        if notification >= 0 {
            let n = Int(notification)
            if pushWorld!.ledger[n].firstSentAt == World.never { pushWorld!.ledger[n].firstSentAt = now }
            pushWorld!.ledger[n].live += 1
        }
        let record = PushInflight(user: UInt32(u), send: id, token: token, payload: payload, priority: priority,
                                  collapseId: collapseId, expiration: expiration, notification: notification)
        let slot: UInt32
        if let free = pushWorld!.freeInflight.popLast() {
            slot = free
            let generation = pushWorld!.inflight[Int(free)].generation &+ 1
            pushWorld!.inflight[Int(free)] = record
            pushWorld!.inflight[Int(free)].generation = generation
        } else {
            slot = UInt32(pushWorld!.inflight.count)
            pushWorld!.inflight.append(record)
        }
        let p = PushWorld.provider(token.provider)
        pushWorld!.metrics.sends[p] += 1
        load.pushSends[p][load.index(now)] &+= 1
        if pushWorld!.dispatchers[p].streaming < pushWorld!.concurrency {
            startStream(slot)
        } else if pushWorld!.dispatchers[p].queue.count >= pushWorld!.queueLimit {
            // The push service's own queue is full: refused at once, as a 503.
            pushWorld!.metrics.rejectedByQueue[p] += 1
            load.pushRejected[p][load.index(now)] &+= 1
            pushWorld!.inflight[Int(slot)].result = .status(503, retryAfter: nil)
            clock.schedule(.pushAnswer(slot: slot, generation: pushWorld!.inflight[Int(slot)].generation), at: now)
        } else {
            pushWorld!.dispatchers[p].queue.append(slot)
            let depth = pushWorld!.dispatchers[p].queue.count
            pushWorld!.dispatchers[p].peakQueue = max(pushWorld!.dispatchers[p].peakQueue, depth)
            let b = load.index(now)
            load.pushQueuePeak[p][b] = max(load.pushQueuePeak[p][b], UInt32(clamping: depth))
        }
    }

    /// The send takes a stream and goes to its provider's model.
    private mutating func startStream(_ slot: UInt32) {
        let s = Int(slot)
        let record = pushWorld!.inflight[s]
        let p = PushWorld.provider(record.token.provider)
        pushWorld!.inflight[s].streaming = true
        pushWorld!.inflight[s].sentAt = now
        pushWorld!.dispatchers[p].streaming += 1
        let streaming = pushWorld!.dispatchers[p].streaming
        pushWorld!.dispatchers[p].peakStreaming = max(pushWorld!.dispatchers[p].peakStreaming, streaming)
        let b = load.index(now)
        load.pushStreamingPeak[p][b] = max(load.pushStreamingPeak[p][b], UInt32(clamping: streaming))

        let d = Int(record.token.device.rawValue)
        let u = Int(record.user)
        let message = UInt64(pushWorld!.messages.count)
        let gatewayToken = GatewayToken(device: UInt32(d), generation: record.token.generation)
        let silent = record.payload.isSilent
        let apnsPriority = PushRouter.apnsPriority(record.priority, silent: silent)
        let answer: GatewayAnswer
        let delivery: GatewayDelivery?
        var route = FCMRoute.direct
        if record.token.provider == .apns {
            let request = APNsGatewayModel.Request(token: gatewayToken, message: message, priority: apnsPriority,
                                                   expiration: simTime(record.expiration), collapseId: record.collapseId,
                                                   payloadBytes: record.payload.bytes)
            (answer, delivery) = pushWorld!.apns.send(request, deviceOnline: devices[d].online, now: now, rng: &devices[d].pushStream)
        } else {
            var request = FCMGatewayModel.Request(token: gatewayToken, message: message,
                                                  highPriority: PushRouter.fcmHighPriority(record.priority, silent: silent),
                                                  ttl: max(.zero, simTime(record.expiration) - now), collapseKey: record.collapseId,
                                                  payloadBytes: record.payload.bytes)
            // Doze, the bucket's high-priority limit and a force-stop decide how it reaches the phone.
            route = fcmRoute(d, highPriority: request.highPriority)
            request.highPriority = route.highPriority
            (answer, delivery) = pushWorld!.fcm.send(request, reach: route.reach, now: now, rng: &devices[d].pushStream)
        }
        let timeout = SimDuration(microseconds: pushWorld!.router.config.providerTimeout.microseconds)
        var after = timeout
        switch answer {
        case .unanswered:
            pushWorld!.inflight[s].result = .timedOut
        case .rejected(let status, let reason, let retryAfter, let latency):
            after = min(latency, timeout)
            // APNs names the token in its 400 (REFERENCE.md G: BadDeviceToken): the token is invalid.
            let result: PushProviderResult = status == 400 && reason == "BadDeviceToken"
                ? .invalidToken(status) : .status(status, retryAfter: retryAfter.map { Interval(microseconds: $0.microseconds) })
            pushWorld!.inflight[s].result = latency < timeout ? result : .timedOut
        case .accepted(let latency):
            after = min(latency, timeout)
            pushWorld!.inflight[s].result = latency < timeout ? .accepted : .timedOut
            pushWorld!.messages.append(PushMessage(user: UInt32(u), notification: record.notification, priority: record.priority,
                                                   silent: silent, apnsPriority: UInt8(apnsPriority), collapsible: record.collapseId != nil,
                                                   wakesApp: route.wakesApp, heldSince: delivery == nil && route.held ? now : World.never))
            if delivery == nil, route.held { metrics.platform.fcmDeferrals += 1 }
            if record.notification >= 0 { pushWorld!.ledger[Int(record.notification)].live += 1 }
            if let delivery {
                clock.schedule(.pushArrives(message: UInt32(message)), at: delivery.at)
            } else if simTime(record.expiration) > now + latency {
                store(UInt32(message), user: u)
            } else {
                messageEnded(UInt32(message), as: .expired)
            }
        }
        pushWorld!.inflight[s].latency = after
        clock.schedule(.pushAnswer(slot: slot, generation: pushWorld!.inflight[s].generation), after: after)
    }

    /// The provider stores an accepted message for an offline device. APNs keeps one per
    /// app: the one it replaces is dropped (REFERENCE.md G).
    private mutating func store(_ message: UInt32, user u: Int) {
        if pushWorld!.truth[u].provider == .apns, let old = pushWorld!.truth[u].stored.first {
            pushWorld!.truth[u].stored.removeAll()
            messageEnded(old, as: .droppedByProvider)
        }
        pushWorld!.truth[u].stored.append(message)
    }

    /// A message will never reach the device.
    mutating func messageEnded(_ message: UInt32, as outcome: PushOutcome) {
        let n = pushWorld!.messages[Int(message)].notification
        guard n >= 0 else { return }
        pushWorld!.ledger[Int(n)].live -= 1
        pushWorld!.ledger[Int(n)].lastEnd = outcome
        let entry = pushWorld!.ledger[Int(n)]
        if entry.outcome == .pending, entry.live == 0, !pushWorld!.users[Int(entry.user)].holds(NotificationID(UInt64(n))) {
            pushWorld!.ledger[Int(n)].outcome = outcome
        }
    }

    /// The provider answered (or the 30 s timeout fired, or the service refused the send).
    mutating func pushAnswer(_ slot: UInt32, generation: UInt32) {
        let s = Int(slot)
        guard pushWorld!.inflight[s].generation == generation, !pushWorld!.inflight[s].free else { return }
        let record = pushWorld!.inflight[s]
        pushWorld!.inflight[s].free = true
        pushWorld!.inflight[s].collapseId = nil
        pushWorld!.freeInflight.append(slot)
        let p = PushWorld.provider(record.token.provider)
        let u = Int(record.user)
        if record.streaming {
            pushWorld!.dispatchers[p].streaming -= 1
            pushWorld!.metrics.providerLatency[p].record(record.latency.microseconds)
            if let next = pushWorld!.dispatchers[p].queue.popFirst() { startStream(next) }
        }
        switch record.result {
        case .accepted:
            pushWorld!.metrics.accepted[p] += 1
        case .timedOut:
            pushWorld!.metrics.unanswered[p] += 1
        case .invalidToken(let status):
            if let k = PushMetrics.statuses.firstIndex(of: status) { pushWorld!.metrics.byStatus[p][k] += 1 }
            reportedGone(u, generation: record.token.generation)
        case .status(let status, _):
            if let k = PushMetrics.statuses.firstIndex(of: status) { pushWorld!.metrics.byStatus[p][k] += 1 }
            if record.streaming, status == 429 || status >= 500 { load.pushRejected[p][load.index(now)] &+= 1 }
            if status == 410 || status == 404 {
                reportedGone(u, generation: record.token.generation)
            } else if status < 500, status != 429, status != 410, status != 404 {
                let nowMicroseconds = instant(now).unixMicroseconds
                pushWorld!.truth[u].refused.removeAll { $0.expiration < nowMicroseconds }
                pushWorld!.truth[u].refused.append(RefusedSend(generation: record.token.generation,
                                                               expiration: record.expiration.unixMicroseconds, priority: record.priority))
            }
        }
        if record.notification >= 0 { pushWorld!.ledger[Int(record.notification)].live -= 1 }
        pushInput(u, .providerResponse(record.send, record.result), context: record.notification)
    }

    /// The provider reported token `generation` of user `u` unregistered (oracle truth).
    private mutating func reportedGone(_ u: Int, generation: UInt32) {
        if !pushWorld!.truth[u].gone.contains(generation) { pushWorld!.truth[u].gone.append(generation) }
    }

    // MARK: - The phone

    /// The device came online (or out of idle): the providers hand over what they stored.
    mutating func pushDeviceReachable(_ d: UInt32) {
        // Never bind the whole `pushWorld` to a local: that would copy its arrays at the next write.
        guard let u32 = pushWorld?.userOf[Int(d)], u32 >= 0, fcmReachable(Int(d)) else { return }
        let u = Int(u32)
        let stored = pushWorld!.truth[u].stored
        guard !stored.isEmpty else { return }
        pushWorld!.truth[u].stored.removeAll()
        // What the provider hands over, compared in place (no array of message ids is built).
        var apnsDelivery: UInt64?
        var flush: FCMGatewayModel.Flush?
        if pushWorld!.truth[u].provider == .apns {
            apnsDelivery = pushWorld!.apns.deviceCameOnline(d, now: now)?.message
        } else {
            flush = pushWorld!.fcm.deviceReachable(d, now: now)
        }
        let discarded = flush?.deletedMessages ?? false
        for m in stored {
            let message = UInt64(m)
            if apnsDelivery == message || flush?.deliveries.contains(where: { $0.message == message }) == true {
                pushArrives(m)
            } else {
                messageEnded(m, as: discarded ? .droppedByProvider : .expired)
            }
        }
    }

    /// A message reaches the phone: the OS's display rules, the user, the receipt.
    mutating func pushArrives(_ message: UInt32) {
        let m = pushWorld!.messages[Int(message)]
        let u = Int(m.user)
        let d = pushWorld!.truth[u].device
        let i = Int(d)
        if pushWorld!.truth[u].uninstalled {
            note(d, "OS: push for an uninstalled app discarded")
            return messageEnded(message, as: .uninstalled)
        }
        if pushWorld!.truth[u].provider == .fcm { fcmArrived(d, wakesApp: m.wakesApp, heldSince: m.heldSince) }
        if m.silent, pushWorld!.truth[u].provider == .fcm {
            // An FCM data message reaches the app when FCM delivers it; the iOS throttle is not Android's.
            pushWorld!.metrics.silent[0] += 1
            return note(d, "OS: data message delivered to the app")
        }
        if m.silent {
            let decision = pushWorld!.throttle.receive(priority: m.apnsPriority, now: now, lowPowerMode: devices[i].lowPowerMode,
                                                       forceQuit: devices[i].launchPolicy.forceQuit, state: &pushWorld!.truth[u].silent)
            switch decision {
            case .deliver: pushWorld!.metrics.silent[0] += 1
            case .coalesced(let at, let newlyScheduled):
                pushWorld!.metrics.silent[1] += 1
                if newlyScheduled { clock.schedule(.pushSilentWaiting(device: d), at: at) }
            case .dropped: pushWorld!.metrics.silent[2] += 1
            }
            note(d, "OS: silent push \(decision)")
            return
        }
        let n = Int(m.notification)
        pushWorld!.ledger[n].live -= 1
        markDelivered(UInt32(n))
        if let carried = pushWorld!.summaries[UInt32(n)] { for id in carried { markDelivered(UInt32(id.rawValue)) } }
        if pushWorld!.truth[u].provider == .fcm {
            pushInput(u, .deliveryReceipt(NotificationID(UInt64(n)), PushDeviceID(d)), context: Int64(n))
        }
        let authorization = devices[i].notificationCenter.authorization
        guard authorization.allowsPosting else {
            pushWorld!.metrics.notShownWithoutPermission += 1
            note(d, "OS: push n\(n) not shown (permission \(authorization))")
            return
        }
        if m.priority == .normal, let quiet = pushWorld!.users[u].settings.quietHours {
            observePushDisplayedNormal(user: u, device: i, notification: n, quiet: quiet)
        }
        if m.collapsible {
            if observePushDisplayedCollapsible(user: u, device: i, notification: n) {
                // The OS replaces the shown notification: nothing new in Notification Centre.
                pushWorld!.metrics.collapsedInPlace += 1
                return
            }
            pushWorld!.truth[u].shownCollapsed.append(UInt32(n))
        }
        if authorization == .provisional { pushWorld!.metrics.shownQuietly += 1 } else { pushWorld!.metrics.shown += 1 }
        note(d, "OS: push n\(n) shown")
        notificationDelivered(LocalNotification(kind: .push, badge: nil), device: d)
        // The cohort's fields read in place (a copy of its `PushUsage` would retain its arrays).
        let c = Int(devices[i].cohort)
        if devices[i].pushStream.chance(scenario.fleet[c].push.openProbability) {
            let delay = scenario.fleet[c].push.openDelay.sampleDuration(&devices[i].pushStream)
            guard now + delay < end else { return }
            pushWorld!.metrics.opened += 1
            pushWorld!.metrics.timeToOpen.record(delay.microseconds)
            clock.schedule(.notificationTapped(device: d), after: delay)
        } else {
            pushWorld!.metrics.dismissed += 1
        }
    }

    /// The silent push the throttle held is due: one wake for it and every push merged into
    /// it, unless Low Power Mode, a force-quit or an uninstall came meanwhile (``SilentPushThrottle/deliverWaiting(now:lowPowerMode:forceQuit:state:)``).
    mutating func pushSilentWaiting(_ d: UInt32) {
        let u = Int(pushWorld!.userOf[Int(d)])
        let merged = pushWorld!.truth[u].silent.merged
        guard let decision = pushWorld!.throttle.deliverWaiting(now: now, lowPowerMode: devices[Int(d)].lowPowerMode,
                                                                forceQuit: devices[Int(d)].launchPolicy.forceQuit,
                                                                state: &pushWorld!.truth[u].silent)
        else { return }
        switch decision {
        case .deliver where pushWorld!.truth[u].uninstalled:
            pushWorld!.metrics.silent[4] += 1
            return note(d, "OS: held silent push discarded (app uninstalled)")
        case .deliver: pushWorld!.metrics.silent[3] += 1
        case .dropped: pushWorld!.metrics.silent[4] += 1
        case .coalesced(let at, _): return clock.schedule(.pushSilentWaiting(device: d), at: at)
        }
        note(d, "OS: held silent push (\(merged) merged) \(decision)")
    }

    private mutating func markDelivered(_ n: UInt32) {
        let entry = pushWorld!.ledger[Int(n)]
        guard entry.outcome != .delivered else { return }
        pushWorld!.ledger[Int(n)].outcome = .delivered
        pushWorld!.metrics.createdToDelivered[Int(entry.priority.rawValue)].record((now - entry.createdAt).microseconds)
    }

    /// An app open: an uninstalled app is reinstalled (a new token); the token is registered
    /// if the registry does not hold it active (a new token: not yet), the open is in-app
    /// activity, and the user reads every notification (README, "the badge").
    mutating func pushOnOpen(_ d: UInt32) {
        guard let u32 = pushWorld?.userOf[Int(d)], u32 >= 0 else { return }
        let u = Int(u32)
        pushWorld!.truth[u].shownCollapsed.removeAll()
        if pushWorld!.truth[u].uninstalled { pushReinstalled(u) }
        let status = pushWorld!.truth[u].registryStatus
        if devices[Int(d)].notificationCenter.authorization.allowsPosting, status != .active, status != .inactive {
            pushRegister(d)
        }
        pushInput(u, .userActivity(PushDeviceID(d)), context: -1)
        let unread = pushWorld!.users[u].unread
        if unread > 0 { pushInput(u, .notificationsRead(count: unread), context: -1) }
    }

    /// The app obtains its token (the first time, generation 1) and registers it.
    mutating func pushRegister(_ d: UInt32) {
        let u = Int(pushWorld!.userOf[Int(d)])
        if pushWorld!.truth[u].generation == 0 { pushWorld!.truth[u].generation = 1 }
        let generation = pushWorld!.truth[u].generation
        if pushWorld!.truth[u].provider == .apns {
            pushWorld!.apns.tokenIssued(device: d, generation: generation)
        } else {
            pushWorld!.fcm.tokenIssued(device: d, generation: generation)
        }
        pushWorld!.truth[u].gone.removeAll { $0 == generation }
        pushWorld!.metrics.registrations += 1
        let token = PushToken(device: PushDeviceID(d), generation: generation, provider: pushWorld!.truth[u].provider)
        pushInput(u, .deviceRegistered(token), context: -1)
    }

    // MARK: - Faults

    mutating func applyPushFault(_ kind: Fault.Kind, starting: Bool) {
        guard pushWorld != nil else { return }
        switch kind {
        case .pushProviderOutage(let provider):
            if provider == "apns" {
                if starting { pushWorld!.apns.faults.outageStarts() } else { pushWorld!.apns.faults.outageEnds() }
            } else {
                if starting { pushWorld!.fcm.faults.outageStarts() } else { pushWorld!.fcm.faults.outageEnds() }
            }
        case .pushProviderErrors(let provider, let status, let rate):
            let e = PushGatewayFaults.ErrorRate(status: status, rate: rate)
            if provider == "apns" {
                if starting { pushWorld!.apns.faults.errorsStart(e) } else { pushWorld!.apns.faults.errorsEnd(e) }
            } else {
                if starting { pushWorld!.fcm.faults.errorsStart(e) } else { pushWorld!.fcm.faults.errorsEnd(e) }
            }
        default:
            break
        }
    }

    // MARK: - The end of the run

    /// Accounts for every created notification once the run ends: delivered, emailed,
    /// expired by its TTL, suppressed, failed, dropped by the provider, or still in
    /// flight (held, queued, awaiting an answer or a retry, stored or on its way). Any
    /// other is lost: an oracle violation.
    mutating func closePushLedger() {
        guard pushWorld != nil, !pushWorld!.closed else { return }
        pushWorld!.closed = true
        let config = pushConfig
        for n in pushWorld!.ledger.indices {
            let entry = pushWorld!.ledger[n]
            let carrier = pushWorld!.ledger[Int(entry.via)]
            var outcome = entry.outcome
            if outcome == .pending, Int(entry.via) != n, carrier.outcome != .pending { outcome = carrier.outcome }
            if outcome != .pending {
                pushWorld!.metrics.outcomes[Int(outcome.rawValue)] += 1
                continue
            }
            let ttl = SimDuration(microseconds: config.ttl(entry.priority).microseconds)
            if entry.createdAt + ttl <= end {
                pushWorld!.metrics.outcomes[Int(PushOutcome.expired.rawValue)] += 1
                continue
            }
            let user = pushWorld!.users[Int(entry.user)]
            let held = entry.live > 0 || user.holds(NotificationID(UInt64(n)))
                || carrier.live > 0 || user.holds(NotificationID(UInt64(entry.via)))
            if held {
                pushWorld!.metrics.inFlightAtEnd += 1
            } else {
                pushWorld!.metrics.lost += 1
                observePushLost(device: Int(pushWorld!.truth[Int(entry.user)].device), notification: n, createdAt: entry.createdAt)
            }
        }
    }
}
