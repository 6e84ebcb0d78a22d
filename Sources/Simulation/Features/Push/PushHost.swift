import Foundation
import SimKernel
import AppLogic
import Platform
import Backend
import Scenario

/// Seed `001`'s pipeline, hosted (docs/architecture.md):
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
///   (provisional: quietly), counts among the unread notifications, and is
///   opened with the cohort's `openProbability` (an open is an app open) or dismissed;
///   a notification with a collapse id already shown replaces it in place. A silent
///   push to an iPhone goes through ``SilentPushThrottle`` (Background App Refresh off, Low
///   Power Mode and a force-quit drop it; one held by the throttle is delivered when its
///   time comes, at once if the user opens the app first, and discarded if the app is
///   terminated or uninstalled first); an FCM data
///   message reaches the app when FCM delivers it. FCM devices
///   send delivery receipts. **Decision**: the OS applies no count from the payload:
///   the app keeps the icon's count from the unread notifications (docs/model.md).
///
/// The host owns the router and one ``PushUserState`` per push user (each device is one
/// user), the two providers, the push service's queues, the ledger of created
/// notifications, each user's random streams, and what was measured. Its methods take
/// `core: inout WorldCore`; what belongs to another part (FCM's side on the phone,
/// Notification Centre) comes back as a ``HostRequest``, and the steps around a router input are
/// sequenced by the world (World+Push.swift). The small queries the world calls
/// (``device(ofMessage:)``, ``answerIsCurrent(_:generation:)``, ``eventIdentity(_:)``...) are
/// `@inline(__always)`: called as plain non-mutating methods on `world.features.push`, each copied
/// the whole host (1.2 kB) first.
struct PushHost<Logics: LogicSet> {
    let router: Logics.Push
    let throttle = SilentPushThrottle()
    var users: [Logics.Push.State] = []
    var truth: [PushUserTruth] = []
    /// Per push user: the workload, the providers' draws and the user's answers to pushes.
    var streams: [StreamPosition] = []
    /// The push user of each device, or -1 when its cohort does not run `push`.
    var userOf: [Int32]
    /// Starts loading device `d`'s push user, if it has one (a hint: changes no value).
    /// An idle host (no cohort runs `push`) has no `userOf` entries.
    @inline(__always) func prefetchUser(of d: Int) {
        guard d < userOf.count else { return }
        let u = Int(userOf[d])
        guard u >= 0 else { return }
        users.prefetch(u)
        truth.prefetch(u)
    }
    /// Per push user, the app's background launches by a silent push
    /// (``World/silentPushWakes(_:)``), for `battery.<cohort>.wakeupsPerDeviceDay`: an
    /// array of its own, as the truth has no 4 spare bytes (PushMemoryLayoutTests).
    var silentWakeCounts: [UInt32] = []
    /// Device `d`'s background launches by a silent push (0 without a push user).
    func silentPushWakes(of d: Int) -> UInt32 {
        guard d < userOf.count, userOf[d] >= 0 else { return 0 }
        return silentWakeCounts[Int(userOf[d])]
    }
    /// Per push user, its device's number at its provider's gateway: each gateway holds
    /// its own platform's devices only (an iPhone's slot at APNs is 32 bytes, an Android
    /// phone's at FCM 56; a slot for every device at both took 88 a device).
    var gatewayDevice: [UInt32] = []
    var apns: APNsGatewayModel
    var fcm: FCMGatewayModel
    var dispatchers = [PushDispatcher(), PushDispatcher()]
    let concurrency: Int
    let queueLimit: Int
    /// The sends being streamed or awaiting an answer, and the router's timers: slots
    /// reused through their free lists, in blocks that never move as the pools grow.
    var inflight = ChunkedArray<PushInflight>()
    var freeInflight: [UInt32] = []
    var timers = ChunkedArray<PushTimerSlot?>()
    var freeTimers: [UInt32] = []
    /// The notifications created, by id, for the whole run: in blocks that never move (no
    /// doubling copy, no outgrown buffers left).
    var ledger = ChunkedArray<PushLedgerEntry>()
    /// The messages a provider accepted, by id (ids are never reused: the providers'
    /// models keep them): each released once it reached the phone or ended
    /// (``messageDone(_:)``), their blocks freed once all in them are.
    var messages = ReleasingChunkedArray<PushMessage>()
    /// The notifications a summary carried, by the summary's id (looked up, never iterated).
    var summaries: [UInt32: [NotificationID]] = [:]
    /// The reused buffer the router writes its effects into (``route(_:_:core:)``).
    var effects: [PushEffect] = []
    var metrics: PushMetrics
    /// The push service's load over time (`backend.load`'s push series).
    var load: PushLoad
    /// The broadcasts' collapse ids ("broadcast-K").
    var broadcastCollapseIds: [String]
    var closed = false
    /// The run's start in Unix microseconds (the router's clock is true time).
    let startMicroseconds: Int64

    /// A cohort runs `push` (else the pipeline stays empty and idle).
    let active: Bool
    /// Each cohort's `fleet[].push`, by cohort index, copied when the world is built so
    /// that an event reads a stored value, never a section looked up by type.
    let usages: [PushUsage]
    /// The scenario's `broadcasts`, copied when the world is built (as ``usages``).
    let broadcasts: [Broadcast]

    /// Builds the push users of the cohorts that run `push` (none: an empty, idle host).
    init(scenario: Scenario, router: Logics.Push, core: WorldCore) {
        self.router = router
        active = core.cohorts.contains { $0.runs(.push) }
        usages = core.cohorts.map(\.config.push)
        let deviceCount = active ? core.devices.count : 0
        userOf = Array(hugePagesRepeating: -1, count: deviceCount)
        apns = APNsGatewayModel(deviceCount: 0)
        fcm = FCMGatewayModel(deviceCount: 0)
        concurrency = scenario.backend.push.concurrency
        queueLimit = scenario.backend.push.queueLimit
        broadcasts = scenario.broadcasts
        broadcastCollapseIds = broadcasts.indices.map { "broadcast-\($0)" }
        startMicroseconds = core.startUnixSeconds * 1_000_000
        load = PushLoad(duration: scenario.duration, active: active)
        metrics = PushMetrics(duration: scenario.duration)
        guard active else { return }
        var zones: [TimeZone] = core.timeZones.map { TimeZone(identifier: $0) ?? TimeZone(secondsFromGMT: 0)! }
        if zones.isEmpty { zones = [TimeZone(secondsFromGMT: 0)!] }
        // Exactly the push users' room, not a doubled capacity reached by copying.
        let pushUsers = core.devices.count { core.cohorts[Int($0.cohort)].runs(.push) }
        users = [Logics.Push.State](hugePagesCapacity: pushUsers)
        truth = [PushUserTruth](hugePagesCapacity: pushUsers)
        var rules = [PushRulesTruth](hugePagesCapacity: pushUsers)
        streams = Array(hugePagesRepeating: .start, count: pushUsers)
        gatewayDevice = [UInt32](hugePagesCapacity: pushUsers)
        var gatewayDevices = (apns: UInt32(0), fcm: UInt32(0))
        for d in core.devices.indices {
            let cohort = core.cohorts[Int(core.devices[d].cohort)]
            guard cohort.runs(.push) else { continue }
            let usage = usages[Int(core.devices[d].cohort)]
            let entity = core.globalID(d)
            var setup = RandomStream(seed: scenario.seed, entity: entity, purpose: "push.setup")
            let drawn = usage.quietHours.pick(&setup)
            let quiet = drawn.map { QuietHours(startHour: $0.startMinute / 60, startMinute: $0.startMinute % 60,
                                                                         endHour: $0.endMinute / 60, endMinute: $0.endMinute % 60) }
            var optedOut = PushCategories()
            for (k, share) in usage.optOut.enumerated() where setup.chance(share) { optedOut.insert(PushCategories(PushCategory.allCases[k])) }
            let email = setup.chance(usage.emailEnabled)
            let settings = PushUserSettings(timeZone: zones[Int(core.devices[d].homeTimeZone)], quietHours: quiet, optedOut: optedOut, emailEnabled: email)
            userOf[d] = Int32(users.count)
            if cohort.platform == .android {
                gatewayDevice.append(gatewayDevices.fcm)
                gatewayDevices.fcm += 1
            } else {
                gatewayDevice.append(gatewayDevices.apns)
                gatewayDevices.apns += 1
            }
            users.append(Logics.Push.State(settings: settings))
            rules.append(PushRulesTruth(settings: PushSettingsTruth(quietStart: Int16(drawn?.startMinute ?? 0), quietEnd: Int16(drawn?.endMinute ?? 0),
                                                                    zone: core.devices[d].homeTimeZone, optedOut: optedOut.rawValue, emailEnabled: email)))
            silentWakeCounts.append(0)
            truth.append(PushUserTruth(device: UInt32(d),
                                       silent: SilentPushState(throttle: throttle, now: .zero),
                                       provider: cohort.platform == .android ? .fcm : .apns))
        }
        apns = APNsGatewayModel(deviceCount: Int(gatewayDevices.apns))
        fcm = FCMGatewayModel(deviceCount: Int(gatewayDevices.fcm))
        core.oracle.push.rules = rules
    }

    static func provider(_ p: PushProvider) -> Int { p == .apns ? 0 : 1 }

    var config: PushSpec { router.spec }

    func instant(_ t: SimTime) -> Instant { Instant(unixMicroseconds: startMicroseconds + t.microseconds) }
    func simTime(_ i: Instant) -> SimTime { SimTime(microseconds: i.unixMicroseconds - startMicroseconds) }

    // MARK: - Set-up

    /// Schedules device `d`'s sources and its token lifecycle (after its registration).
    mutating func scheduleWorkload(_ d: UInt32, core: inout WorldCore) {
        for s in PushSourceName.allCases.indices { scheduleSource(d, source: s, core: &core) }
        scheduleLifecycle(d, reinstall: false, core: &core)
        scheduleLifecycle(d, reinstall: true, core: &core)
    }

    mutating func scheduleBroadcasts(core: inout WorldCore) {
        for (k, b) in broadcasts.enumerated() where SimTime.zero + b.at < core.end {
            schedule(.broadcast(index: UInt16(k)), at: .zero + b.at, core: &core)
        }
    }

    mutating func scheduleSource(_ d: UInt32, source: Int, core: inout WorldCore) {
        let perDay = usages[Int(core.devices[Int(d)].cohort)].sources[source].perDay
        guard perDay > 0 else { return }
        let gap = SimDuration.fromSeconds(core.streams(of: Int(d)).withStream(.push, at: &streams[Int(userOf[Int(d)])]) { $0.exponential(mean: 86_400 / perDay) })
        schedule(.source(device: d, source: UInt8(source)), after: gap, core: &core)
    }

    // MARK: - Workload

    /// A source fires: its notification is created (the world delivers it, then
    /// schedules the source's next one, ``scheduleSource(_:source:core:)``).
    mutating func sourceFires(_ d: UInt32, source: Int, core: inout WorldCore) -> PushDelivery {
        let u = Int(userOf[Int(d)])
        let priorities = usages[Int(core.devices[Int(d)].cohort)].sources[source].priority
        let priority = core.streams(of: Int(d)).withStream(.push, at: &streams[u]) { priorities.pick(&$0) }
        let name = PushSourceName.allCases[source]
        return create(d, source: source, category: name.category, priority: priority, collapseId: nil, core: &core)
    }

    /// Broadcast `k` reaches device `d` (its cohort, its share drawn from `purpose`'s stream):
    /// a notification is created.
    mutating func broadcastReaches(_ d: Int, _ k: Int, purpose: StreamPurpose, core: inout WorldCore) -> PushDelivery? {
        guard userOf[d] >= 0 else { return nil }
        let b = broadcasts[k]
        if let name = b.cohort, core.cohorts[Int(core.devices[d].cohort)].name != name { return nil }
        if b.fraction < 1 {
            var stream = RandomStream(seed: core.scenario.seed, entity: core.globalID(d), purpose: purpose)
            guard stream.chance(b.fraction) else { return nil }
        }
        return create(UInt32(d), source: 4, category: b.category, priority: b.priority, collapseId: broadcastCollapseIds[k], core: &core)
    }

    /// A notification is created for the user of device `d` (seed `001`, "Trigger Sources").
    private mutating func create(_ d: UInt32, source: Int, category: PushCategoryName, priority name: PushPriorityName,
                                 collapseId: String?, core: inout WorldCore) -> PushDelivery {
        let u = Int(userOf[Int(d)])
        let id = UInt32(ledger.count)
        let priority = PushPriority.allCases[PushPriorityName.allCases.firstIndex(of: name)!]
        let kind = PushCategory.allCases[PushCategoryName.allCases.firstIndex(of: category)!]
        ledger.append(PushLedgerEntry(createdAt: core.now, user: UInt32(u), via: id, priority: priority, category: kind.rawValue))
        metrics.createdBySource[source] += 1
        metrics.createdByPriority[Int(priority.rawValue)] += 1
        let request = PushNotificationRequest(
            id: NotificationID(UInt64(id)), category: kind,
            priority: priority, title: PushFeature.titles[source], body: PushFeature.bodies[source], collapseId: collapseId, dataBytes: 64)
        core.note(d, "push: notification n\(id) created (\(PushMetrics.sourceNames[source]), \(name.rawValue))")
        return PushDelivery(user: u, input: .notificationCreated(request), context: Int64(id))
    }

    // MARK: - Faults

    /// A provider's fault (`pushProviderOutage`, `pushProviderErrors`) starts or ends:
    /// true when `kind` is one, taken (a run without push ignores it), else false.
    mutating func takesFault(_ kind: Fault.Kind, starting: Bool) -> Bool {
        switch kind {
        case .pushProviderOutage, .pushProviderErrors: break
        default: return false
        }
        guard active else { return true }
        switch kind {
        case .pushProviderOutage(let provider):
            if provider == "apns" {
                if starting { apns.faults.outageStarts() } else { apns.faults.outageEnds() }
            } else {
                if starting { fcm.faults.outageStarts() } else { fcm.faults.outageEnds() }
            }
        case .pushProviderErrors(let provider, let status, let rate):
            let e = PushGatewayFaults.ErrorRate(status: status, rate: rate)
            if provider == "apns" {
                if starting { apns.faults.errorsStart(e) } else { apns.faults.errorsEnd(e) }
            } else {
                if starting { fcm.faults.errorsStart(e) } else { fcm.faults.errorsEnd(e) }
            }
        default:
            break
        }
        return true
    }

    // MARK: - The end of the run

    /// Accounts for every created notification once the run ends: delivered, emailed,
    /// expired by its TTL, suppressed, failed, dropped by the provider, or still in
    /// flight (held, queued, awaiting an answer or a retry, stored or on its way). Any
    /// other is lost: an oracle violation.
    mutating func closeLedger(core: inout WorldCore) {
        guard active, !closed else { return }
        closed = true
        judgeTokenValidationAtEnd(core: core)
        let config = self.config
        for n in ledger.indices {
            if ledger[n].priority == .high { judgeHighEmail(n, core: core) }
            let entry = ledger[n]
            let carrier = ledger[Int(entry.via)]
            var outcome = entry.outcome
            if outcome == .pending, Int(entry.via) != n, carrier.outcome != .pending { outcome = carrier.outcome }
            if outcome != .pending {
                metrics.outcomes[Int(outcome.rawValue)] += 1
                continue
            }
            let ttl = SimDuration(microseconds: config.ttl(entry.priority).microseconds)
            if entry.createdAt + ttl <= core.end {
                metrics.outcomes[Int(PushOutcome.expired.rawValue)] += 1
                continue
            }
            let user = users[Int(entry.user)]
            let held = entry.live > 0 || user.holds(NotificationID(UInt64(n)))
                || carrier.live > 0 || user.holds(NotificationID(UInt64(entry.via)))
            if held {
                metrics.inFlightAtEnd += 1
            } else {
                metrics.lost += 1
                observePushLost(device: Int(truth[Int(entry.user)].device), notification: n, createdAt: entry.createdAt, core: core)
            }
        }
    }
}

/// The push host's own stream purposes (FNV-1a of the names, as Core/DeviceStreams writes
/// them out), kept per user: its phone-side draws and its token lifecycle.
extension StreamPurpose {
    static var push: StreamPurpose { StreamPurpose(key: 0x6C80_030E_2762_459D) }
    static var pushLifecycle: StreamPurpose { StreamPurpose(key: 0xC1DA_CC9A_A9BE_1323) }  // "push.lifecycle"
}

/// The name a cohort's `features` runs seed `001`'s push pipeline by (``FeatureList/features``).
extension Feature {
    static var push: Feature { Feature("push", bit: 4) }
}

/// What the push pipeline declares whatever logic runs it: the notifications' texts, its
/// load causes and its report's keys and merge rules (PushReport).
enum PushFeature {
    /// **Assumption**: fixed texts per source (the fleet does not vary content; 64 bytes of `data`).
    static let titles = ["Assignment due soon", "New feedback from your teacher", "A new challenge is waiting", "Announcement", "Announcement"]
    static let bodies = ["Your assignment is due tomorrow at 9:00 AM. Tap to review it.",
                         "Your teacher left feedback on your last submission.",
                         "Beat your streak: today's challenge takes 5 minutes.",
                         "News from your school.", "News for everyone."]

    /// A shard's part of the providers' capacity: each one's concurrency and queue limit
    /// (``ShardPlan/part(of:)``), as the API's workers.
    static func takeShardPart(of scenario: inout Scenario, _ plan: ShardPlan) {
        scenario.backend.push.concurrency = plan.part(of: scenario.backend.push.concurrency)
        scenario.backend.push.queueLimit = plan.part(of: scenario.backend.push.queueLimit)
    }
}
