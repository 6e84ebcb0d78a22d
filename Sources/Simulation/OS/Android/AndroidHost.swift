import SimKernel
import Platform

/// The Android host (docs/architecture.md, "The OS seam"): Android's OS state for the
/// fleet's Android devices and the reused buffers its models write into, a stored property
/// of `World` lent beside the core (`android.feedDoze(d, input, core: &core)`: two
/// distinct stored properties, borrowed at once with no copy). Its mechanisms (Doze,
/// standby buckets, WorkManager, FCM delivery, Battery Saver, alarms, the manufacturer's
/// policy) are `extension AndroidHost` in this folder; where one hands work to a feature
/// or the process lifecycle, World+Android.swift carries it out at the same point.
struct AndroidHost {
    /// Android-only state, indexed by the Android devices' ``Device/platformSlot``.
    var devices: [AndroidDevice]
    /// The distinct requests the app enqueued its works with; each Android device names
    /// its works' by index (``AndroidDevice/requestIDs``; AndroidHost+WorkManager).
    var workRequests: [WorkRequest] = []
    /// Per Android device, where each work's one retractable entry went in the queue: its
    /// job's stop deadline while a job of the work runs, else its last check's timer entry
    /// (AndroidHost+WorkManager, ``armWorkCheck(_:_:_:at:core:)``).
    var workEntries: [PerWork<EventQueue<WorldEvent>.Placement>]
    /// Each cohort's Android models (nil for iOS cohorts), unretained, for the calls made
    /// at every Doze input and work check (``AndroidHost/borrowedModels(_:_:)``).
    let unretainedModels: [Unmanaged<AndroidModels>?]
    /// The reused buffer Doze writes its transitions into.
    var dozeTransitions: [DozeTransition] = []
    /// Doze steps that nothing waits on run when Doze is next fed or read (AndroidHost+Doze); false: one event each.
    var lazyDoze = true
    /// Android screen-offs that nothing waits on are settled when the device's Android
    /// state is next read (AndroidHost+Screen); false: one event each.
    var lazyScreenOffs = true
    /// The user's screen sessions on an Android phone that nothing waits on are settled
    /// when its Android state is next read (AndroidHost+Screen); false: one event each.
    var lazyScreenSessions = true

    /// Room for exactly the fleet's Android devices (not a doubled capacity reached by
    /// copying); each is added at set-up, in the order FleetBuilder numbered them.
    init(cohorts: [CohortModels], devices: [Device]) {
        let count = devices.count { cohorts[Int($0.cohort)].android != nil }
        self.devices = [AndroidDevice](hugePagesCapacity: count)
        workEntries = [PerWork<EventQueue<WorldEvent>.Placement>](hugePagesCapacity: count)
        unretainedModels = cohorts.map { $0.android.map(Unmanaged.passUnretained) }
    }
}

// `mutating` though they only read: the Android host calls them on the core it is lent
// (`inout`), and a non-mutating call on it copies the whole core in a debug build.
extension WorldCore {
    /// Device `d`'s index in the Android host's arrays (-1 for an iOS device).
    @inline(__always) mutating func androidIndex(_ d: UInt32) -> Int { devices[Int(d)].androidIndex }
    /// Android device `d`'s cohort's Android models.
    @inline(__always) mutating func androidModels(_ d: UInt32) -> AndroidModels { cohorts[Int(devices[Int(d)].cohort)].android! }
}

extension AndroidHost {
    /// Device `d`'s cohort's Android models (`fleet` is the core's `devices`), to call
    /// through `_withUnsafeGuaranteedRef` without the retain and release
    /// ``WorldCore/androidModels(_:)`` costs: the optimiser keeps the models alive across
    /// each call into Platform, about 2.9 M pairs in `fleetsim bench`'s 10,000-device day.
    /// Safe because the core's cohorts hold every model for the world's life.
    @inline(__always) func borrowedModels(_ d: UInt32, _ fleet: [Device]) -> Unmanaged<AndroidModels> {
        let c = fleet.withUnsafeBufferPointer { Int($0[Int(d)].cohort) }
        return unretainedModels[c].unsafelyUnwrapped
    }

    /// Set-up at time zero, up to the alarm clock: the screen is off, the app was last used
    /// a drawn while ago (**assumption**: an exponential gap of the cohort's mean time
    /// between opens), and `work` was enqueued before the run as `request` with its next
    /// run due at `firstDue` (nil: not enqueued). World+Android's `startAndroid` goes on.
    /// AppStandbyController's 3 h idle check runs on a grid from the device's boot, which
    /// FleetSim does not know: **assumption**, its phase is uniform over one check
    /// interval, drawn from the device's own stream (`android.bucketCheckPhase`), so the
    /// fleet's checks do not fall at the same instants.
    mutating func start(_ d: UInt32, work: WorkID, _ request: PeriodicWork, firstDue: SimTime?, core: inout WorldCore) {
        let i = Int(d)
        let m = core.androidModels(d)
        var setup = RandomStream(seed: core.scenario.seed, entity: core.globalID(i), purpose: "android.setup")
        let opens = core.cohorts[Int(core.devices[i].cohort)].usage.appOpensPerDay
        let sinceUse = opens > 0 ? SimDuration.fromSeconds(setup.exponential(mean: 86_400 / opens)) : .days(30)
        let batterySaverAuto = setup.chance(m.batterySaverAuto)
        // Each phone's Doze at its own step at time zero (`android.screenOffBeforeStart`).
        let screenOffSince = SimTime.zero - SimDuration(microseconds: max(0, m.screenOffBeforeStart.sampleDuration(&setup).microseconds))
        let bucket = StandbyBucketState(lastUsedAt: .zero - sinceUse, checkPhase: Self.bucketCheckPhase(d, m.buckets, core: core))
        precondition(core.devices[i].androidIndex == devices.count, "World: Android devices start in the order FleetBuilder numbered them")
        workEntries.append(InlineArray(repeating: .near))
        devices.append(AndroidDevice(
            bucket: bucket, lastBucket: m.buckets.bucket(bucket, at: .zero), doze: DozeState(),
            works: InlineArray(repeating: AndroidWorkSlot(spec: WorkSpecState(enqueuedAt: .zero), enqueued: false)),
            fcmHighPriority: m.fcm.makeLog()))
        let a = core.androidIndex(d)
        if let firstDue {
            // Its last run ended one interval before it is due.
            let interval: SimDuration
            if case .periodic(let i, _) = Self.workRequest(m, request).kind { interval = i } else { interval = .zero }
            enqueuedBeforeRun(d, a, work, request, lastRun: firstDue - interval, core: &core)
        }
        devices[a].batterySaverAuto = batterySaverAuto
        core.note(d, "OS: Android; standby bucket \(devices[a].lastBucket); "
                  + (firstDue.map { "\(work) work due \(core.format($0))" } ?? "no \(work) work"))
        updateAutoBatterySaver(d, core: &core)
        startDoze(d, (core.devices[i].lowPowerMode ? [.quickDoze(true)] : []) + (core.devices[i].battery.charging ? [.charging(true)] : []) + [.screen(on: false)],
                  since: screenOffSince, core: &core)
        armOEMKill(d, core: &core)
        armBucketTimer(d, core: &core)
    }

    /// Device `d`'s timer `timer` (`generation`) popped: whether it is current. An owed
    /// screen-off is settled first, as it may have moved the bucket timer's entry (the
    /// one popping would then be stale, as in an eager world).
    mutating func timerIsCurrent(_ d: UInt32, _ timer: AndroidTimer, generation: UInt32, core: inout WorldCore) -> Bool {
        let a = core.androidIndex(d)
        settleScreen(d, a, before: core.now, core: &core)
        return devices[a].timers.isCurrent(timer, generation)
    }

    /// JobScheduler's stop deadline `serial` of `work`'s job on device `d`: whether that
    /// job still runs.
    @inline(__always) mutating func jobStopIsCurrent(_ d: UInt32, serial: UInt32, work: WorkID, core: inout WorldCore) -> Bool {
        let a = core.androidIndex(d)
        return devices.withUnsafeBufferPointer { $0[a].runsJob(work) && $0[a].jobSerials[Int(work.rawValue)] == serial }
    }
}
