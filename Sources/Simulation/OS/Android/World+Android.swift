import SimKernel
import AppLogic
import Platform

/// The app's two unique periodic works (World+Android, World+AndroidStepSync).
enum AndroidWork: UInt8 {
    /// Seed `000`'s refresh (the ``RefreshLogic`` worker).
    case refresh
    /// Seed `003`'s step sync (the ``StepSyncLogic`` worker).
    case stepSync
}

/// One unique periodic work as WorkManager keeps it (enqueued with KEEP).
struct AndroidWorkSlot {
    var spec: WorkSpecState
    var enqueued: Bool
    /// When the due work first found Doze holding it back, or nil.
    var deferredSince: SimTime? {
        get { packedDeferredSince.value }
        set { packedDeferredSince.value = newValue }
    }
    /// The system stopped the last run here (``WorkManagerModel/runStoppedBySystem(_:)``):
    /// it is due again from the original enqueue time, usually in the past, so the next
    /// run's `workManagerDelay` counts from this stop instead; nil otherwise.
    var stoppedAt: SimTime? {
        get { packedStoppedAt.value }
        set { packedStoppedAt.value = newValue }
    }
    private var packedDeferredSince = PackedTime.none
    private var packedStoppedAt = PackedTime.none

    init(spec: WorkSpecState, enqueued: Bool) {
        self.spec = spec
        self.enqueued = enqueued
    }
}

/// The Android-only state of one device, kept out of ``Device`` so iOS devices stay small.
/// Largest parts first, each followed by flags that fit its tail padding; the optional
/// times are ``PackedTime``s (nil is `Int64.min` µs) behind accessors of their own names.
struct AndroidDevice {
    var doze: DozeState
    var lastBucket: StandbyBucket
    /// The running refresh job was stopped by JobScheduler (WorkManager retries it).
    var stopping = false
    /// The step-sync job runs (``stepJobSerial``).
    var stepJobRunning = false
    /// BatteryService's "battery low" flag (``BatteryLowMonitor``, docs/platform-facts.md E).
    var batteryLow = false
    /// The app was force-stopped by the manufacturer's policy; nothing runs until the next open.
    var forceStopped = false
    /// Android's OS timers (``AndroidTimer``).
    var timers = AndroidTimers()
    /// The step-sync job's serial tells a stale stop deadline apart.
    var stepJobSerial: UInt32 = 0
    var screen = ScreenState()
    /// FCM holds messages for this phone (Doze, a force-stop, or offline): look when that ends.
    var fcmWaiting = false
    /// The stale-sync alarm waits for Doze (the limiter or the next maintenance window).
    var alarmHeld = false
    /// The user turned on Battery Saver's automatic schedule (`android.batterySaverAuto`).
    var batterySaverAuto = false
    var bucket: StandbyBucketState
    var quota = JobQuotaState()
    /// The constraints (as WorkManager takes them) and interval the logic's
    /// `schedulePeriodicWork` asked for, from which ``World/stepRequest(_:_:_:)`` rebuilds
    /// the step sync's request (the cohort's WorkManager builds the same one each time:
    /// 11 bytes where the request took 48). The interval is `Int64.min` µs until the
    /// work is first enqueued (no request).
    var stepWorkConstraints = Platform.WorkConstraints()
    /// (In the constraints' tail padding.) What the device's Android state owes, settled
    /// when it is next read (``World/settleScreen(_:_:before:)``).
    var owed = AndroidOwed()
    var stepWorkInterval = SimDuration(microseconds: .min)
    /// The refresh's and the step sync's WorkManager periodic work.
    var refresh: AndroidWorkSlot
    var steps: AndroidWorkSlot
    /// Recent high-priority FCM messages, for the bucket's daily limit (``FCMDeliveryModel``).
    var fcmHighPriority: DeliveryLog
    /// The app's while-idle alarm deliveries (``WhileIdleAlarmLimiter``), created at the first.
    var whileIdleLog: DeliveryLog?
    /// The deadline the pending Doze timer event was scheduled for.
    var dozeTimerAt: SimTime? {
        get { packedDozeTimerAt.value }
        set { packedDozeTimerAt.value = newValue }
    }
    /// The next moment the bucket can change, and the time of the bucket timer's queue
    /// entry, at or before it (World+StandbyBuckets).
    var bucketCheckAt: SimTime? {
        get { packedBucketCheckAt.value }
        set { packedBucketCheckAt.value = newValue }
    }
    var bucketEntryAt: SimTime? {
        get { packedBucketEntryAt.value }
        set { packedBucketEntryAt.value = newValue }
    }
    /// The stale-sync alarm's requested time while one is pending (World+WhileIdleAlarm).
    var alarmDue: SimTime? {
        get { packedAlarmDue.value }
        set { packedAlarmDue.value = newValue }
    }
    /// The user's daily alarm clock, as a local time of day (``AlarmClockModel``); nil
    /// for a user without one (stored as `Int64.min` µs).
    var alarmClock: SimDuration? {
        get { alarmClockTimeOfDay.microseconds == .min ? nil : alarmClockTimeOfDay }
        set { alarmClockTimeOfDay = newValue ?? SimDuration(microseconds: .min) }
    }
    var packedDozeTimerAt = PackedTime.none
    var packedBucketCheckAt = PackedTime.none
    var packedBucketEntryAt = PackedTime.none
    var packedAlarmDue = PackedTime.none
    var alarmClockTimeOfDay = SimDuration(microseconds: .min)
    /// The user's screen sessions and the phone's significant motion, as positions
    /// (drawn through ``EntityStreams``). A session's start draws its length and the
    /// next start with one rebuild (docs/speed.md, "Session 13").
    var screenStream = StreamPosition.start
    var motionStream = StreamPosition.start

    /// One work's slot, borrowed in place (a plain getter would copy the whole device,
    /// retaining its arrays, at every look).
    subscript(work: AndroidWork) -> AndroidWorkSlot {
        _read { if work == .refresh { yield refresh } else { yield steps } }
        _modify { if work == .refresh { yield &refresh } else { yield &steps } }
    }
}

/// What one Android device owes: a screen-off nothing waited on, and the bucket checks
/// that follow it (World+Android, "Lazy screen-offs").
struct AndroidOwed: OptionSet {
    let rawValue: UInt8
    /// The screen's end at `screen.onUntil` has no event.
    static let screenOff = AndroidOwed(rawValue: 1 << 0)
    /// The bucket's check at `bucketCheckAt` has no timer entry: a settled screen-off
    /// moved it, and settling never schedules, so that a run's events do not depend on
    /// when its reads fall (`run(until:)` in steps or in one go).
    static let bucketCheck = AndroidOwed(rawValue: 1 << 1)
}

/// Android's OS timers, one table per Android device (``TimerTable``).
enum AndroidTimer: UInt8, CaseIterable {
    /// Doze's next deadline (``DozeController``).
    case doze
    /// The standby bucket's next timeout.
    case bucket
    /// WorkManager's next look at the refresh and the step-sync work.
    case refreshWork
    case stepWork
    /// The manufacturer's policy force-stops the app (``OEMBackgroundPolicy``).
    case oemKill
    /// The battery reaches Battery Saver's automatic level, unplugged.
    case batterySaverLevel
    /// The user's alarm clock rings (World+AlarmClock).
    case alarmClock

    static func work(_ work: AndroidWork) -> AndroidTimer { work == .refresh ? .refreshWork : .stepWork }
}

typealias AndroidTimers = TimerTable<AndroidTimer, 7>

/// Android events, dispatched by ``World/androidEvent(_:)``.
enum AndroidEvent {
    case screenSessionStarts(device: UInt32)
    case screenOff(device: UInt32, generation: UInt32)
    case motion(device: UInt32)
    /// One of the device's ``AndroidTimer``s.
    case timer(device: UInt32, generation: UInt32, timer: AndroidTimer)
    /// JobScheduler's stop deadline of the step-sync job `serial`.
    case stepJobStops(device: UInt32, serial: UInt32)
}

/// Android devices: Doze (`docs/platform-facts.md` A) driven by screen, charging, motion and
/// network; App Standby Buckets and JobScheduler quotas (B); and the app's refresh as
/// WorkManager periodic work (D): the real ``RefreshLogic`` runs as the worker. Its
/// `scheduleRefresh` effect enqueues unique periodic work (KEEP: an enqueued request is
/// kept), a run is `taskLaunched`, and JobScheduler's stop deadline (10 min, or less when
/// the bucket's quota runs out) replaces iOS's 30 s expiration.
extension World {
    func androidIndex(_ d: UInt32) -> Int { core.devices[Int(d)].androidIndex }
    @inline(__always) func models(_ d: UInt32) -> AndroidModels { core.cohorts[Int(core.devices[Int(d)].cohort)].android! }
    /// Device `d`'s cohort's Android models, to call through `_withUnsafeGuaranteedRef`
    /// without the retain and release `models(d)` costs: the optimiser keeps the models
    /// alive across each call into Platform, about 2.9 M pairs in `fleetsim bench`'s
    /// 10,000-device day. Safe because `core.cohorts` holds every model for the world's life.
    @inline(__always) func borrowedModels(_ d: UInt32) -> Unmanaged<AndroidModels> {
        let c = core.devices.withUnsafeBufferPointer { Int($0[Int(d)].cohort) }
        return unretainedAndroidModels[c].unsafelyUnwrapped
    }

    /// Set-up at time zero: the screen is off, the app was last used a drawn while ago
    /// (**assumption**: an exponential gap of the cohort's mean time between opens), and
    /// the refresh work was enqueued before the run with its next run due at `firstDue`.
    /// AppStandbyController's 3 h idle check runs on a grid from the device's boot, which
    /// FleetSim does not know: **assumption**, its phase is uniform over one check
    /// interval, drawn from the device's own stream (`android.bucketCheckPhase`), so the
    /// fleet's checks do not fall at the same instants. The user's alarm clock is drawn
    /// from its own stream too (`user.alarmClock`, World+AlarmClock).
    mutating func startAndroid(_ d: UInt32, firstDue: SimTime?) {
        let i = Int(d)
        let m = models(d)
        var setup = RandomStream(seed: scenario.seed, entity: core.globalID(i), purpose: "android.setup")
        let opens = core.cohorts[Int(core.devices[i].cohort)].usage.appOpensPerDay
        let sinceUse = opens > 0 ? SimDuration.fromSeconds(setup.exponential(mean: 86_400 / opens)) : .days(30)
        let batterySaverAuto = setup.chance(m.batterySaverAuto)
        // Each phone's Doze at its own step at time zero (`android.screenOffBeforeStart`).
        let screenOffSince = SimTime.zero - SimDuration(microseconds: max(0, m.screenOffBeforeStart.sampleDuration(&setup).microseconds))
        let bucket = StandbyBucketState(lastUsedAt: .zero - sinceUse, checkPhase: bucketCheckPhase(d, m.buckets))
        let interval: SimDuration
        if case .periodic(let i, _) = m.refreshWork.kind { interval = i } else { interval = .zero }
        let due = firstDue ?? .zero
        var work = WorkSpecState(enqueuedAt: due - interval)
        m.workManager.runFinished(m.refreshWork, &work, result: .success, now: due - interval)
        precondition(core.devices[i].androidIndex == androids.count, "World: Android devices start in the order FleetBuilder numbered them")
        stepJobStops.append(.near)
        androids.append(AndroidDevice(
            doze: DozeState(), lastBucket: m.buckets.bucket(bucket, at: .zero), bucket: bucket,
            refresh: AndroidWorkSlot(spec: work, enqueued: firstDue != nil),
            steps: AndroidWorkSlot(spec: WorkSpecState(enqueuedAt: .zero), enqueued: false),
            fcmHighPriority: m.fcm.makeLog()))
        androids[androidIndex(d)].batterySaverAuto = batterySaverAuto
        core.note(d, "OS: Android; standby bucket \(androids[androidIndex(d)].lastBucket); "
                  + (firstDue.map { "refresh work due \(core.format($0))" } ?? "no refresh work"))
        updateAutoBatterySaver(d)
        startDoze(d, (core.devices[i].lowPowerMode ? [.quickDoze(true)] : []) + (isCharging(i) ? [.charging(true)] : []) + [.screen(on: false)],
                  since: screenOffSince)
        armOEMKill(d)
        armBucketTimer(d)
        setUpAlarmClock(d)
        scheduleScreenSession(d)
        scheduleMotion(d)
        if firstDue != nil { scheduleWorkCheck(d, .refresh) }
    }

    mutating func androidEvent(_ event: AndroidEvent) {
        switch event {
        case .screenSessionStarts(let d):
            // The session's length and the next session's start, drawn in that order
            // from one rebuild of the stream: the session changes neither the clock nor
            // the zone the next start is drawn on.
            let (length, next) = drawScreenSession(d, length: true)
            screenSession(d, length: length)
            if let next { core.clock.schedule(.android(.screenSessionStarts(device: d)), at: next) }
        case .screenOff(let d, let generation):
            let a = androidIndex(d)
            guard androids[a].screen.offTimerFires(generation: generation) else { return }
            core.note(d, "OS: screen off")
            let t = now
            borrowedModels(d)._withUnsafeGuaranteedRef { $0.buckets.screen(on: false, state: &androids[a].bucket, now: t) }
            applyDoze(d, .screen(on: false))
            armOEMKill(d)
            checkBucket(d)
            armBucketTimer(d)
        case .motion(let d):
            core.note(d, "OS: significant motion")
            applyDoze(d, .motion)
            scheduleMotion(d)
        case .timer(let d, let generation, let timer):
            androidTimerFires(d, timer, generation: generation)
        case .stepJobStops(let d, let serial):
            let a = androidIndex(d)
            guard androids[a].stepJobRunning, androids[a].stepJobSerial == serial else { return }
            core.metrics.platform.jobsStopped += 1
            core.note(d, "JobScheduler: step-sync job \(serial) stopped at its deadline")
            stepJobEnded(d, .stoppedBySystem)
        }
    }

    /// An Android timer's event: stale ones are dropped here, current ones go to their
    /// mechanism. An owed screen-off is settled first, as it may have moved the bucket
    /// timer's entry (the one popping would then be stale, as in an eager world).
    mutating func androidTimerFires(_ d: UInt32, _ timer: AndroidTimer, generation: UInt32) {
        let a = androidIndex(d)
        settleScreen(d, a, before: now)
        guard androids[a].timers.isCurrent(timer, generation) else { return }
        switch timer {
        case .doze:
            androids[a].dozeTimerAt = nil
            applyDoze(d, .timer)
        case .bucket: bucketTimerFires(d)
        case .refreshWork: tryRunWork(d, .refresh)
        case .stepWork: tryRunWork(d, .stepSync)
        case .oemKill: oemForceStop(d)
        case .batterySaverLevel: if updateAutoBatterySaver(d) { batterySaverChanged(d) }
        case .alarmClock: alarmClockRings(d)
        }
    }

    // MARK: - The user and the screen

    /// The user opens the app: strong usage for App Standby (ACTIVE, held 1 h) and the
    /// screen on for the foreground session.
    mutating func androidAppOpened(_ d: UInt32) {
        let a = androidIndex(d)
        screenSession(d, length: World.foregroundSession)
        if androids[a].forceStopped {
            androids[a].forceStopped = false
            core.note(d, "OS: the app is no longer stopped (opened by the user)")
            tryRunWork(d, .refresh)
            tryRunWork(d, .stepSync)
            if !dozeNow(d).restrictsBackgroundWork { flushFCM(d) }
        }
        models(d).buckets.appUsed(state: &androids[a].bucket, now: now)
        checkBucket(d)
        armBucketTimer(d)
    }

    /// A posted notification is seen: WORKING_SET for 12 h (`docs/platform-facts.md` B).
    mutating func androidNotificationSeen(_ d: UInt32) {
        settleScreen(d, androidIndex(d), before: now)
        models(d).buckets.notificationSeen(state: &androids[androidIndex(d)].bucket, now: now)
        checkBucket(d)
        armBucketTimer(d)
    }

    mutating func screenSession(_ d: UInt32, length: SimDuration) {
        let a = androidIndex(d)
        settleScreen(d, a, before: now)
        switch androids[a].screen.sessionStarts(now: now, length: length) {
        case .turnedOn(let offAt, let generation):
            core.note(d, "OS: screen on")
            androids[a].timers.cancel(.oemKill)
            let t = now
            borrowedModels(d)._withUnsafeGuaranteedRef { $0.buckets.screen(on: true, state: &androids[a].bucket, now: t) }
            scheduleScreenOff(d, a, at: offAt, generation: generation)
            applyDoze(d, .screen(on: true))
        case .extended(let offAt, let generation):
            scheduleScreenOff(d, a, at: offAt, generation: generation)
        case .unchanged:
            break
        }
    }

    // MARK: - Lazy screen-offs

    // A screen-off changes only the device's Android state (the screen, the bucket's
    // screen-on clock, Doze going INACTIVE, the bucket's check and timer) unless
    // something waits on Doze, whose change may then release it (``dozeWatched(_:_:)``:
    // due work, FCM messages held, a while-idle alarm held; and always for the traced
    // device), or a manufacturer's policy arms its force-stop from it. Otherwise it gets
    // no event: it is owed, and settled at its own instant when the device's Android
    // state is next read or fed (``settleDoze(_:before:)``, the bucket, a timer, a
    // session, an FCM route) and at the end of every ``run(until:)``, and so are the
    // bucket checks it moves (``AndroidOwed/bucketCheck``): settling schedules nothing.
    // Something that starts waiting while it is owed gives it its event back
    // (``watchScreen(_:_:)``). docs/android.md, "Lazy screen-offs".

    /// The screen-off at `offAt` (`generation`): an event, or owed when nothing waits.
    @inline(__always) mutating func scheduleScreenOff(_ d: UInt32, _ a: Int, at offAt: SimTime, generation: UInt32) {
        if lazyScreenOffs, borrowedModels(d)._withUnsafeGuaranteedRef({ $0.oem == .stock }), !dozeWatched(d, a) {
            androids[a].owed.insert(.screenOff)
        } else {
            androids[a].owed.remove(.screenOff)
            core.clock.schedule(.android(.screenOff(device: d, generation: generation)), at: offAt)
        }
    }

    /// Something now waits on Doze: an owed screen-off (in the future, as every look
    /// settles the past ones) becomes an event again, since Doze's change may release it.
    @inline(__always) mutating func watchScreen(_ d: UInt32, _ a: Int) {
        guard androids.withUnsafeBufferPointer({ $0[a].owed.contains(.screenOff) }) else { return }
        androids[a].owed.remove(.screenOff)
        core.clock.schedule(.android(.screenOff(device: d, generation: androids[a].screen.offTimer.current)), at: androids[a].screen.onUntil)
    }

    /// Settles what device `d` owes before `t`: its screen-off, then the bucket checks
    /// after it. One due at `t` itself is left to the next look, as an event scheduled
    /// earlier at that instant goes first (and the screen-off's was scheduled when the
    /// session started).
    @inline(__always) mutating func settleScreen(_ d: UInt32, _ a: Int, before t: SimTime) {
        guard androids.withUnsafeBufferPointer({ $0[a].owed.rawValue != 0 }) else { return }
        settleOwed(d, a, before: t)
    }

    mutating func settleOwed(_ d: UInt32, _ a: Int, before t: SimTime) {
        if androids[a].owed.contains(.screenOff), androids[a].screen.onUntil < t { screenOffSettles(d, a) }
        while androids[a].owed.contains(.bucketCheck), let at = androids[a].bucketCheckAt, at < t {
            // The entry an eager world scheduled for `at` pops and finds its moment come.
            checkBucket(d, a, at: at)
            owedBucketCheck(d, a, after: at)
        }
    }

    /// The owed screen-off, at its own instant `off`: what the `.screenOff` event does
    /// when nothing waits. Doze's steps before it first, then the screen, the bucket's
    /// screen-on clock and Doze's input (its transitions counted; they release nothing),
    /// and the bucket's check and next moment.
    mutating func screenOffSettles(_ d: UInt32, _ a: Int) {
        let off = androids[a].screen.onUntil
        androids[a].owed.remove(.screenOff)
        settleDozeSteps(d, a, before: off)
        _ = androids[a].screen.offTimerFires(generation: androids[a].screen.offTimer.current)
        let first = startDozeTransitions()
        borrowedModels(d)._withUnsafeGuaranteedRef {
            $0.buckets.screen(on: false, state: &androids[a].bucket, now: off)
            $0.doze.handle(.screen(on: false), state: &androids[a].doze, now: off, into: &dozeTransitions)
        }
        countDozeTransitions(d, from: first)
        checkBucket(d, a, at: off)
        owedBucketCheck(d, a, after: off)
    }

    /// The bucket timer as an owed screen-off or bucket check at `t` arms it, without
    /// scheduling: the next moment the bucket can change; an entry at or before it
    /// stays (and it moves on when it pops); otherwise the moment is owed, and a later
    /// entry is superseded, as an eager world's new entry supersedes it.
    mutating func owedBucketCheck(_ d: UInt32, _ a: Int, after t: SimTime) {
        let at = borrowedModels(d)._withUnsafeGuaranteedRef { $0.buckets.nextChange(androids[a].bucket, after: t) }
        androids[a].bucketCheckAt = at
        guard let at else {
            androids[a].owed.remove(.bucketCheck)
            return
        }
        if let entry = androids[a].bucketEntryAt, entry <= at { return }
        androids[a].bucketEntryAt = nil
        androids[a].timers.cancel(.bucket)
        androids[a].owed.insert(.bucketCheck)
    }

    mutating func scheduleScreenSession(_ d: UInt32) {
        guard let at = drawScreenSession(d, length: false).next else { return }
        core.clock.schedule(.android(.screenSessionStarts(device: d)), at: at)
    }

    /// Draws, from the phone's screen stream, a session's length (when `length`; else
    /// zero, no draw) and then the next session's start after now.
    @inline(__always) private mutating func drawScreenSession(_ d: UInt32, length: Bool) -> (length: SimDuration, next: SimTime?) {
        let i = Int(d), a = androidIndex(d)
        let users = core.cohorts[Int(core.devices[i].cohort)].users
        let (now, zone, startUnixSeconds) = (now, Int(core.devices[i].clock.location), core.startUnixSeconds)
        return core.streams(of: i).withStream(.userScreen, at: &androids[a].screenStream) { rng in
            let sessionLength = length ? users.sessionLength(rng: &rng) : .zero
            return (sessionLength, users.nextScreenSession(after: now, rng: &rng, zone: &localZones[zone], startUnixSeconds: startUnixSeconds))
        }
    }

    /// **Assumption** (`android.motionEventsPerDay`): significant motion on the diurnal curve.
    mutating func scheduleMotion(_ d: UInt32) {
        let i = Int(d), a = androidIndex(d)
        let c = core.cohorts[Int(core.devices[i].cohort)]
        let (now, zone, startUnixSeconds) = (now, Int(core.devices[i].clock.location), core.startUnixSeconds)
        guard let at = core.streams(of: i).withStream(.userMotion, at: &androids[a].motionStream, {
            c.users.nextArrival(after: now, perDay: c.android!.motionEventsPerDay, rng: &$0, zone: &localZones[zone], startUnixSeconds: startUnixSeconds)
        }) else { return }
        core.clock.schedule(.android(.motion(device: d)), at: at)
    }
}

extension World {
    /// Memory of one Android device's extra state (its quota history arrays not included).
    public static var bytesPerAndroidDevice: Int { MemoryLayout<AndroidDevice>.stride }
}
