import SimKernel

/// Prefetching the next event's state (docs/speed.md, "Session 7: the device state's
/// cache and TLB misses" and "Session 11: fewer lines per event"). A large fleet's per-device state is far bigger than the
/// cache, and each event reads one device chosen by the clock, so nearly every event
/// began with a wait on memory: its `Device`, its event hash, its `AndroidDevice`, the
/// feature's arrays. While an event runs, the next one is already known (the top of the
/// near heap), so its state is asked for now and is in the cache when it starts. A hint
/// only: a prefetch changes no value, and a wrong guess (an event scheduled in between)
/// costs a few wasted loads.
extension World {
    /// The local device `event` will work on, or nil (fleet-wide events, and feature events
    /// that name a slot or message rather than a device).
    @inline(__always) func prefetchDevice(_ event: WorldEvent) -> UInt32? {
        switch event {
        case .userOpensApp(let d), .notificationTapped(let d),
             .offlineSpellStarts(let d), .offlineSpellEnds(let d), .batterySwitch(let d):
            return d
        case .foregroundSessionEnds(let d, _), .taskLaunch(let d, _), .taskExpires(let d, _),
             .taskWatchdog(let d, _), .suspendAfterTask(let d, _), .keyValueFlush(let d, _):
            return d
        case .jetsam(let d, _): return d
        case .deviceTimer(let d, _, _): return d
        case .requestReachesServer(let job, _), .serviceCompletes(let job, _), .responseReachesDevice(let job, _),
             .requestTimesOut(let job, _):
            return core.jobs[Int(job)].device
        case .faultStarts, .faultEnds: return nil
        case .android(let e):
            switch e {
            case .screenSessionStarts(let d), .motion(let d): return d
            case .screenOff(let d, _), .jobStops(let d, _, _): return d
            case .timer(let d, _, _): return d
            }
        case .feature(let e): return featureEventDevice(e)
        }
    }

    /// Starts loading the state the next event will read first: the lines of its device's
    /// `Device` (the event hash first among them) and, on Android, `AndroidDevice` that its kind reads
    /// (measured per kind: docs/speed.md, "Session 11: fewer lines per event"). Most
    /// kinds read only the `Device`'s hot part (``Device/hotBytes``); a request on the
    /// server reads one stream of it, or its clock and time zone, and no Android state;
    /// the end of a wake or a task reads one flag of the Android state. Every line
    /// asked for and not read takes a place among the misses the core tracks at once,
    /// which the lines the next events need wait for; so the features' per-device
    /// entries are asked for only by the kinds that read them: a background launch's,
    /// a wake's end and a work run's for their features; for a request, the token and
    /// what its owner's backend reads for the server's answer, and every host's request
    /// slot and the owner's state for the answer; every feature's for an open
    /// (docs/speed.md, "Session 14: the features' entries prefetched"); and the
    /// features' that hear a session's end (Session 15). Features/Features.swift lists
    /// what each feature reads.
    @inline(__always) mutating func prefetchState(of event: WorldEvent) {
        switch event {
        case .requestReachesServer(let job, _):
            let i = Int(core.jobs[Int(job)].device)
            core.devices.prefetch(i, bytes: Device.eventHashBytes)
            core.devices.prefetch(i, bytes: Device.backendStreamBytes)
        case .serviceCompletes(let job, _):
            let j = Int(job)
            let i = Int(core.jobs[j].device)
            core.devices.prefetch(i, bytes: Device.eventHashBytes.lowerBound ..< Device.answerBytes.upperBound)
            tokens.prefetch(user: i)
            prefetchServing(job, user: i)
        case .responseReachesDevice(let job, _), .requestTimesOut(let job, _):
            let j = Int(job)
            let d = core.jobs[j].device
            let indices = prefetch(d, device: Device.wholeBytes, android: AndroidDevice.wholeBytes)
            prefetchAnswer(job, user: Int(d), android: indices.android)
        case .feature(let e):
            prefetchState(of: e)
        case .android(.timer(let d, _, .stepWork)):
            let indices = prefetch(d, device: Device.wholeBytes, android: AndroidDevice.wholeBytes)
            prefetchStepSync(Int(d), android: indices.android)
        case .taskLaunch(let d, _):
            let i = Int(d)
            let indices = prefetch(d, device: Device.wholeBytes, android: AndroidDevice.wholeBytes)
            prefetchLaunchPolicy(indices.launchPolicy)
            prefetchRefresh(i)
            prefetchStepSync(i, android: indices.android)
        case .android(.timer(let d, _, .refreshWork)):
            prefetch(d, device: Device.wholeBytes, android: AndroidDevice.wholeBytes)
            prefetchRefresh(Int(d))
        case .deviceTimer(let d, _, .stepWake), .suspendAfterTask(let d, _):
            prefetch(d, device: Device.hotBytes, android: AndroidDevice.stepJobBytes)
            features.stepSync.slots.prefetch(Int(d))
        case .foregroundSessionEnds(let d, _):
            prefetch(d, device: Device.wholeBytes, android: AndroidDevice.stepJobBytes)
            prefetchLeavingForeground(Int(d))
        case .userOpensApp(let d), .notificationTapped(let d):
            let indices = prefetch(d, device: Device.wholeBytes, android: AndroidDevice.wholeBytes)
            prefetchLaunchPolicy(indices.launchPolicy)
            prefetchOpening(Int(d), android: indices.android)
        case .deviceTimer(let d, _, .staleNotification):
            prefetch(d, device: Device.hotBytes, android: AndroidDevice.wholeBytes)
            core.staleTriggers.prefetch(Int(d))
        case .offlineSpellStarts(let d), .offlineSpellEnds(let d),
             .taskExpires(let d, _), .taskWatchdog(let d, _), .keyValueFlush(let d, _),
             .jetsam(let d, _), .deviceTimer(let d, _, .hardStop):
            prefetch(d, device: Device.wholeBytes, android: AndroidDevice.wholeBytes)
        default:
            guard let d = prefetchDevice(event) else { return }
            prefetch(d, device: Device.hotBytes, android: AndroidDevice.wholeBytes)
        }
    }

    /// Device `i`'s step-sync state, bookkeeping and stream position, its stale-sync
    /// notification's trigger, which every successful sync re-arms (Core/DeferredTimer),
    /// and on Android where its step job's stop deadline went, which a job's start writes
    /// and its end reads.
    @inline(__always) mutating func prefetchStepSync(_ i: Int, android a: Int) {
        features.stepSync.states.prefetch(i)
        features.stepSync.slots.prefetch(i)
        features.stepSync.streams.prefetch(i)
        core.staleTriggers.prefetch(i)
        if a >= 0 { android.jobStops.prefetch(a) }
    }

    /// The launch-policy state at `slot` (none when -1), which a refresh launch and an
    /// open read on iOS; the slot from the runs, not from the `Device` being fetched.
    @inline(__always) mutating func prefetchLaunchPolicy(_ slot: Int) {
        if slot >= 0 { core.launchPolicies.prefetch(slot) }
    }

    /// Device `i`'s refresh state, its request in flight and the refresh oracle's truth
    /// (a launch, an open and a history response each read it).
    @inline(__always) mutating func prefetchRefresh(_ i: Int) {
        features.refresh.states.prefetch(i)
        features.refresh.slots.prefetch(i)
        core.oracle.refresh.prefetch(i)
    }

    /// The `device` bytes of device `d`'s `Device` and, on Android, the `android` bytes of
    /// its `AndroidDevice`; returns the device's indices from the runs, for the callers'
    /// own prefetches. `mutating` though it only reads: called
    /// non-mutating from the mutating ``prefetchState(of:)``, it copied the whole `World`
    /// (3.8 KB) at each call.
    @inline(__always) @discardableResult
    mutating func prefetch(_ d: UInt32, device: Range<Int>, android: Range<Int>) -> (android: Int, launchPolicy: Int) {
        let i = Int(d)
        // The Android index from the runs, not from the `Device` being asked for: nothing
        // here waits on memory, so every line is asked for at once.
        let indices = indexRuns.indices(of: i)
        core.devices.prefetch(i, bytes: device)
        if indices.android >= 0 { self.android.devices.prefetch(indices.android, bytes: android) }
        return indices
    }
}

extension Device {
    /// All of it.
    static var wholeBytes: Range<Int> { 0 ..< MemoryLayout<Device>.stride }
    /// The hot part: every field before `pendingFlush` (``DeviceLayoutTests`` checks the offsets).
    static var hotBytes: Range<Int> { 0 ..< 156 }
    /// `eventHash`, which every delivered event of the device writes.
    static var eventHashBytes: Range<Int> { 0 ..< 8 }
    /// From `clock` through `homeTimeZone`: what the server's answer reads of the device.
    static var answerBytes: Range<Int> { 16 ..< 84 }
    /// `streams.backend`: what a request's arrival at the server reads of the device.
    static var backendStreamBytes: Range<Int> { 276 ..< 280 }
}

extension AndroidDevice {
    /// All of it.
    static var wholeBytes: Range<Int> { 0 ..< MemoryLayout<AndroidDevice>.stride }
    /// `jobsRunning`: what the end of a wake or a task reads of the Android state.
    static var stepJobBytes: Range<Int> { 97 ..< 98 }
}
