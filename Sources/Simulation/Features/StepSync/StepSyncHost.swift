import SimKernel
import AppLogic
import Platform
import Backend
import Scenario
import Reports

/// One device's step-sync bookkeeping in the world, beside the logic's state.
struct StepSyncSlot {
    /// The job of the step upload in flight, or -1.
    var job: Int32 = -1
    /// HealthKit deliveries that woke the app (report.json's wake-ups per device-day).
    var healthWakes: UInt32 = 0
    /// True times of the last health-data read (the upload's range).
    var readFrom = SimTime.never
    var readTo = SimTime.never
    /// Ground truth: steps recorded before this true time have reached the server.
    var syncedThrough = SimTime.never
}

/// What the step sync measured (report.json's `stepSync`, its latency and energy).
struct StepSyncMetrics {
    var recordedToSynced: TimedLatency
    /// Energy of each step upload, per cohort.
    var uploadEnergy: [EventEnergy]
    var uploads: UInt64 = 0
    /// Uploads still in flight when iOS suspended the app (they fail as a lost connection).
    var uploadsCutBySuspension: UInt64 = 0
    var healthDeliveries: UInt64 = 0
    var staleSyncNotifications: UInt64 = 0
    /// Android's step-sync jobs started (WorkManager periodic work, seed `003`).
    var jobs: UInt64 = 0
}

/// The step sync of seed `003`, hosted (docs/architecture.md): ``StepSyncLogic`` runs on
/// every app open and, on iOS, inside every `BGAppRefreshTask` launch and on HealthKit
/// background deliveries (on Android as WorkManager periodic work: World+StepSync).
/// The host owns the logic, each device's state, what of it reached the disk and its
/// bookkeeping (``StepSyncSlot``), its draws, the health data (``HealthDataGenerator``,
/// ground truth), the server's ``StepStore``, the effect buffer and the metrics. The
/// world's side (World+StepSync) delivers its inputs; what belongs to the OS seam, the
/// process or the network comes back as a ``HostRequest``.
struct StepSyncHost<Logics: LogicSet>: FeatureHost {
    /// **Assumption**: the app synced sometime in the last 2 h (the seed's interval) before the run.
    static var initialSyncAge: SimDuration { .hours(2) }

    let logic: Logics.StepSync
    /// The reused buffer the logic writes its effects into.
    var effects: [StepSyncEffect] = []
    /// The answer to a health-data read the last effects asked for (a local query),
    /// delivered to the logic once they have run.
    private var readAnswer: StepSyncInput?
    /// Per device (indexed by the dense device id):
    var states: [Logics.StepSync.State]
    /// What of the state reached the disk (UserDefaults), where it differs from `states`' copy.
    var durable = OnDisk<StepSyncStored>()
    var slots: [StepSyncSlot]
    /// Per device, a HealthKit wake is under way: its completion handler not yet called,
    /// its budget not yet spent (it holds the process: ``World/featuresHoldProcess(_:)``).
    var waking: DeviceBits
    /// The step sync's draws (the last sync before the run, HealthKit's delivery gaps), as
    /// positions (``StreamPosition``, docs/performance.md#streams-as-positions).
    var streams: [StreamPosition]
    /// The server's step rows (the oracle reads them).
    var store: StepStore
    /// The steps each user truly records (ground truth; the health store answers reads from it).
    let health: HealthDataGenerator
    var metrics: StepSyncMetrics

    /// Memory of one device's entries in the arrays above.
    static var bytesPerDevice: Int {
        MemoryLayout<Logics.StepSync.State>.stride + MemoryLayout<StepSyncSlot>.stride + MemoryLayout<StreamPosition>.stride
    }

    init(scenario: Scenario, logic: Logics.StepSync, core: WorldCore) {
        self.logic = logic
        let n = core.devices.count
        states = Array(hugePagesRepeating: Logics.StepSync.State(), count: n)
        slots = Array(hugePagesRepeating: StepSyncSlot(), count: n)
        waking = DeviceBits(count: n)
        streams = Array(hugePagesRepeating: .start, count: n)
        store = StepStore(users: core.cohorts.contains { $0.runs(.stepSync) } ? n : 0, window: StepSyncFeature.runDates(scenario, core: core),
                          retentionDays: scenario.backend.stepRetentionDays.map { Int32($0) })
        health = HealthDataGenerator(seed: scenario.seed, rhythm: core.rhythm)
        metrics = StepSyncMetrics(recordedToSynced: TimedLatency(durationMicroseconds: scenario.duration.microseconds),
                                  uploadEnergy: core.cohorts.map { EventEnergy(capacityMah: $0.capacityMah) })
        effects.reserveCapacity(16)
    }

    static var traceName: String { "step sync" }

    @inline(__always) static func lend<R>(_ world: inout World<Logics>, _ body: (inout StepSyncHost, inout WorldCore) -> R) -> R {
        body(&world.features.stepSync, &world.core)
    }

    // MARK: - Set-up

    /// A device whose cohort has `stepSync`: the sync before the run (drawn), its state on
    /// disk, what it brought to the server (its day's steps up to then), and the pending
    /// stale-sync notification. Returns when that sync was (the OS's triggers start from
    /// it) and the notification's trigger for the OS seam.
    mutating func start(_ d: UInt32, core: inout WorldCore) -> (lastSync: SimTime, staleNotification: HostRequest) {
        let i = Int(d)
        let age = core.streams(of: i).withStream(.stepSync, at: &streams[i]) { $0.int(in: 1...StepSyncHost.initialSyncAge.microseconds) }
        let lastSync = SimTime.zero - SimDuration(microseconds: age)
        let stored = StepSyncStored(lastSyncAt: core.deviceTime(i, at: lastSync), lastStatus: .success, failedAttempts: 0)
        states[i] = Logics.StepSync.State(persisted: stored)
        slots[i].syncedThrough = lastSync
        let synced = core.localTime(i, at: lastSync)
        observeStepSyncStarted(i, firstDay: synced.day, lastSync: lastSync, core: core)
        _ = store.upsert(user: i, day: synced.day,
                         steps: health.steps(user: core.rhythmUser(i), day: synced.day, before: synced.day, secondOfDay: synced.secondOfDay))
        let notification = setStaleNotification(d, at: lastSync + SimDuration(microseconds: logic.spec.staleNotificationAge.microseconds), core: &core)
        return (lastSync, notification)
    }

    // MARK: - Deliver an input, execute its effects (World.deliver)

    /// The logic handles `input` with the device's clocks, into ``effects``.
    mutating func handle(_ d: UInt32, _ input: StepSyncInput, core: inout WorldCore) {
        let i = Int(d)
        let before = states[i].stored
        observeStepSyncInput(i, input, core: core)
        logic.handle(input, state: &states[i], now: core.deviceTime(i, at: core.now), into: &effects)
        durable.changed(i, from: before, to: states[i].stored)
    }

    /// Carries out one effect; returns what only the world can do. A health-data read is
    /// answered at once (a local query), as the next input (``takeFollowUp(_:)``).
    mutating func execute(_ effect: StepSyncEffect, device d: UInt32, core: inout WorldCore) -> HostRequest? {
        let i = Int(d)
        switch effect {
        case .schedulePeriodicWork(let interval, let constraints):
            observePeriodicWorkInterval(i, SimDuration(microseconds: interval.microseconds), core: core)
            return .enqueuePeriodicWork(.stepSync, interval: interval, constraints: constraints)
        case .readHealthData(let from, let to):
            observeSyncStarts(i, core: core)
            observeSyncCadence(i, core: core)
            observeSyncStartAllowed(i, core: core)
            let clock = core.devices[i].clock
            slots[i].readFrom = clock.trueTime(ofWall: from.unixMicroseconds, startUnixSeconds: core.startUnixSeconds)
            slots[i].readTo = clock.trueTime(ofWall: to.unixMicroseconds, startUnixSeconds: core.startUnixSeconds)
            readAnswer = .healthDataRead(health.healthData(user: core.rhythmUser(i), from: slots[i].readFrom, to: slots[i].readTo,
                                                    days: core.deviceDays(i), home: core.calendars[Int(core.devices[i].homeTimeZone)],
                                                    startUnixSeconds: core.startUnixSeconds))
        case .httpRequest(let id, let endpoint):
            metrics.uploads += 1
            observeStepUploadSent(i, core: core)
            if case .syncSteps(let upload) = endpoint { observeUploadReach(i, upload, core: core) }
            return .send(id, endpoint, .stepSync)
        case .startRetryTimer(let after):
            let delay = SimDuration(microseconds: after.microseconds)
            observeRetryArmed(i, after: delay, core: core)
            core.armTimer(d, .stepRetry, after: delay)
        case .cancelRetryTimer:
            core.cancelTimer(d, .stepRetry)
        case .store:
            core.keyValueWritten(d)
        case .synchronize:
            return .persist(how: "synchronized")
        case .scheduleNotification(_, let after):
            // A time-interval trigger (Android: an elapsed-time alarm): true elapsed time,
            // whatever the wall clock does.
            let delay = SimDuration(microseconds: after.microseconds)
            observeStaleNoticeSet(i, after: delay, core: core)
            return setStaleNotification(d, at: core.now + delay, core: &core)
        case .finishWork(let success):
            return .finishWork(.stepSync, success: success)
        }
        return nil
    }

    /// The health-data read's answer, if the last effects asked for one.
    mutating func takeFollowUp(_ d: UInt32) -> StepSyncInput? {
        defer { readAnswer = nil }
        return readAnswer
    }

    /// Sets the stale-sync notification's trigger at `at`, replacing a pending one (a
    /// time-interval trigger: true elapsed time); the OS seam adds Android's alarm.
    private mutating func setStaleNotification(_ d: UInt32, at: SimTime, core: inout WorldCore) -> HostRequest {
        core.armTimer(d, .staleNotification, at: at)
        return .notificationTriggerSet(at: at)
    }

    // MARK: - The OS's triggers

    /// Schedules the next HealthKit background delivery (iOS; OS/iOS/HealthKitDelivery
    /// decides when): its gaps from the step sync's draws, its pauses from what the user
    /// truly records (the days drawn per user: ``DailyRhythm``, so a zone's phones do not
    /// all wake at one instant).
    mutating func scheduleHealthDelivery(_ d: UInt32, core: inout WorldCore) {
        let i = Int(d), user = core.rhythmUser(i)
        let at = HealthKitDelivery.next(
            after: core.now,
            drawGap: { core.streams(of: i).withStream(.stepSync, at: &streams[i]) { HealthKitDelivery.gap(&$0) } },
            secondsUntilSteps: { t in
                let local = core.localTime(i, at: t)
                return health.secondsUntilSteps(user: user, day: local.day, secondOfDay: local.secondOfDay)
            })
        core.schedule(.stepSync(.healthDelivery(device: d)), at: at)
    }

    /// A HealthKit delivery wakes the app: counted, in its story, and holding the process.
    mutating func healthDeliveryWakes(_ d: UInt32, core: inout WorldCore) {
        metrics.healthDeliveries += 1
        slots[Int(d)].healthWakes &+= 1
        waking[Int(d)] = true
        core.note(d, "OS: HealthKit background delivery wakes the app")
    }

    /// The "not synced for 24 h" notification fires (the OS let it), unless the
    /// permission suppresses it.
    mutating func postStaleNotification(_ d: UInt32, core: inout WorldCore) {
        let i = Int(d)
        observeStaleNoticeFires(i, core: core)
        guard core.devices[i].permission.allowsPosting else {
            core.metrics.notificationsSuppressed += 1
            core.note(d) { c in "OS: stale-sync notification not shown (permission \(c.devices[i].permission))" }
            return
        }
        metrics.staleSyncNotifications += 1
        core.note(d, "OS: notification shown: steps not synced for 24 h")
    }

    // MARK: - The process

    /// UserDefaults writes the state to disk.
    mutating func persist(_ i: Int) { durable.persisted(i) }

    /// Termination: the state comes back from what reached the disk, and the retry and
    /// wake timers die with the process (the world then ends a WorkManager job and
    /// abandons the upload: ``abandonUpload(_:core:)``).
    mutating func terminate(_ d: UInt32, core: inout WorldCore) {
        let i = Int(d)
        states[i] = Logics.StepSync.State(persisted: durable.onDisk(i, current: states[i].stored))
        durable.persisted(i)
        core.cancelTimer(d, .stepRetry)
        core.cancelTimer(d, .stepWake)
        waking[i] = false
    }

    /// Whether a HealthKit wake under way holds the process.
    @inline(__always) func wakeHolds(_ i: Int) -> Bool { waking[i] }

    /// The HealthKit wake is over (its completion handler called, or its budget spent).
    mutating func wakeEnded(_ i: Int) { waking[i] = false }

    /// Nobody waits for the upload in flight any more (the app was suspended or
    /// terminated); returns its request, or nil when none is waiting.
    mutating func abandonUpload(_ d: UInt32, core: inout WorldCore) -> RequestID? {
        let i = Int(d)
        let job = slots[i].job
        slots[i].job = -1
        guard job >= 0, !core.jobs[Int(job)].clientDone else { return nil }
        let request = core.jobs[Int(job)].request
        core.abandonRequest(job)
        return request
    }

    // MARK: - The network and the backend

    /// The upload went out as `job`, with the range it read.
    mutating func requestSent(_ d: UInt32, job: UInt32, core: inout WorldCore) {
        let i = Int(d)
        slots[i].job = Int32(job)
        core.jobs[Int(job)].stepsReadFrom = slots[i].readFrom
        core.jobs[Int(job)].stepsReadTo = slots[i].readTo
    }

    /// Upload `job` of device `i` ended on the client side: its energy (radio, and CPU
    /// while it was in flight; CPU inside the app's background task is already the task's, and its
    /// radio goes to that task's books). Outside a task it is one `sync` operation of
    /// the ``EnergyLedger``.
    mutating func uploadEnded(_ i: Int, job: UInt32, radioJoules: Double, seconds: Double, core: inout WorldCore) {
        if slots[i].job == Int32(job) { slots[i].job = -1 }
        let cpu = core.cohorts[Int(core.devices[i].cohort)].energy.cpuJoules(seconds: seconds)
        if core.devices[i].task.running {
            core.devices[i].ledger.chargeApp(joules: radioJoules)
        } else {
            core.devices[i].ledger.begin(.sync)
            core.devices[i].ledger.chargeApp(joules: radioJoules + cpu)
            core.devices[i].ledger.end()
        }
        metrics.uploadEnergy[Int(core.devices[i].cohort)].add(DeviceEnergyModel.milliampHours(joules: radioJoules + cpu))
    }

    /// `PUT /api/v1/steps/sync` (or the buggy `POST`) at the server: apply every day to the
    /// store, judge duplicates and lost days from ground truth, and measure latency.
    mutating func applyUpload(_ job: UInt32, _ upload: StepUpload, core: inout WorldCore) -> HTTPResult {
        let j = Int(job)
        let user = Int(core.jobs[j].device)
        var created = 0, updated = 0
        store.retain(today: StepSyncFeature.serverDay(core.now, startUnixSeconds: core.startUnixSeconds))
        for entry in upload.days {
            let day = entry.date.daysSince1970
            switch upload.method {
            case .upsert:
                if store.upsert(user: user, day: day, steps: entry.steps) { created += 1 } else { updated += 1 }
            case .insert:
                let rows = store.insert(user: user, day: day, steps: entry.steps)
                created += 1
                observeStepRowInserted(user: user, rows: rows, date: entry.date, source: upload.source.rawValue, core: core)
            }
        }
        stepsReachedServer(user, readFrom: core.jobs[j].stepsReadFrom, readTo: core.jobs[j].stepsReadTo, core: &core)
        return .ok(.stepsSynced(created: created, updated: updated))
    }

    /// A read up to `readTo` reached the server: the latency from the oldest step it
    /// brought, then the oracle judges the days it closes.
    private mutating func stepsReachedServer(_ user: Int, readFrom: SimTime, readTo: SimTime, core: inout WorldCore) {
        let through = slots[user].syncedThrough
        let oldest = firstStepAfter(user, max(through, readFrom), core: core)
        if oldest < readTo { metrics.recordedToSynced.record((core.now - oldest).microseconds, at: core.now.microseconds) }
        if readTo > through { slots[user].syncedThrough = readTo }
        observeStepsReceived(user: user, readTo: readTo, core: core)
    }

    /// The first instant at or after `t` at which the user records steps.
    @inline(__always) private func firstStepAfter(_ i: Int, _ t: SimTime, core: borrowing WorldCore) -> SimTime {
        let local = core.localTime(i, at: t)
        return t + .seconds(Int64(health.secondsUntilSteps(user: core.rhythmUser(i), day: local.day, secondOfDay: local.secondOfDay)))
    }
}

extension StepSyncConfig {
    var configuration: StepSyncConfiguration {
        var c = StepSyncConfiguration()
        c.syncInterval = Interval(microseconds: syncInterval.microseconds)
        c.backfillLimit = Interval(microseconds: backfillLimit.microseconds)
        c.retryDelays = retryDelays.map { Interval(microseconds: $0.microseconds) }
        c.openSyncAge = Interval(microseconds: openSyncAge.microseconds)
        c.staleNotificationAge = Interval(microseconds: staleNotificationAge.microseconds)
        c.lowBatteryPercent = lowBatteryPercent
        return c
    }
}

extension StepSyncVariants {
    /// The `stepSync.*` names of a scenario's `logic.variants`.
    init(names: [String]) {
        self = []
        for name in names {
            switch name {
            case "stepSync.insertNotUpsert": insert(.insertNotUpsert)
            case "stepSync.advanceCursorOnFailure": insert(.advanceCursorOnFailure)
            case "stepSync.ignoresLowBattery": insert(.ignoresLowBattery)
            case "stepSync.retryDelaysSeconds": insert(.retryDelaysSeconds)
            case "stepSync.staleNoticeMinutes": insert(.staleNoticeMinutes)
            case "stepSync.ignoresOffline": insert(.ignoresOffline)
            case "stepSync.intervalMinutes": insert(.intervalMinutes)
            case "stepSync.openSyncAfter48h": insert(.openSyncAfter48h)
            case "stepSync.backfillUnlimited": insert(.backfillUnlimited)
            case "stepSync.localDayIgnoresDST": insert(.localDayIgnoresDST)
            default: break
            }
        }
    }
}

/// The name a cohort's `features` runs seed `003`'s step sync by (``FeatureList/features``).
extension Feature {
    static var stepSync: Feature { Feature("stepSync", bit: 2) }
}

/// What the step sync declares whatever logic runs it: its endpoints (the table:
/// Features/Features.swift), the server's dates and the memory its far rows take.
enum StepSyncFeature {
    /// The steps' upload (an upsert) and the fetch of the server's copy (seed `003`);
    /// both are one kind in the event hashes.
    static let endpoints = [EndpointRow(path: "/api/v1/steps/sync", hashCode: 4), EndpointRow(path: "/api/v1/steps", hashCode: 4)]

    /// `endpoint`'s row in ``endpoints``.
    @inline(__always) static func endpointRow(_ endpoint: Endpoint) -> Int {
        if case .syncSteps(let upload) = endpoint, upload.method != .upsert { return 1 }
        return 0
    }

    /// The dates the run's devices write whatever their zone, unless a fault moves their
    /// clock: the UTC dates of the run, two more each side (zones reach 14 h from UTC, and
    /// the sync before the run up to 2 h before it). The step store keeps these in
    /// columns (``StepStore``).
    static func runDates(_ scenario: Scenario, core: borrowing WorldCore) -> ClosedRange<Int32> {
        let first = core.startUnixSeconds.floorDivided(by: 86_400)
        let last = (core.startUnixSeconds + scenario.duration.microseconds / 1_000_000).floorDivided(by: 86_400)
        return Int32(first - 2)...Int32(last + 2)
    }

    /// A step-table row outside the run's dates (``StepStore``'s open-addressed table:
    /// 16 bytes, at least 3/8 full after it doubles, and the old table beside the new
    /// one while it does).
    static let bytesPerFarRow = 64

    /// At most how many step rows a shard of `held` of `total` devices writes outside the
    /// run's dates (``runDates(_:core:)``), for the memory estimate: a device a
    /// `clockSkew` moves writes at most one a day of the run and its backfill after each
    /// move (`logic.stepSync.backfillLimit`, or the whole skew for
    /// `stepSync.backfillUnlimited`), three more for the edges.
    static func rowsOffTheRunsDates(_ scenario: Scenario, held: Int, total: Int) -> Int {
        guard total > 0 else { return 0 }
        let days = Int((scenario.duration.seconds / 86_400).rounded(.up))
        let backfill = Int((scenario.logic.stepSync.backfillLimit.seconds / 86_400).rounded(.up))
        let unlimited = scenario.logic.variants.contains("stepSync.backfillUnlimited")
        var rows = 0.0
        for fault in scenario.faults {
            guard case .clockSkew(let offset) = fault.kind else { continue }
            let cohort = fault.cohort.map { name in scenario.fleet.filter { $0.name == name }.reduce(0) { $0 + $1.count } } ?? total
            let perDevice = days + 3 + (unlimited ? Int((abs(offset.seconds) / 86_400).rounded(.up)) + backfill : backfill)
            rows += (fault.fraction * Double(cohort) * Double(held) / Double(total)).rounded(.up) * Double(perDevice)
        }
        return Int(rows)
    }

    /// The server's date (UTC) at true time `t`.
    static func serverDay(_ t: SimTime, startUnixSeconds: Int64) -> Int32 {
        Int32((startUnixSeconds + t.microseconds.floorDivided(by: 1_000_000)).floorDivided(by: 86_400))
    }
}

extension StepSyncHost {
    /// Starts loading what the server's answer to an upload (`endpoint`) of `user` reads:
    /// the user's bookkeeping and the store's row of the upload's last day (a hint).
    @inline(__always) func prefetchServing(_ endpoint: Endpoint, user i: Int) {
        slots.prefetch(i)
        if case .syncSteps(let upload) = endpoint, let last = upload.days.last { store.prefetch(user: i, day: last.date.daysSince1970) }
    }
}

/// The step sync's own stream purpose (FNV-1a of "stepSync", as Core/DeviceStreams
/// writes them out), kept per device in ``StepSyncHost/streams``.
extension StreamPurpose {
    static var stepSync: StreamPurpose { StreamPurpose(key: 0x943C_E2AE_9CD3_6368) }
}

fileprivate extension Int64 {
    /// The quotient rounded down (toward minus infinity, as calendar days count).
    func floorDivided(by b: Int64) -> Int64 { self >= 0 ? self / b : -((-self + b - 1) / b) }
}
