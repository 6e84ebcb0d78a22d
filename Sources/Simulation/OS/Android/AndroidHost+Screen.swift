import SimKernel
import AppLogic
import Platform

/// The screen on Android: the user's screen sessions and the phone's significant motion
/// (their own streams), what a session and a screen-off tell App Standby and Doze, and
/// the screen-offs nothing waits on, settled lazily.
extension AndroidHost {
    /// A posted notification is seen: WORKING_SET for 12 h (`docs/platform-facts.md` B).
    mutating func notificationSeen(_ d: UInt32, core: inout WorldCore) {
        settleScreen(d, core.androidIndex(d), before: core.now, core: &core)
        core.androidModels(d).buckets.notificationSeen(state: &devices[core.androidIndex(d)].bucket, now: core.now)
        checkBucket(d, core: &core)
        armBucketTimer(d, core: &core)
    }

    /// A screen session of `length` starts now (the user, or the app opened). Returns
    /// whether it turned the screen on, so that Doze hears it (``World/screenSession(_:length:)``).
    mutating func screenSession(_ d: UInt32, length: SimDuration, core: inout WorldCore) -> Bool {
        let a = core.androidIndex(d)
        settleScreen(d, a, before: core.now, core: &core)
        switch devices[a].screen.sessionStarts(now: core.now, length: length) {
        case .turnedOn(let offAt, let generation):
            core.note(d, "OS: screen on")
            devices[a].timers.cancel(.oemKill)
            let t = core.now
            borrowedModels(d, core.devices)._withUnsafeGuaranteedRef { $0.buckets.screen(on: true, state: &devices[a].bucket, now: t) }
            scheduleScreenOff(d, a, at: offAt, generation: generation, core: &core)
            return true
        case .extended(let offAt, let generation):
            scheduleScreenOff(d, a, at: offAt, generation: generation, core: &core)
        case .unchanged:
            break
        }
        return false
    }

    /// The screen-off event `generation`: whether it is current; if so the screen is off
    /// and App Standby heard it (Doze hears it next, then ``screenWentOff(_:core:)``).
    mutating func screenOff(_ d: UInt32, generation: UInt32, core: inout WorldCore) -> Bool {
        let a = core.androidIndex(d)
        guard devices[a].screen.offTimerFires(generation: generation) else { return false }
        core.note(d, "OS: screen off")
        let t = core.now
        borrowedModels(d, core.devices)._withUnsafeGuaranteedRef { $0.buckets.screen(on: false, state: &devices[a].bucket, now: t) }
        return true
    }

    /// After Doze heard the screen go off: the manufacturer's policy arms its force-stop,
    /// and the bucket is checked and its timer armed.
    mutating func screenWentOff(_ d: UInt32, core: inout WorldCore) {
        armOEMKill(d, core: &core)
        checkBucket(d, core: &core)
        armBucketTimer(d, core: &core)
    }

    // MARK: - Lazy screen sessions and screen-offs

    // A screen-off changes only the device's Android state (the screen, the bucket's
    // screen-on clock, Doze going INACTIVE, the bucket's check and timer) unless
    // something waits on Doze, whose change may then release it (``dozeWatched(_:_:core:)``:
    // due work, FCM messages held, a while-idle alarm held; and always for the traced
    // device), or a manufacturer's policy arms its force-stop from it. Otherwise it gets
    // no event: it is owed, and settled at its own instant when the device's Android
    // state is next read or fed (``settleDoze(_:before:core:)``, the bucket, a timer, a
    // session, an FCM route) and at the end of every ``World/run(until:)``, and so are the
    // bucket checks it moves (``AndroidOwed/bucketCheck``): settling schedules nothing.
    // Something that starts waiting while it is owed gives it its event back
    // (``watchScreen(_:_:core:)``). docs/android.md, "Lazy screen-offs".
    //
    // The user's screen sessions likewise: a session turns the screen on (the bucket's
    // clock, Doze back to ACTIVE) and draws the next one; what that releases nothing
    // waits for. So while nothing waits, the next session is owed (``AndroidOwed/session``,
    // its start in ``AndroidDevice/nextSessionAt``) and settled at its instant with the
    // rest, drawing the one after it from the phone's screen stream as its event would
    // have. docs/android.md, "Lazy screen sessions".

    /// The screen-off at `offAt` (`generation`): an event, or owed when nothing waits.
    @inline(__always) mutating func scheduleScreenOff(_ d: UInt32, _ a: Int, at offAt: SimTime, generation: UInt32, core: inout WorldCore) {
        if lazyScreenOffs, borrowedModels(d, core.devices)._withUnsafeGuaranteedRef({ $0.oem == .stock }), !dozeWatched(d, a, core: &core) {
            devices[a].owed.insert(.screenOff)
        } else {
            devices[a].owed.remove(.screenOff)
            core.schedule(.android(.screenOff(device: d, generation: generation)), at: offAt)
            // A screen-off event reads the screen without settling: no session owed before it.
            giveBackSession(d, a, core: &core)
        }
    }

    /// Something now waits on Doze: an owed screen-off or session (in the future, as
    /// every look settles the past ones) becomes an event again, since Doze's change may
    /// release it.
    @inline(__always) mutating func watchScreen(_ d: UInt32, _ a: Int, core: inout WorldCore) {
        let owed = devices.withUnsafeBufferPointer { $0[a].owed }
        guard !owed.isDisjoint(with: .events) else { return }
        if owed.contains(.screenOff) {
            devices[a].owed.remove(.screenOff)
            core.schedule(.android(.screenOff(device: d, generation: devices[a].screen.offTimer.current)), at: devices[a].screen.onUntil)
        }
        giveBackSession(d, a, core: &core)
    }

    /// An owed session becomes an event again.
    @inline(__always) mutating func giveBackSession(_ d: UInt32, _ a: Int, core: inout WorldCore) {
        guard devices.withUnsafeBufferPointer({ $0[a].owed.contains(.session) }), let at = devices[a].nextSessionAt else { return }
        devices[a].owed.remove(.session)
        devices[a].nextSessionAt = nil
        core.schedule(.android(.screenSessionStarts(device: d)), at: at)
    }

    /// Settles what device `d` owes before `t`: its sessions, each after what was owed
    /// before it, then its screen-off and the bucket checks after it. One due at `t`
    /// itself is left to the next look, as an event scheduled earlier at that instant
    /// goes first (and the screen-off's and the next session's were scheduled when the
    /// session started).
    @inline(__always) mutating func settleScreen(_ d: UInt32, _ a: Int, before t: SimTime, core: inout WorldCore) {
        guard devices.withUnsafeBufferPointer({ $0[a].owed.rawValue != 0 }) else { return }
        settleOwed(d, a, before: t, core: &core)
    }

    mutating func settleOwed(_ d: UInt32, _ a: Int, before t: SimTime, core: inout WorldCore) {
        // Each owed session in turn, after what it owes before its own instant (as its
        // event would: a session's handler settles first), then what is owed before `t`.
        while devices[a].owed.contains(.session), let s = devices[a].nextSessionAt, s < t {
            settleScreenOffAndChecks(d, a, before: s, core: &core)
            sessionSettles(d, a, at: s, core: &core)
        }
        settleScreenOffAndChecks(d, a, before: t, core: &core)
    }

    /// The owed screen-off before `t`, then the bucket checks owed before `t`.
    private mutating func settleScreenOffAndChecks(_ d: UInt32, _ a: Int, before t: SimTime, core: inout WorldCore) {
        if devices[a].owed.contains(.screenOff), devices[a].screen.onUntil < t { screenOffSettles(d, a, core: &core) }
        while devices[a].owed.contains(.bucketCheck), let at = devices[a].bucketCheckAt, at < t {
            // The entry an eager world scheduled for `at` pops and finds its moment come.
            checkBucket(d, a, at: at, core: &core)
            owedBucketCheck(d, a, after: at, core: &core)
        }
    }

    /// The owed screen-off, at its own instant `off`: what the `.screenOff` event does
    /// when nothing waits. Doze's steps before it first, then the screen, the bucket's
    /// screen-on clock and Doze's input (its transitions counted; they release nothing),
    /// and the bucket's check and next moment.
    mutating func screenOffSettles(_ d: UInt32, _ a: Int, core: inout WorldCore) {
        let off = devices[a].screen.onUntil
        devices[a].owed.remove(.screenOff)
        settleDozeSteps(d, a, before: off, core: &core)
        _ = devices[a].screen.offTimerFires(generation: devices[a].screen.offTimer.current)
        let first = startDozeTransitions()
        borrowedModels(d, core.devices)._withUnsafeGuaranteedRef {
            $0.buckets.screen(on: false, state: &devices[a].bucket, now: off)
            $0.doze.handle(.screen(on: false), state: &devices[a].doze, now: off, into: &dozeTransitions)
        }
        countDozeTransitions(d, from: first, core: &core)
        checkBucket(d, a, at: off, core: &core)
        owedBucketCheck(d, a, after: off, core: &core)
    }

    /// The owed session, at its own instant `s`: what the `.screenSessionStarts` event
    /// does when nothing waits (``World/androidEvent(_:)``, ``screenSession(_:length:core:)``
    /// and Doze's screen input). Doze's steps before it first; its length and the next
    /// session's start drawn at `s`; the screen on (the bucket's screen-on clock, the
    /// manufacturer's kill cancelled) or kept on longer, its end owed; Doze told (its
    /// transitions counted; they release nothing); and the next session owed in turn.
    mutating func sessionSettles(_ d: UInt32, _ a: Int, at s: SimTime, core: inout WorldCore) {
        settleDozeSteps(d, a, before: s, core: &core)
        let (length, next) = drawScreenSession(d, length: true, at: s, core: &core)
        switch devices[a].screen.sessionStarts(now: s, length: length) {
        case .turnedOn:
            devices[a].timers.cancel(.oemKill)
            devices[a].owed.insert(.screenOff)
            let first = startDozeTransitions()
            borrowedModels(d, core.devices)._withUnsafeGuaranteedRef {
                $0.buckets.screen(on: true, state: &devices[a].bucket, now: s)
                $0.doze.handle(.screen(on: true), state: &devices[a].doze, now: s, into: &dozeTransitions)
            }
            countDozeTransitions(d, from: first, core: &core)
        case .extended:
            devices[a].owed.insert(.screenOff)
        case .unchanged:
            break
        }
        devices[a].nextSessionAt = next
        if next == nil { devices[a].owed.remove(.session) }
    }

    /// The bucket timer as an owed screen-off or bucket check at `t` arms it, without
    /// scheduling: the next moment the bucket can change; an entry at or before it
    /// stays (and it moves on when it pops); otherwise the moment is owed, and a later
    /// entry is superseded, as an eager world's new entry supersedes it.
    mutating func owedBucketCheck(_ d: UInt32, _ a: Int, after t: SimTime, core: inout WorldCore) {
        let at = borrowedModels(d, core.devices)._withUnsafeGuaranteedRef { $0.buckets.nextChange(devices[a].bucket, after: t) }
        devices[a].bucketCheckAt = at
        guard let at else {
            devices[a].owed.remove(.bucketCheck)
            return
        }
        if let entry = devices[a].bucketEntryAt, entry <= at { return }
        devices[a].bucketEntryAt = nil
        devices[a].timers.cancel(.bucket)
        devices[a].owed.insert(.bucketCheck)
    }

    // MARK: - The user's sessions and the phone's motion

    mutating func scheduleScreenSession(_ d: UInt32, core: inout WorldCore) {
        guard let at = drawScreenSession(d, length: false, at: core.now, core: &core).next else { return }
        scheduleNextSession(d, at: at, core: &core)
    }

    /// The next screen session at `at`: an event, or owed while nothing waits on Doze (as
    /// a screen-off is, ``scheduleScreenOff(_:_:at:generation:core:)``) and no screen-off
    /// event is pending (its handler reads the screen as it stands, so a session before
    /// it must have run).
    mutating func scheduleNextSession(_ d: UInt32, at: SimTime, core: inout WorldCore) {
        let a = core.androidIndex(d)
        let offEventPending = devices.withUnsafeBufferPointer { $0[a].screen.isOn && !$0[a].owed.contains(.screenOff) }
        if lazyScreenSessions, !offEventPending, borrowedModels(d, core.devices)._withUnsafeGuaranteedRef({ $0.oem == .stock }), !dozeWatched(d, a, core: &core) {
            devices[a].nextSessionAt = at
            devices[a].owed.insert(.session)
        } else {
            core.schedule(.android(.screenSessionStarts(device: d)), at: at)
        }
    }

    /// Draws, from the phone's screen stream, a session's length (when `length`; else
    /// zero, no draw) and then the next session's start after `now` (the session's start:
    /// an owed one's own instant), both from one rebuild of the stream: the session
    /// changes neither the clock nor the zone the next start is drawn on.
    @inline(__always) mutating func drawScreenSession(_ d: UInt32, length: Bool, at now: SimTime, core: inout WorldCore) -> (length: SimDuration, next: SimTime?) {
        let i = Int(d), a = core.androidIndex(d)
        let users = core.cohorts[Int(core.devices[i].cohort)].users
        let (zone, startUnixSeconds) = (Int(core.devices[i].clock.location), core.startUnixSeconds)
        return core.streams(of: i).withStream(.userScreen, at: &devices[a].screenStream) { rng in
            let sessionLength = length ? users.sessionLength(rng: &rng) : .zero
            return (sessionLength, users.nextScreenSession(after: now, rng: &rng, zone: &core.localZones[zone], startUnixSeconds: startUnixSeconds))
        }
    }

    /// **Assumption** (`android.motionEventsPerDay`): significant motion on the diurnal curve.
    mutating func scheduleMotion(_ d: UInt32, core: inout WorldCore) {
        let i = Int(d), a = core.androidIndex(d)
        let c = core.cohorts[Int(core.devices[i].cohort)]
        let (now, zone, startUnixSeconds) = (core.now, Int(core.devices[i].clock.location), core.startUnixSeconds)
        guard let at = core.streams(of: i).withStream(.userMotion, at: &devices[a].motionStream, {
            c.users.nextArrival(after: now, perDay: c.android!.motionEventsPerDay, rng: &$0, zone: &core.localZones[zone], startUnixSeconds: startUnixSeconds)
        }) else { return }
        core.schedule(.android(.motion(device: d)), at: at)
    }
}
