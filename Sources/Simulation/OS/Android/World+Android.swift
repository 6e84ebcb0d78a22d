import SimKernel
import AppLogic
import Platform

/// One declared work (``WorkID``) as WorkManager keeps it: unique periodic work, enqueued with KEEP.
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
    /// The works whose job was stopped by JobScheduler at its deadline (WorkManager retries
    /// them), one bit per ``WorkID``.
    var jobsStopping: UInt8 = 0
    /// The works whose JobScheduler job runs, one bit per ``WorkID`` (``runsJob(_:)``).
    var jobsRunning: UInt8 = 0
    /// BatteryService's "battery low" flag (``BatteryLowMonitor``, docs/platform-facts.md E).
    var batteryLow = false
    /// The app was force-stopped by the manufacturer's policy; nothing runs until the next open.
    var forceStopped = false
    /// Android's OS timers (``AndroidTimer``).
    var timers = AndroidTimers()
    /// Each work's last job's serial, which tells a stale stop deadline apart (``AndroidEvent/jobStops(device:serial:work:)``).
    var jobSerials = InlineArray<2, UInt32>(repeating: 0)
    var screen = ScreenState()
    /// FCM holds messages for this phone (Doze, a force-stop, or offline): look when that ends.
    var fcmWaiting = false
    /// The stale-sync alarm waits for Doze (the limiter or the next maintenance window).
    var alarmHeld = false
    /// The user turned on Battery Saver's automatic schedule (`android.batterySaverAuto`).
    var batterySaverAuto = false
    var bucket: StandbyBucketState
    var quota = JobQuotaState()
    /// What the device's Android state owes, settled when it is next read
    /// (``World/settleScreen(_:_:before:)``).
    var owed = AndroidOwed()
    /// Each work's request as it was enqueued, by its index in
    /// ``World/androidWorkRequests`` (`UInt8.max`: never enqueued): 1 byte a work where
    /// the request takes 48.
    var requestIDs = InlineArray<2, UInt8>(repeating: .max)
    /// Each declared work's WorkManager periodic work, by ``WorkID/index``.
    var works: InlineArray<2, AndroidWorkSlot>
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
    subscript(work: WorkID) -> AndroidWorkSlot {
        _read { yield works[Int(work.rawValue)] }
        _modify { yield &works[Int(work.rawValue)] }
    }

    /// Whether work `work`'s job runs.
    @inline(__always) func runsJob(_ work: WorkID) -> Bool { jobsRunning & work.bit != 0 }
}

extension WorkID {
    /// The work's bit in ``AndroidDevice/jobsRunning`` and ``AndroidDevice/jobsStopping``.
    @inline(__always) var bit: UInt8 { 1 << rawValue }
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
    /// WorkManager's next look at a declared work, one case per ``WorkID`` (``work(_:)``).
    case work0
    case work1
    /// The manufacturer's policy force-stops the app (``OEMBackgroundPolicy``).
    case oemKill
    /// The battery reaches Battery Saver's automatic level, unplugged.
    case batterySaverLevel
    /// The user's alarm clock rings (World+AlarmClock).
    case alarmClock

    /// WorkManager's look at `work`.
    @inline(__always) static func work(_ work: WorkID) -> AndroidTimer { AndroidTimer(rawValue: AndroidTimer.work0.rawValue + work.rawValue).unsafelyUnwrapped }

    /// The work a WorkManager look is for, or nil for the other timers.
    var work: WorkID? {
        switch self {
        case .work0: WorkID(rawValue: 0)
        case .work1: WorkID(rawValue: 1)
        case .doze, .bucket, .oemKill, .batterySaverLevel, .alarmClock: nil
        }
    }
}

typealias AndroidTimers = TimerTable<AndroidTimer, 7>

/// Android events, dispatched by ``World/androidEvent(_:)``.
enum AndroidEvent {
    case screenSessionStarts(device: UInt32)
    case screenOff(device: UInt32, generation: UInt32)
    case motion(device: UInt32)
    /// One of the device's ``AndroidTimer``s.
    case timer(device: UInt32, generation: UInt32, timer: AndroidTimer)
    /// JobScheduler's stop deadline of `work`'s job `serial` (a work run as the app's
    /// background task stops at the task's deadline instead: ``World/featureWorkRuns(_:_:_:)``).
    case jobStops(device: UInt32, serial: UInt32, work: WorkID)
}

/// Android devices: Doze (`docs/platform-facts.md` A) driven by screen, charging, motion and
/// network; App Standby Buckets and JobScheduler quotas (B); and the features' declared
/// works (``WorkID``) as WorkManager unique periodic work (D, World+WorkManager), each run
/// handed to the feature that declared it.
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
    /// `work` was enqueued before the run as `request` with its next run due at `firstDue`
    /// (nil: not enqueued).
    /// AppStandbyController's 3 h idle check runs on a grid from the device's boot, which
    /// FleetSim does not know: **assumption**, its phase is uniform over one check
    /// interval, drawn from the device's own stream (`android.bucketCheckPhase`), so the
    /// fleet's checks do not fall at the same instants. The user's alarm clock is drawn
    /// from its own stream too (`user.alarmClock`, World+AlarmClock).
    mutating func startAndroid(_ d: UInt32, work: WorkID, _ request: PeriodicWork, firstDue: SimTime?) {
        let i = Int(d)
        let m = models(d)
        var setup = RandomStream(seed: scenario.seed, entity: core.globalID(i), purpose: "android.setup")
        let opens = core.cohorts[Int(core.devices[i].cohort)].usage.appOpensPerDay
        let sinceUse = opens > 0 ? SimDuration.fromSeconds(setup.exponential(mean: 86_400 / opens)) : .days(30)
        let batterySaverAuto = setup.chance(m.batterySaverAuto)
        // Each phone's Doze at its own step at time zero (`android.screenOffBeforeStart`).
        let screenOffSince = SimTime.zero - SimDuration(microseconds: max(0, m.screenOffBeforeStart.sampleDuration(&setup).microseconds))
        let bucket = StandbyBucketState(lastUsedAt: .zero - sinceUse, checkPhase: bucketCheckPhase(d, m.buckets))
        precondition(core.devices[i].androidIndex == androids.count, "World: Android devices start in the order FleetBuilder numbered them")
        jobStops.append(InlineArray(repeating: .near))
        androids.append(AndroidDevice(
            doze: DozeState(), lastBucket: m.buckets.bucket(bucket, at: .zero), bucket: bucket,
            works: InlineArray(repeating: AndroidWorkSlot(spec: WorkSpecState(enqueuedAt: .zero), enqueued: false)),
            fcmHighPriority: m.fcm.makeLog()))
        let a = androidIndex(d)
        if let firstDue {
            // Its last run ended one interval before it is due.
            let interval: SimDuration
            if case .periodic(let i, _) = Self.workRequest(m, request).kind { interval = i } else { interval = .zero }
            enqueuedBeforeRun(d, a, work, request, lastRun: firstDue - interval)
        }
        androids[a].batterySaverAuto = batterySaverAuto
        core.note(d, "OS: Android; standby bucket \(androids[a].lastBucket); "
                  + (firstDue.map { "\(work) work due \(core.format($0))" } ?? "no \(work) work"))
        updateAutoBatterySaver(d)
        startDoze(d, (core.devices[i].lowPowerMode ? [.quickDoze(true)] : []) + (core.isCharging(i) ? [.charging(true)] : []) + [.screen(on: false)],
                  since: screenOffSince)
        armOEMKill(d)
        armBucketTimer(d)
        setUpAlarmClock(d)
        scheduleScreenSession(d)
        scheduleMotion(d)
        if firstDue != nil { scheduleWorkCheck(d, work) }
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
        case .jobStops(let d, let serial, let work):
            let a = androidIndex(d)
            guard androids.withUnsafeBufferPointer({ $0[a].runsJob(work) && $0[a].jobSerials[Int(work.rawValue)] == serial }) else { return }
            stopJob(d, work, serial: serial)
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
        case .work0, .work1: tryRunWork(d, timer.work.unsafelyUnwrapped)
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
            tryEveryWork(d)
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
            return (sessionLength, users.nextScreenSession(after: now, rng: &rng, zone: &core.localZones[zone], startUnixSeconds: startUnixSeconds))
        }
    }

    /// **Assumption** (`android.motionEventsPerDay`): significant motion on the diurnal curve.
    mutating func scheduleMotion(_ d: UInt32) {
        let i = Int(d), a = androidIndex(d)
        let c = core.cohorts[Int(core.devices[i].cohort)]
        let (now, zone, startUnixSeconds) = (now, Int(core.devices[i].clock.location), core.startUnixSeconds)
        guard let at = core.streams(of: i).withStream(.userMotion, at: &androids[a].motionStream, {
            c.users.nextArrival(after: now, perDay: c.android!.motionEventsPerDay, rng: &$0, zone: &core.localZones[zone], startUnixSeconds: startUnixSeconds)
        }) else { return }
        core.clock.schedule(.android(.motion(device: d)), at: at)
    }
}

extension World {
    /// Memory of one Android device's extra state (its quota history arrays not included).
    public static var bytesPerAndroidDevice: Int { MemoryLayout<AndroidDevice>.stride }
}
