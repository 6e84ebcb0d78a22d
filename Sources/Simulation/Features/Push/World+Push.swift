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
    var pushConfig: PushConfiguration { push.router.config }

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
            var setup = RandomStream(seed: scenario.seed, entity: globalID(d), purpose: "push.setup")
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
                                          lifecycle: RandomStream(seed: scenario.seed, entity: globalID(d), purpose: "push.lifecycle")))
        }
        pw.active = true
        push = pw
        load = LoadSeries(duration: scenario.duration, push: true)
        for d in devices.indices where push.userOf[d] >= 0 {
            if devices[d].notificationCenter.authorization.allowsPosting { pushRegister(UInt32(d)) }
            for s in PushSourceName.allCases.indices { schedulePushSource(UInt32(d), source: s) }
            schedulePushLifecycle(UInt32(d), reinstall: false)
            schedulePushLifecycle(UInt32(d), reinstall: true)
        }
        for (k, b) in scenario.broadcasts.enumerated() where SimTime.zero + b.at < end {
            clock.schedule(.pushBroadcast(index: UInt16(k)), at: .zero + b.at)
        }
    }

    mutating func schedulePushSource(_ d: UInt32, source: Int) {
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
        for d in devices.indices where push.userOf[d] >= 0 {
            if let name = b.cohort, cohorts[Int(devices[d].cohort)].name != name { continue }
            if b.fraction < 1 {
                var stream = RandomStream(seed: scenario.seed, entity: globalID(d), purpose: purpose)
                guard stream.chance(b.fraction) else { continue }
            }
            createPush(UInt32(d), source: 4, category: b.category, priority: b.priority, collapseId: push.broadcastCollapseIds[k])
        }
    }

    /// A notification is created for the user of device `d` (seed `001`, "Trigger Sources").
    mutating func createPush(_ d: UInt32, source: Int, category: PushCategoryName, priority name: PushPriorityName, collapseId: String?) {
        let u = Int(push.userOf[Int(d)])
        let id = UInt32(push.ledger.count)
        let priority = PushPriority.allCases[PushPriorityName.allCases.firstIndex(of: name)!]
        push.ledger.append(PushLedgerEntry(user: UInt32(u), createdAt: now, via: id, priority: priority))
        push.metrics.createdBySource[source] += 1
        push.metrics.createdByPriority[Int(priority.rawValue)] += 1
        let request = PushNotificationRequest(
            id: NotificationID(UInt64(id)), category: PushCategory.allCases[PushCategoryName.allCases.firstIndex(of: category)!],
            priority: priority, title: World.pushTitles[source], body: World.pushBodies[source], collapseId: collapseId, dataBytes: 64)
        note(d, "push: notification n\(id) created (\(PushMetrics.sourceNames[source]), \(name.rawValue))")
        deliverPush(u, .notificationCreated(request), context: Int64(id))
    }

    /// **Assumption**: fixed texts per source (the fleet does not vary content; 64 bytes of `data`).
    static let pushTitles = ["Assignment due soon", "New feedback from your teacher", "A new challenge is waiting", "Announcement", "Announcement"]
    static let pushBodies = ["Your assignment is due tomorrow at 9:00 AM. Tap to review it.",
                             "Your teacher left feedback on your last submission.",
                             "Beat your streak: today's challenge takes 5 minutes.",
                             "News from your school.", "News for everyone."]

    // MARK: - Faults

    mutating func applyPushFault(_ kind: Fault.Kind, starting: Bool) {
        guard push.active else { return }
        switch kind {
        case .pushProviderOutage(let provider):
            if provider == "apns" {
                if starting { push.apns.faults.outageStarts() } else { push.apns.faults.outageEnds() }
            } else {
                if starting { push.fcm.faults.outageStarts() } else { push.fcm.faults.outageEnds() }
            }
        case .pushProviderErrors(let provider, let status, let rate):
            let e = PushGatewayFaults.ErrorRate(status: status, rate: rate)
            if provider == "apns" {
                if starting { push.apns.faults.errorsStart(e) } else { push.apns.faults.errorsEnd(e) }
            } else {
                if starting { push.fcm.faults.errorsStart(e) } else { push.fcm.faults.errorsEnd(e) }
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
        guard push.active, !push.closed else { return }
        push.closed = true
        let config = pushConfig
        for n in push.ledger.indices {
            let entry = push.ledger[n]
            let carrier = push.ledger[Int(entry.via)]
            var outcome = entry.outcome
            if outcome == .pending, Int(entry.via) != n, carrier.outcome != .pending { outcome = carrier.outcome }
            if outcome != .pending {
                push.metrics.outcomes[Int(outcome.rawValue)] += 1
                continue
            }
            let ttl = SimDuration(microseconds: config.ttl(entry.priority).microseconds)
            if entry.createdAt + ttl <= end {
                push.metrics.outcomes[Int(PushOutcome.expired.rawValue)] += 1
                continue
            }
            let user = push.users[Int(entry.user)]
            let held = entry.live > 0 || user.holds(NotificationID(UInt64(n)))
                || carrier.live > 0 || user.holds(NotificationID(UInt64(entry.via)))
            if held {
                push.metrics.inFlightAtEnd += 1
            } else {
                push.metrics.lost += 1
                observePushLost(device: Int(push.truth[Int(entry.user)].device), notification: n, createdAt: entry.createdAt)
            }
        }
    }
}
