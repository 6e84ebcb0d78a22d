import SimKernel
import AppLogic
import Platform

/// Doze (docs/platform-facts.md section A; AOSP `DeviceIdleController`): its inputs
/// (screen, charging, motion, network, a high-priority message, Quick Doze) and what a
/// transition releases (World+Android hands the released work and messages on).
///
/// **Lazy steps.** A Doze step changes the world only when something waits on it: due
/// work (any declared ``WorkID``), FCM messages held for the phone, or a while-idle alarm
/// held by deep idle. While nothing waits, Doze's steps get no events: they run, each at
/// its own deadline (``DozeController/advance(_:through:into:)``), the next time the
/// world feeds or reads Doze (``settleDoze(_:before:core:)``), and at the end of every
/// ``World/run(until:)``. The report's figures are those of one event per step; only
/// `simulated.events` and the event hashes move (docs/android.md, "Lazy Doze steps").
/// The traced device, and every device when ``lazyDoze`` is off, steps eagerly.
extension AndroidHost {
    /// Feeds Doze one input, after the steps it owes (``settleDoze(_:before:core:)``);
    /// traces and counts the transitions, keeps its timer event current while something
    /// waits on it, and fires a held alarm when deep idle ends. Returns whether Doze
    /// stopped holding background work back with this input, so that due work may run
    /// and held FCM messages go (``World/applyDoze(_:_:)``).
    mutating func feedDoze(_ d: UInt32, _ input: DozeInput, core: inout WorldCore) -> Bool {
        let a = core.androidIndex(d)
        settleDoze(d, before: core.now, core: &core)
        let first = startDozeTransitions()
        let t = core.now
        borrowedModels(d, core.devices)._withUnsafeGuaranteedRef { $0.doze.handle(input, state: &devices[a].doze, now: t, into: &dozeTransitions) }
        let changed = dozeTransitions.count > first
        if changed { countDozeTransitions(d, from: first, core: &core) }
        // Whether anything waits is asked last: the timer is usually where it should be
        // already, and the question reads fields far into the device's Android state.
        // An owed screen-off or session asks too: a change (the network back with FCM
        // messages held) may have given Doze something to release.
        if dozeTimerAt(a) != dozeDeadline(a) || devices.withUnsafeBufferPointer({ !$0[a].owed.isDisjoint(with: .events) }), dozeWatched(d, a, core: &core) {
            armDozeTimer(d, a, core: &core)
            watchScreen(d, a, core: &core)
        }
        if changed, devices[a].alarmHeld, dozeDeep(a) != .idle { releaseHeldAlarm(d, core: &core) }
        return changed && !dozeRestricts(a)
    }

    /// Time zero: Doze as it stands on a phone whose `inputs` (the screen going off, and
    /// the charger or Quick Doze in force) happened at `since`, before the run. Its steps up
    /// to now follow from them and are not counted: they are the phone's history (at
    /// `since` = now they are the run's first, and count).
    mutating func startDoze(_ d: UInt32, _ inputs: [DozeInput], since: SimTime, core: inout WorldCore) {
        let a = core.androidIndex(d)
        let first = startDozeTransitions()
        let end = core.now
        borrowedModels(d, core.devices)._withUnsafeGuaranteedRef { m in
            for input in inputs { m.doze.handle(input, state: &devices[a].doze, now: since, into: &dozeTransitions) }
            if since < end { m.doze.advance(&devices[a].doze, through: end - .microseconds(1), into: &dozeTransitions) }
        }
        if since < end { dozeTransitions.removeSubrange(first...) } else if dozeTransitions.count > first { countDozeTransitions(d, from: first, core: &core) }
        if dozeWatched(d, a, core: &core) {
            armDozeTimer(d, a, core: &core)
            watchScreen(d, a, core: &core)
        }
    }

    /// Runs the Doze steps device `d` owes before `t`, each at its own deadline, and
    /// counts them. Nothing waited on them (or they would have run as events), so they
    /// release nothing. A step due at `t` itself is left to its event or, with none, to
    /// the next look, as an event scheduled earlier at that instant goes first.
    /// An owed screen-off before `t` is settled first, at its own instant (AndroidHost+Screen).
    @inline(__always) mutating func settleDoze(_ d: UInt32, before t: SimTime, core: inout WorldCore) {
        let a = core.androidIndex(d)
        settleScreen(d, a, before: t, core: &core)
        settleDozeSteps(d, a, before: t, core: &core)
    }

    /// The Doze steps device `d` (Android device `a`) owes before `t`.
    @inline(__always) mutating func settleDozeSteps(_ d: UInt32, _ a: Int, before t: SimTime, core: inout WorldCore) {
        guard let due = dozeDeadline(a), due < t else { return }
        let first = startDozeTransitions()
        borrowedModels(d, core.devices)._withUnsafeGuaranteedRef { $0.doze.advance(&devices[a].doze, through: t - .microseconds(1), into: &dozeTransitions) }
        countDozeTransitions(d, from: first, core: &core)
    }

    /// Where the next input's transitions will start in the reused buffer: they are
    /// appended after the earlier inputs', and the buffer is emptied only once it holds
    /// 64 (`removeAll(keepingCapacity:)` at every input cost about 80 instructions).
    @inline(__always) mutating func startDozeTransitions() -> Int {
        if dozeTransitions.count >= 64 { dozeTransitions.removeAll(keepingCapacity: true) }
        return dozeTransitions.count
    }

    // Android device `a`'s Doze figures, read in place: `devices[a].doze.x` copies the
    // whole state (about 200 bytes) first, as the device's timer table (an `InlineArray`)
    // keeps the optimiser from projecting one field of an array element.
    @inline(__always) func dozeDeadline(_ a: Int) -> SimTime? { devices.withUnsafeBufferPointer { $0[a].doze.nextDeadline } }
    /// The deadline the pending Doze timer event was scheduled for.
    @inline(__always) func dozeTimerAt(_ a: Int) -> SimTime? { devices.withUnsafeBufferPointer { $0[a].dozeTimerAt } }
    @inline(__always) func dozeDeep(_ a: Int) -> DozeDeepState { devices.withUnsafeBufferPointer { $0[a].doze.deep } }
    @inline(__always) func dozeRestricts(_ a: Int) -> Bool { devices.withUnsafeBufferPointer { $0[a].doze.restrictsBackgroundWork } }
    /// Doze holds background work back and the app is not temp-allow-listed at `t`.
    @inline(__always) func dozeHoldsWork(_ a: Int, at t: SimTime) -> Bool {
        devices.withUnsafeBufferPointer { $0[a].doze.restrictsBackgroundWork && !$0[a].doze.isAllowListed(at: t) }
    }

    /// Device `d`'s Doze state now.
    @inline(__always) mutating func dozeNow(_ d: UInt32, core: inout WorldCore) -> DozeState {
        settleDoze(d, before: core.now, core: &core)
        return devices[core.androidIndex(d)].doze
    }

    /// Something now waits on Doze's next step (work deferred, an FCM message or an
    /// alarm held): it runs as an event at its deadline.
    /// An owed screen-off becomes an event too (``watchScreen(_:_:core:)``).
    @inline(__always) mutating func watchDoze(_ d: UInt32, core: inout WorldCore) {
        let a = core.androidIndex(d)
        armDozeTimer(d, a, core: &core)
        watchScreen(d, a, core: &core)
    }

    /// The steps every Android device owes before `t`, at the end of ``World/run(until:)``,
    /// so the report counts them.
    mutating func settleDoze(before t: SimTime, core: inout WorldCore) {
        for d in core.devices.indices where core.devices[d].isAndroid { settleDoze(UInt32(d), before: t, core: &core) }
    }

    /// The report's Doze counts and the trace, for the transitions in `dozeTransitions`
    /// from `first` on.
    mutating func countDozeTransitions(_ d: UInt32, from first: Int, core: inout WorldCore) {
        // By index: iterating a slice retained and released the buffer.
        for k in first..<dozeTransitions.count {
            switch dozeTransitions[k] {
            case .deep(let state):
                if state == .idle { core.metrics.platform.dozeDeepIdleEntries += 1 }
                if state == .idleMaintenance { core.metrics.platform.dozeMaintenanceWindows += 1 }
                core.note(d, "Doze: deep \(state)")
            case .light(let state):
                if state == .idleMaintenance { core.metrics.platform.dozeMaintenanceWindows += 1 }
                core.note(d, "Doze: light \(state)")
            }
        }
    }

    /// Whether anything waits on Doze's next step, so that it must run at its deadline:
    /// a while-idle alarm held by deep idle, FCM messages held for a reachable app, or a
    /// declared work due that is neither running nor force-stopped nor held by Battery
    /// Saver (what ``World/applyDoze(_:_:)`` releases).
    /// The traced device always steps at its deadlines, so its story reads as it happens.
    /// Its flags are read in place, as in ``workDueAt(_:_:_:core:)``. `mutating` though it
    /// only reads, as are ``workIsDue(_:_:_:core:)`` and ``workDueAt(_:_:_:core:)``: the
    /// optimiser keeps it a call, and a non-mutating call from a mutating one copied the
    /// whole `World` (3,840 bytes) to pass it when these were the world's.
    @inline(__always) mutating func dozeWatched(_ d: UInt32, _ a: Int, core: inout WorldCore) -> Bool {
        if !lazyDoze || core.traceRecorder?.device == Int(d) { return true }
        let (alarmHeld, forceStopped, fcmWaiting) = devices.withUnsafeBufferPointer { ($0[a].alarmHeld, $0[a].forceStopped, $0[a].fcmWaiting) }
        if alarmHeld { return true }
        if forceStopped { return false }
        let (online, batterySaver) = core.devices.withUnsafeBufferPointer { ($0[Int(d)].online, $0[Int(d)].lowPowerMode) }
        if fcmWaiting && online { return true }
        // Battery Saver holds due work whatever Doze does (``batterySaverHoldsWork(_:core:)``).
        if batterySaver { return false }
        var raw: UInt8 = 0
        while let work = WorkID(rawValue: raw) {
            if workIsDue(d, a, work, core: &core) { return true }
            raw += 1
        }
        return false
    }

    /// The work is enqueued, not running and due: what ``World/tryRunWork(_:_:)`` looks for.
    @inline(__always) mutating func workIsDue(_ d: UInt32, _ a: Int, _ work: WorkID, core: inout WorldCore) -> Bool {
        guard let due = workDueAt(d, a, work, core: &core) else { return false }
        return due <= core.now
    }

    /// Schedules Doze's timer event at its next deadline when not already there. An event
    /// already pending stays (it settles what is due when it pops).
    @inline(__always) mutating func armDozeTimer(_ d: UInt32, _ a: Int, core: inout WorldCore) {
        let next = dozeDeadline(a)
        guard next != dozeTimerAt(a) else { return }
        devices[a].dozeTimerAt = next
        let generation = devices[a].timers.arm(.doze)
        if let next { core.schedule(.android(.timer(device: d, generation: generation, timer: .doze)), at: max(next, core.now)) }
    }
}
