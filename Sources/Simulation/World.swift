import SimKernel
import AppLogic
import Platform
import Backend
import Scenario
import Reports

/// One deterministic world: a fleet, its OS models, the app's real logic on each
/// device, the backend, and the oracle. A pure function of (scenario, seed): it has
/// no wall clock, no Swift concurrency, and no hashed-collection order reaching events.
///
/// Generic over the app logic it runs (``LogicSet``; ``ReferenceWorld`` runs FleetSim's
/// own), and specialised for it: docs/architecture.md, "An app's own logic".
///
/// Drive it with ``run(until:)`` (bounded) and read ``report()`` at the end.
public struct World<Logics: LogicSet> {
    /// What every feature shares (Core/WorldCore.swift).
    var core: WorldCore
    /// The feature hosts (Features/Features.swift, ``FeatureHosts``): each owns its
    /// per-device state, its effect buffer and its metrics, and is handed `&core`.
    var features: FeatureHosts<Logics>
    var server: APIServerModel
    var tokens: AuthTokens
    let requestTimeout: SimDuration
    /// **Assumption**: the app that leaves the foreground with no background work left
    /// is suspended this long after (not `ios.suspensionDelay`, which follows a
    /// background task; Apple gives `applicationDidEnterBackground` up to five seconds).
    static var suspensionAfterForeground: SimDuration { .seconds(1) }
    /// **Assumption**: how long the app stays in the foreground after an open.
    static var foregroundSession: SimDuration { .minutes(3) }
    /// Android's OS state and models (OS/Android/AndroidHost.swift), lent beside the core.
    var android: AndroidHost
    /// The devices' Android indices and launch-policy slots as runs, for the prefetch
    /// (Core/DeviceIndexRuns).
    let indexRuns: DeviceIndexRuns
    /// The backend's load over simulated time (capacity planning).
    var load: LoadSeries
    /// The event being handled: what a request sent now was caused by (``causeOfSend()``).
    var handling: WorldEvent?
    /// Measure the event queue (``QueueStats``) while running; off by default, and
    /// report.json is the same either way.
    var measuresQueue = false
    var queueStats = QueueStats()
    /// Events of the whole fleet (a fault's start or end, a broadcast), which every
    /// shard processes; `simulated.events` counts them in shard 0 only, so the shards'
    /// events add up to the plain run's.
    var fleetWideEvents: UInt64 = 0
    /// The delivered event stream's rolling hashes (Core/EventHashes), in report.json's `events.hash`.
    var eventHashes: EventHashes
    /// Sees every delivered event with its hash and a description (`run --record-events`,
    /// `diverge`); nil (the default) costs one check per event.
    public var eventObserver: ((DeliveredEvent) -> Void)?
    /// Records the backend's requests and the providers' sends as they come (`requests.bin`,
    /// ``RequestLog``); nil (the default) records nothing. It never changes the run.
    public var requestRecorder: RequestRecorder? {
        get { core.requestRecorder }
        set { core.requestRecorder = newValue }
    }

    /// The public entry points are prespecialised for ``ReferenceLogics``, so that a
    /// caller in another module (the `fleetsim` commands) runs the specialised event
    /// loop (docs/architecture.md, "Specialisation across modules").
    ///
    /// - Parameter traceDevice: record the event-by-event story of this device (a global id).
    /// - Parameter shard: simulate only this shard's devices, against its part of the
    ///   backend's capacity.
    public init(scenario unsharded: Scenario, traceDevice: Int? = nil, shard: ShardPlan = .whole) {
        let scenario = shard.apply(to: unsharded)
        let fleet = FleetBuilder.build(scenario, shard: shard)
        let devices = fleet.devices
        // Shuffled ties are keyed per event (Core/TieKeys): the queue takes their orders.
        let clock = SimClock<WorldEvent>(reserve: devices.count * 4, end: SimTime.zero + scenario.duration)
        core = WorldCore(scenario: scenario, shard: shard, streamKeys: StreamKeys(seed: scenario.seed), clock: clock, devices: devices, launchPolicies: fleet.launchPolicies, cohorts: fleet.cohorts,
                         timeZones: fleet.timeZones, calendars: fleet.timeZones.map(ZoneCalendars.calendar),
                         localZones: fleet.timeZones.map { LocalTimeZone(identifier: $0) ?? LocalTimeZone(identifier: "UTC")! },
                         faults: FaultState(scenario.faults, zones: fleet.timeZones),
                         staleTriggers: Array(hugePagesRepeating: DeferredTimer(), count: devices.count),
                         metrics: Metrics(keepsSeconds: !shard.isWhole, durationMicroseconds: scenario.duration.microseconds), oracleCell: OracleCell(Oracle(devices: devices.count, timeZones: fleet.timeZones)),
                         traceRecorder: traceDevice.flatMap(shard.local).flatMap { $0 < devices.count ? Trace(device: $0) : nil },
                         end: SimTime.zero + scenario.duration, startUnixSeconds: scenario.startUnixSeconds,
                         rhythm: DailyRhythm(seed: scenario.seed))
        core.jobs = [Job](hugePagesCapacity: World.jobsReserved(devices: devices.count))
        core.bgTaskRequests = [BGTaskRequests](repeating: BGTaskRequests(), count: fleet.launchPolicies.count)
        if scenario.tieBreak == .shuffle { core.ties = TieKeys(seed: scenario.seed, devices: devices.count) }
        requestTimeout = scenario.backend.requestTimeout
        let logics = Logics(scenario.logic)
        core.oracle.judged = JudgedSpecs(logics)
        core.oracle.switchOff(scenario.judgesOff + Logics.judgesOff)
        features = FeatureHosts(scenario: scenario, logics: logics, core: core, fleet: fleet)
        let b = scenario.backend
        // `backend.endpoints` by row of the endpoint table (docs/scenario.md, "backend").
        let own = RequestOwner.endpoints.map { row in b.endpointServiceTimes.first { $0.path == row.path }?.serviceTime }
        server = APIServerModel(workers: b.workers, queueLimit: b.queueLimit, serviceTime: b.serviceTime, endpointServiceTimes: own)
        tokens = AuthTokens(lifetime: b.authTokenLifetime, users: devices.count)
        eventHashes = EventHashes()
        load = LoadSeries(duration: scenario.duration, zones: core.timeZones.count)
        indexRuns = DeviceIndexRuns(devices)
        android = AndroidHost(cohorts: fleet.cohorts, devices: devices)
        start()
        featuresStartFleet()
    }

    /// The request pool's room at the start: the bench world's 07:00 burst held one
    /// request for about every four devices (25,461 at 100,000). A pool that grows past
    /// it doubles as any array does.
    static func jobsReserved(devices: Int) -> Int { max(16, devices / 4) }

    /// The names a scenario run by this world and its logic may use, for
    /// ``ScenarioDecoder/load(path:vocabulary:)``: the features a cohort may run
    /// (``FeatureList/features``), the logic's known-bug variants (``LogicSet/variantNames``),
    /// the judges' rules (``ViolationKind``) a scenario's `judges.off` may name, the
    /// endpoint paths `backend.endpoints` may name, and the features' scenario sections
    /// (``FeatureList/logicSections``, ``FeatureList/cohortSections``,
    /// ``FeatureList/topLevelSections``).
    public static var scenarioVocabulary: ScenarioVocabulary {
        ScenarioVocabulary(features: FeatureList.features, variants: Logics.variantNames, judgeRules: ViolationKind.allCases.map(\.rawValue),
                           endpoints: RequestOwner.endpoints.map(\.path), logicSections: FeatureList.logicSections,
                           cohortSections: FeatureList.cohortSections, topLevelSections: FeatureList.topLevelSections)
    }

    public var scenario: Scenario { _read { yield core.scenario } }
    /// Which devices of the fleet this world holds (``ShardPlan``); `.whole` unless sharded.
    public var shard: ShardPlan { _read { yield core.shard } }
    public var end: SimTime { core.end }
    public var now: SimTime { core.now }
    /// Events processed; a shard other than 0 leaves out the fleet-wide ones
    /// (``fleetWideEvents``), so the shards' counts add up to the plain run's.
    public var eventsProcessed: UInt64 { core.clock.processed - (shard.index == 0 ? 0 : fleetWideEvents) }
    public var deviceCount: Int { core.devices.count }

    /// Processes every event before `limit` (and before the scenario's end). Bounded:
    /// time only moves forward and stops at the end. Then every Android phone's Doze steps
    /// owed before the stop are settled, so that what the world counts is whole when read.
    public mutating func run(until limit: SimTime) {
        advance(until: limit)
        let stop = limit < end ? limit : end
        android.settleDoze(before: stop, core: &core)
        if stop == end { featuresRunEnded() }
    }

    /// Processes every event before `limit`, as ``run(until:)`` does, but leaves what
    /// nothing waits on owed (Doze steps, screen sessions and screen-offs): for progress
    /// steps that read only ``eventsProcessed``. The run's last ``run(until:)`` settles
    /// them at their own instants, and no event depends on when they are settled
    /// (AndroidHost+Screen, "Lazy screen sessions and screen-offs"), so
    /// the report is the same; the sweep over every Android phone at each of `fleetsim
    /// run`'s 50 progress steps was a tenth of a day's cache misses
    /// (docs/performance.md#lazy-doze-and-screen-sessions).
    public mutating func advance(until limit: SimTime) {
        core.ownOracle()
        let stop = limit < end ? limit : end
        if measuresQueue {
            while let event = core.clock.next(before: stop) {
                queueStats.record(pendingAfterPop: core.clock.queue.count, superseded: event.isSuperseded(in: self))
                step(event)
            }
        } else {
            while let event = core.clock.next(before: stop) {
                if let next = core.clock.queue.nextNearEvent { next.prefetchState(in: &self) }
                step(event)
            }
        }
    }

    public mutating func runToEnd() { run(until: end) }

    // MARK: - Set-up

    private mutating func start() {
        for d in core.devices.indices {
            let id = UInt32(d)
            if core.devices[d].signedIn { tokens.issue(d, at: .zero) }
            let cohort = core.cohorts[Int(core.devices[d].cohort)]
            core.scheduleNextOpen(id)
            let network = cohort.network
            if let gap = core.withStream(.network, of: d, { network.nextSpell(rng: &$0) }) {
                core.schedule(.offlineSpellStarts(device: id), after: gap)
            }
            var battery = RandomStream(seed: scenario.seed, entity: core.globalID(d), purpose: "battery")
            core.startBattery(id, initialPercent: cohort.initialPercent.sample(&battery))
            featuresStart(id)
        }
        for (i, fault) in scenario.faults.enumerated() where SimTime.zero + fault.at < end {
            core.schedule(.faultStarts(index: UInt16(i)), at: .zero + fault.at)
            // An end at or after the run's end never runs (time saturates, never wraps).
            if let duration = fault.duration { core.schedule(.faultEnds(index: UInt16(i)), at: .zero + fault.at + duration) }
        }
    }

    // MARK: - The event switch

    mutating func step(_ event: WorldEvent) {
        EventHashes.hashDelivered(event, in: &self)
        handling = event
        switch event {
        case .userOpensApp(let d): userOpensApp(d)
        case .notificationTapped(let d): openApp(d, fromNotification: true)
        case .foregroundSessionEnds(let d, let incarnation): foregroundSessionEnds(d, incarnation: incarnation)
        case .taskLaunch(let d, let generation): taskLaunchLooks(d, generation: generation)
        case .taskExpires(let d, let serial): appTaskDeadline(d, serial: serial)
        case .taskWatchdog(let d, let serial): watchdogFires(d, serial: serial)
        case .suspendAfterTask(let d, let serial): suspendAfterTask(d, serial: serial)
        case .keyValueFlush(let d, let generation): keyValueFlushDue(d, generation: generation)
        case .requestReachesServer(let job, let generation): requestReachesServer(job, generation: generation)
        case .serviceCompletes(let job, let generation): serviceCompletes(job, generation: generation)
        case .responseReachesDevice(let job, let generation): responseReachesDevice(job, generation: generation)
        case .requestTimesOut(let job, let generation): requestTimesOut(job, generation: generation)
        case .offlineSpellStarts(let d): offlineSpellStarts(d)
        case .offlineSpellEnds(let d): offlineSpellEnds(d)
        case .batterySwitch(let d): batterySwitches(d)
        case .faultStarts(let index): applyFault(Int(index), starting: true)
        case .faultEnds(let index): applyFault(Int(index), starting: false)
        case .jetsam(let d, let fault): jetsam(d, fault: Int(fault))
        case .deviceTimer(let d, let generation, let timer): deviceTimerFires(d, timer, generation: generation)
        case .android(let event): androidEvent(event)
        case .feature(let event): featureEvent(event)
        }
    }
}

extension World {
    /// A device timer's event: stale ones are dropped here, current ones go to the
    /// feature that armed them (Features/Features.swift).
    mutating func deviceTimerFires(_ d: UInt32, _ timer: DeviceTimer, generation: UInt32) {
        if timer.defersLaterArms {
            guard core.deferredTimerPops(d, timer, generation: generation) else { return }
        } else {
            guard core.isCurrent(d, timer, generation) else { return }
            core.timerFired(d, timer)
        }
        featureTimerFires(d, timer)
    }

    /// What a host asked of the world, carried out at once (the host's order of draws
    /// and schedules stays); a work's request goes to the OS seam by its ``WorkID``.
    mutating func carryOut(_ request: HostRequest, device d: UInt32) {
        switch request {
        case .send(let id, let endpoint, let owner):
            featureSent(send(d, id, endpoint, owner: owner))
        case .persist(let how): persist(d, how: how)
        case .notify(let notification): featuresHearNotificationDelivered(notification, d)
        case .postNotification(let notification): postNotification(notification, device: d)
        case .submitTask(let work, let earliestBegin): submitTask(d, work, featureWorkRequest(work), earliestBegin: earliestBegin)
        case .cancelTask(let work): cancelTask(d, work)
        case .completeTask(let success): completeTask(d, success: success)
        case .enqueuePeriodicWork(let work, let interval, let constraints):
            enqueuePeriodicWork(d, work, PeriodicWork(interval: SimDuration(microseconds: interval.microseconds), constraints: constraints))
        case .finishWork(let work, let success): featureWorkFinished(work, d, success: success)
        case .notificationTriggerSet(let at): staleNotificationTriggerSet(d, at: at)
        case .fcm(let request): carryOut(request, device: d)
        }
    }

    /// The app posts `notification` (``HostRequest/postNotification(_:)``): unless the
    /// permission suppresses it, the feature that posted it hears it was shown, it
    /// reaches the notification centre, the OS counts it as shown (Android: use of the
    /// app), and the user may tap it (`usage.notificationOpenProbability`).
    mutating func postNotification(_ notification: LocalNotification, device d: UInt32) {
        let i = Int(d)
        guard core.devices[i].permission.allowsPosting else {
            core.metrics.notificationsSuppressed += 1
            core.note(d) { c in "OS: notification not shown (permission \(c.devices[i].permission))" }
            return
        }
        featuresHearNotificationShown(notification, d)
        featuresHearNotificationDelivered(notification, d)
        notificationShown(d)
        let usage = core.cohorts[Int(core.devices[i].cohort)].usage
        if let delay = core.withStream(.user, of: i, { $0.chance(usage.notificationOpenProbability) ? usage.notificationOpenDelay.sampleDuration(&$0) : nil }) {
            core.schedule(.notificationTapped(device: d), after: delay)
        }
    }

    /// Hands one input to `Host`'s logic for device `d` and executes its effects in order,
    /// carrying out each ``HostRequest`` at once (before the next effect, so every draw
    /// and schedule keeps its order); then the follow-up input, if any, the same way.
    /// Effects may trigger further inputs (scheduled as events), never re-entrantly into
    /// the same host. Generic over the concrete host, so the compiler specialises it per
    /// host (no existential, no allocation).
    @inline(__always)
    mutating func deliver<Host: FeatureHost>(_: Host.Type, _ d: UInt32, _ first: Host.Input) where Host.Logics == Logics {
        var next: Host.Input? = first
        while let input = next {
            let count = Host.lend(&self) { host, core in
                core.note(d, "\(Host.traceName) <- \(input)")
                // Emptied by popping: `removeAll(keepingCapacity:)` took the generic
                // `replaceSubrange` path, about 180 instructions an input for two effects.
                while host.effects.popLast() != nil {}
                host.handle(d, input, core: &core)
                return host.effects.count
            }
            var k = 0
            while k < count {
                let request = Host.lend(&self) { host, core in
                    let effect = host.effects[k]
                    core.note(d, "\(Host.traceName) -> \(effect)")
                    return host.execute(effect, device: d, core: &core)
                }
                k += 1
                if let request { carryOut(request, device: d) }
            }
            next = Host.lend(&self) { host, _ in host.takeFollowUp(d) }
        }
    }
}

extension World {
    /// Builds the report (Report/RunReport.swift). Fails (as a scenario error) only when an
    /// `expect` names a metric that `report.json` does not have.
    public func report() throws(ScenarioError) -> RunOutcome {
        try RunReport(core: core, load: load, server: server, eventHashes: eventHashes, eventsProcessed: eventsProcessed,
                      parts: featureReport(), featureWakeups: core.devices.indices.map(featuresWakeups)).outcome()
    }

    /// The traced device's story (empty unless the world was built with `traceDevice`).
    public var trace: [(time: SimTime, line: String)] { core.traceRecorder?.entries ?? [] }

    /// Bytes the pending-event set holds (`fleetsim bench`'s memory split per device).
    public var pendingSetBytes: Int { core.clock.pendingSetBytes }
    /// Bytes of one pending event in the queue.
    public var pendingEntryStride: Int { core.clock.pendingEntryStride }

    /// Memory of one device's state: its `Device`, its stale-sync trigger and its entries
    /// in the hosts' arrays.
    public static var bytesPerDevice: Int {
        MemoryLayout<Device>.stride + MemoryLayout<DeferredTimer>.stride + featuresBytesPerDevice
    }

    /// Memory of one iOS device's extra state: its launch policy's (``WorldCore/launchPolicies``)
    /// and its pending task requests (``WorldCore/bgTaskRequests``).
    public static var bytesPerIOSDevice: Int { MemoryLayout<LaunchPolicyState>.stride + MemoryLayout<BGTaskRequests>.stride }

    /// Memory of one Android device's extra state (its quota history arrays not included).
    public static var bytesPerAndroidDevice: Int { MemoryLayout<AndroidDevice>.stride }
}

extension SimTime {
    /// "Never happened" for per-device times (compare with `==`, never subtract).
    static let never = SimTime(microseconds: Int64.min)
}
