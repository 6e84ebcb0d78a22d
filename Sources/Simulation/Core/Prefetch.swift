import SimKernel

/// Prefetching the next event's state (docs/performance.md#prefetch and
/// docs/performance.md#state-grouped-by-event-kind). A large fleet's per-device state is far bigger than the
/// cache, and each event reads one device chosen by the clock, so nearly every event
/// began with a wait on memory: its `Device`, its event hash, its `AndroidDevice`, the
/// feature's arrays. While an event runs, the next one is already known (the top of the
/// near heap), so its state is asked for now and is in the cache when it starts. A hint
/// only: a prefetch changes no value, and a wrong guess (an event scheduled in between)
/// costs a few wasted loads.
extension WorldEvent {
    /// The local device this event will work on, or nil (fleet-wide events, and feature
    /// events that name a slot or message rather than a device).
    @inline(__always) func prefetchDevice<Logics: LogicSet>(in world: World<Logics>) -> UInt32? {
        switch self {
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
            return world.core.jobs[Int(job)].device
        case .faultStarts, .faultEnds: return nil
        case .android(let e):
            switch e {
            case .screenSessionStarts(let d), .motion(let d): return d
            case .screenOff(let d, _), .jobStops(let d, _, _): return d
            case .timer(let d, _, _): return d
            }
        case .feature(let e): return world.featureEventDevice(e)
        }
    }

    /// Starts loading the state this event will read first: the lines of its device's
    /// `Device` (the event hash first among them) and, on Android, `AndroidDevice` that its kind reads
    /// (measured per kind: docs/performance.md#state-grouped-by-event-kind). Most
    /// kinds read only the `Device`'s hot part (``Device/hotBytes``); a request on the
    /// server reads one stream of it, or its clock and time zone, and no Android state;
    /// the end of a wake or a task reads one flag of the Android state, and a screen
    /// session, motion, a screen-off or a Doze or bucket timer the Android state's first
    /// two parts (``AndroidDevice/screenAndDozeBytes``). Every line
    /// asked for and not read takes a place among the misses the core tracks at once,
    /// which the lines the next events need wait for; so the features' per-device
    /// entries are asked for only by the kinds that read them: a background launch's,
    /// a feature's timer and a work run's for their features; for a request, the token and
    /// what its owner's backend reads for the server's answer, and every host's request
    /// slot and the owner's state for the answer; every feature's for an open
    /// (docs/performance.md#prefetch); and the features' that hear a session's end.
    /// Features/Features.swift lists
    /// what each feature reads (its `prefetch...` fan-outs).
    @inline(__always) func prefetchState<Logics: LogicSet>(in world: inout World<Logics>) {
        switch self {
        case .requestReachesServer(let job, _):
            let i = Int(world.core.jobs[Int(job)].device)
            world.core.devices.prefetch(i, bytes: Device.eventHashBytes)
            world.core.devices.prefetch(i, bytes: Device.backendStreamBytes)
        case .serviceCompletes(let job, _):
            let j = Int(job)
            let i = Int(world.core.jobs[j].device)
            world.core.devices.prefetch(i, bytes: Device.eventHashBytes.lowerBound ..< Device.answerBytes.upperBound)
            world.tokens.prefetch(user: i)
            world.prefetchServing(job, user: i)
        case .responseReachesDevice(let job, _), .requestTimesOut(let job, _):
            let j = Int(job)
            let d = world.core.jobs[j].device
            let indices = Prefetch.device(d, device: Device.wholeBytes, android: AndroidDevice.wholeBytes, in: &world)
            world.prefetchAnswer(job, user: Int(d), android: indices.android)
        case .feature(let e):
            world.prefetchState(of: e)
        case .android(.timer(let d, _, .work(let work))):
            let indices = Prefetch.device(d, device: Device.wholeBytes, android: AndroidDevice.wholeBytes, in: &world)
            world.prefetchWorkRun(work, Int(d), android: indices.android)
        case .android(.timer(let d, _, .doze)), .android(.timer(let d, _, .bucket)),
             .android(.screenSessionStarts(let d)), .android(.motion(let d)), .android(.screenOff(let d, _)):
            Prefetch.device(d, device: Device.hotBytes, android: AndroidDevice.screenAndDozeBytes, in: &world)
        case .android(.timer(let d, _, _)):
            Prefetch.device(d, device: Device.hotBytes, android: AndroidDevice.wholeBytes, in: &world)
        case .taskLaunch(let d, _):
            let indices = Prefetch.device(d, device: Device.wholeBytes, android: AndroidDevice.wholeBytes, in: &world)
            Prefetch.launchPolicy(indices.launchPolicy, in: &world)
            world.prefetchTaskLaunch(Int(d), android: indices.android)
        case .deviceTimer(let d, _, let timer):
            world.prefetchTimer(d, timer)
        case .suspendAfterTask(let d, _):
            Prefetch.device(d, device: Device.hotBytes, android: AndroidDevice.stepJobBytes, in: &world)
            world.prefetchHoldsProcess(Int(d))
        case .foregroundSessionEnds(let d, _):
            Prefetch.device(d, device: Device.wholeBytes, android: AndroidDevice.stepJobBytes, in: &world)
            world.prefetchLeavingForeground(Int(d))
        case .userOpensApp(let d), .notificationTapped(let d):
            let indices = Prefetch.device(d, device: Device.wholeBytes, android: AndroidDevice.wholeBytes, in: &world)
            Prefetch.launchPolicy(indices.launchPolicy, in: &world)
            world.prefetchOpening(Int(d), android: indices.android)
        case .offlineSpellStarts(let d), .offlineSpellEnds(let d),
             .taskExpires(let d, _), .taskWatchdog(let d, _), .keyValueFlush(let d, _),
             .jetsam(let d, _):
            Prefetch.device(d, device: Device.wholeBytes, android: AndroidDevice.wholeBytes, in: &world)
        default:
            guard let d = prefetchDevice(in: world) else { return }
            Prefetch.device(d, device: Device.hotBytes, android: AndroidDevice.wholeBytes, in: &world)
        }
    }
}

/// The core's prefetches of one device, for the event kinds above and the features' own
/// (Features/Features.swift).
enum Prefetch {
    /// The launch-policy state and the pending task requests at `slot` (none when -1),
    /// which a task launch and an open read on iOS; the slot from the runs, not from the `Device` being fetched.
    @inline(__always) static func launchPolicy<Logics: LogicSet>(_ slot: Int, in world: inout World<Logics>) {
        if slot >= 0 {
            world.core.launchPolicies.prefetch(slot)
            world.core.bgTaskRequests.prefetch(slot)
        }
    }

    /// The `device` bytes of device `d`'s `Device` and, on Android, the `android` bytes of
    /// its `AndroidDevice`; returns the device's indices from the runs, for the callers'
    /// own prefetches. The world `inout` though it only reads: passed by value from a
    /// mutating method, it copied the whole `World` (3.8 KB) at each call.
    @inline(__always) @discardableResult
    static func device<Logics: LogicSet>(_ d: UInt32, device: Range<Int>, android: Range<Int>, in world: inout World<Logics>) -> (android: Int, launchPolicy: Int) {
        let i = Int(d)
        // The Android index from the runs, not from the `Device` being asked for: nothing
        // here waits on memory, so every line is asked for at once.
        let indices = world.indexRuns.indices(of: i)
        world.core.devices.prefetch(i, bytes: device)
        if indices.android >= 0 { world.android.devices.prefetch(indices.android, bytes: android) }
        return indices
    }
}

extension Prefetch {
    /// The bytes field `path` takes in a `T`: its offset and its size, from the compiler's
    /// layout (folded to constants in an optimised build), so that a field moved, resized
    /// or added before it moves the range with it.
    @inline(__always) static func bytes<T, V>(of path: KeyPath<T, V>) -> Range<Int> {
        let start = MemoryLayout<T>.offset(of: path)!
        return start ..< start + MemoryLayout<V>.size
    }

    /// The bytes of a `T` from its start up to field `path`, which is not included.
    @inline(__always) static func bytes<T, V>(before path: KeyPath<T, V>) -> Range<Int> {
        0 ..< MemoryLayout<T>.offset(of: path)!
    }
}

// The parts of a device the prefetches ask for, each named by the fields that bound it
// (docs/performance.md#state-grouped-by-event-kind). ``DeviceLayoutTests`` checks that
// what each event kind reads lies in the part its prefetch asks for.
extension Device {
    /// All of it.
    static var wholeBytes: Range<Int> { 0 ..< MemoryLayout<Device>.stride }
    /// The hot part: every field before `pendingFlush`.
    static var hotBytes: Range<Int> { Prefetch.bytes(before: \Device.pendingFlush) }
    /// `eventHash`, which every delivered event of the device writes.
    static var eventHashBytes: Range<Int> { Prefetch.bytes(of: \Device.eventHash) }
    /// From `clock` through `homeTimeZone`: what the server's answer reads of the device.
    static var answerBytes: Range<Int> {
        Prefetch.bytes(of: \Device.clock).lowerBound ..< Prefetch.bytes(of: \Device.homeTimeZone).upperBound
    }
    /// `streams.backend`: what a request's arrival at the server reads of the device.
    static var backendStreamBytes: Range<Int> { Prefetch.bytes(of: \Device.streams.backend) }
}

extension AndroidDevice {
    /// All of it.
    static var wholeBytes: Range<Int> { 0 ..< MemoryLayout<AndroidDevice>.stride }
    /// `jobsRunning`: what the end of a wake or a task reads of the Android state.
    static var stepJobBytes: Range<Int> { Prefetch.bytes(of: \AndroidDevice.jobsRunning) }
    /// Everything before the jobs' part (`jobSerials` on): what a screen session, a
    /// screen-off, motion and a Doze or bucket timer read (the session's and bucket's
    /// fields, then what every Doze input reads).
    static var screenAndDozeBytes: Range<Int> { Prefetch.bytes(before: \AndroidDevice.jobSerials) }
}
