import SimKernel
import AppLogic
import Platform

/// One iOS device's pending task requests, one per ``WorkID`` (``WorldCore/bgTaskRequests``,
/// at the device's launch-policy slot): iOS-only state, so not in every `Device`.
struct BGTaskRequests {
    /// Each work's pending request's generation (``BackgroundTaskSlot/pending`` issued it,
    /// its looks carry it); 0: none pending.
    var generations = PerWork<UInt32>(repeating: 0)
    /// Each pending request's class, for the system's per-class limit, and a processing
    /// request's requirements, one byte each (``RequestClass``).
    var classes = PerWork<RequestClass>(repeating: RequestClass(.bgAppRefreshTask, requirements: []))
    /// The launch policy blocked the request (Low Power Mode, force-quit); the world
    /// looks again when that condition ends.
    var heldBack = PerWork<Bool>(repeating: false)

    @inline(__always) func isPending(_ work: WorkID) -> Bool { generations[Int(work.rawValue)] != 0 }

    /// What the pending request `generation` requires of the device before it launches
    /// (docs/platform-facts.md F: a processing request's two flags); none for a `BGAppRefreshTaskRequest`.
    @inline(__always) func requirements(of generation: UInt32) -> AppLogic.WorkConstraints {
        guard let work = work(of: generation) else { return [] }
        return classes[Int(work.rawValue)].requirements
    }

    /// The work whose pending request `generation` is, if it is still pending.
    @inline(__always) func work(of generation: UInt32) -> WorkID? {
        var found: WorkID?
        WorkID.forEach { if generations[Int($0.rawValue)] == generation { found = $0 } }
        return found
    }

    /// How many pending requests of `kind` the identifiers other than `work`'s hold.
    func pending(_ kind: BGTaskKind, besides work: WorkID) -> Int {
        var n = 0
        WorkID.forEach { if $0 != work, isPending($0), classes[Int($0.rawValue)].kind == kind { n += 1 } }
        return n
    }
}

/// A pending request's class and, for a processing request, its requirements
/// (`requiresExternalPower`: ``AppLogic/WorkConstraints/charging``,
/// `requiresNetworkConnectivity`: ``AppLogic/WorkConstraints/networkConnected``), in one
/// byte, so that ``BGTaskRequests`` keeps 6 bytes a declared work (docs/performance.md#memory-per-device).
struct RequestClass: Equatable {
    private let bits: UInt8

    init(_ kind: BGTaskKind, requirements: AppLogic.WorkConstraints) {
        bits = kind == .bgProcessingTask ? 0x80 | (requirements.rawValue & 0x7F) : 0
    }

    var kind: BGTaskKind { bits & 0x80 != 0 ? .bgProcessingTask : .bgAppRefreshTask }
    /// None for a `BGAppRefreshTaskRequest`, which has no requirements.
    var requirements: AppLogic.WorkConstraints { AppLogic.WorkConstraints(rawValue: bits & 0x7F) }
}

/// iOS `BGTaskScheduler`: the app's task requests, one pending request per identifier
/// (one identifier per ``WorkID``), their launch by the launch policy
/// (WorldCore+LaunchPolicy), expiration and the watchdog (docs/platform-facts.md F). A
/// submit replaces only its own identifier's request, a cancel drops only its own, and
/// each request has its own chain of the system's looks; one task runs at a time, held
/// by the work whose request launched it (``BackgroundTaskSlot/holder``). The OS's side
/// only: what the app does at a launch or an expiration, and a watchdog kill's end of
/// the process, are carried out by the OS seam (OS/OSSeam.swift,
/// ``World/taskLaunchLooks(_:generation:)``).
extension WorldCore {
    /// Device `i`'s pending requests (iOS only).
    @inline(__always) func requests(_ i: Int) -> BGTaskRequests { bgTaskRequests[launchPolicySlot(i)] }

    /// `BGTaskScheduler.submit` of `work`'s request, of `kind` (a processing request with
    /// `requirements`): replaces that identifier's
    /// pending request; refused when Background App Refresh is off (the identifier's
    /// request goes) or when the other identifiers hold the kind's limit (nothing changes).
    mutating func submitBGTaskRequest(_ d: UInt32, _ work: WorkID, kind: BGTaskKind = .bgAppRefreshTask, requirements: AppLogic.WorkConstraints = [],
                                      earliestBegin: SimTime) {
        let i = Int(d), slot = launchPolicySlot(i), w = Int(work.rawValue)
        let scheduler = cohorts[Int(devices[i].cohort)].scheduler
        switch scheduler.submit(backgroundAppRefresh: devices[i].backgroundAppRefresh, kind: kind, othersPending: bgTaskRequests[slot].pending(kind, besides: work)) {
        case .unavailable:
            metrics.submitUnavailable += 1
            bgTaskRequests[slot].generations[w] = 0
            devices[i].task.pending.cancel()
            note(d, "OS: submit failed: unavailable (Background App Refresh off)")
        case .tooManyPendingTaskRequests:
            note(d, "OS: submit of \(work) failed: tooManyPendingTaskRequests")
        case .accepted:
            let generation = devices[i].task.pending.arm()
            bgTaskRequests[slot].generations[w] = generation
            bgTaskRequests[slot].classes[w] = RequestClass(kind, requirements: requirements)
            bgTaskRequests[slot].heldBack[w] = false
            scheduleFirstLook(d, earliestBegin: earliestBegin, generation: generation)
        }
    }

    /// `BGTaskScheduler.cancel(taskRequestWithIdentifier:)` of `work`'s: its pending
    /// request goes, the other identifiers' stay.
    mutating func cancelBGTaskRequest(_ d: UInt32, _ work: WorkID) {
        let i = Int(d)
        bgTaskRequests[launchPolicySlot(i)].generations[Int(work.rawValue)] = 0
        devices[i].task.pending.cancel()
    }

    /// Whether `generation` is a request still pending (its looks go on).
    @inline(__always) func bgTaskRequestPending(_ d: UInt32, generation: UInt32) -> Bool {
        let i = Int(d)
        return generation != 0 && bgTaskRequests[launchPolicySlot(i)].work(of: generation) != nil
    }

    /// A look of the system at the pending request `generation`: whether it is still
    /// pending and no task runs (one task at a time: the system tries again a little
    /// later), so the launch policy decides.
    mutating func taskRequestAwaitsLaunch(_ d: UInt32, generation: UInt32) -> Bool {
        let i = Int(d)
        guard bgTaskRequestPending(d, generation: generation) else { return false }
        if devices[i].task.running {
            schedule(.taskLaunch(device: d, generation: generation), after: .minutes(1))
            return false
        }
        return true
    }

    /// The launch policy granted the pending request `generation`: it is no longer
    /// pending, its work holds the task about to begin, and the task's run time before
    /// its expiration is drawn.
    mutating func taskRequestGranted(_ d: UInt32, generation: UInt32) -> SimDuration {
        let i = Int(d), slot = launchPolicySlot(i)
        let scheduler = cohorts[Int(devices[i].cohort)].scheduler
        if let work = bgTaskRequests[slot].work(of: generation) {
            bgTaskRequests[slot].generations[Int(work.rawValue)] = 0
            devices[i].task.holder = work.rawValue
        }
        return withStream(.os, of: i) { scheduler.runTimeBeforeExpiration(rng: &$0) }
    }

    /// The task just begun expires `runTime` from now.
    mutating func scheduleTaskExpiry(_ d: UInt32, after runTime: SimDuration) {
        let i = Int(d)
        devices[i].timerEntries.expiry = scheduleRetractably(.taskExpires(device: d, serial: devices[i].task.serial), at: now + runTime)
        note(d) { c in "OS: BGAppRefreshTask \(c.devices[i].task.serial) launched, expires in \(c.human(runTime))" }
    }

    /// The task's expiration (the OS seam's `taskDeadline` checked it still runs),
    /// counted; the expiration handler runs next.
    mutating func bgAppRefreshTaskExpires(_ d: UInt32, serial: UInt32) {
        let i = Int(d)
        metrics.expirations += 1
        if now - devices[i].task.launchedAt < cohorts[Int(devices[i].cohort)].scheduler.runLimit { metrics.earlyExpirations += 1 }
        note(d, "OS: task \(serial) expires; expiration handler runs")
    }

    /// After the expiration handler: the watchdog waits for the completion.
    mutating func armWatchdog(_ d: UInt32, serial: UInt32) {
        let i = Int(d)
        guard devices[i].task.running, devices[i].task.serial == serial else { return }
        schedule(.taskWatchdog(device: d, serial: serial), after: cohorts[Int(devices[i].cohort)].scheduler.watchdogGrace)
    }

    /// The watchdog's grace after an expiration ran out: whether task `serial` still
    /// runs, so the watchdog kills the app (counted).
    mutating func watchdogKills(_ d: UInt32, serial: UInt32) -> Bool {
        let i = Int(d)
        guard devices[i].task.serial == serial, devices[i].task.running else { return false }
        metrics.watchdogKills += 1
        return true
    }
}
