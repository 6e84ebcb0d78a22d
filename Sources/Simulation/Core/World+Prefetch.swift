import SimKernel

/// Prefetching the next event's state (docs/speed.md, "Session 7: the device state's
/// cache and TLB misses"). A large fleet's per-device state is far bigger than the
/// cache, and each event reads one device chosen by the clock, so nearly every event
/// began with a wait on memory: its `Device`, its event hash, its `AndroidDevice`, the
/// feature's arrays. While an event runs, the next one is already known (the top of the
/// near heap), so its state is asked for now and is in the cache when it starts. A hint
/// only: a prefetch changes no value, and a wrong guess (an event scheduled in between)
/// costs a few wasted loads.
extension World {
    /// The local device `event` will work on, or nil (fleet-wide events, and push events
    /// that name a slot or message rather than a device).
    @inline(__always) func prefetchDevice(_ event: WorldEvent) -> UInt32? {
        switch event {
        case .userOpensApp(let d), .notificationTapped(let d), .testCompleted(let d),
             .offlineSpellStarts(let d), .offlineSpellEnds(let d):
            return d
        case .foregroundSessionEnds(let d, _), .refreshLaunch(let d, _), .refreshExpires(let d, _),
             .refreshWatchdog(let d, _), .suspendAfterTask(let d, _), .keyValueFlush(let d, _),
             .continuationChoice(let d, _):
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
            case .screenOff(let d, _), .stepJobStops(let d, _): return d
            case .timer(let d, _, _): return d
            }
        case .push(let e):
            switch e {
            case .source(let d, _), .tokenLifecycle(let d, _): return d
            case .silentWaiting(let d): return d
            case .broadcast, .timer, .answer, .arrives: return nil
            }
        case .stepSync(let e):
            switch e {
            case .healthDelivery(let d), .batterySwitch(let d): return d
            }
        }
    }

    /// Starts loading the state the next event will read first: its device's `Device`,
    /// event hash and, on Android, `AndroidDevice`. (Adding the features' per-device
    /// entries measured no faster: more lines in flight than the core tracks at once.)
    @inline(__always) func prefetchState(of event: WorldEvent) {
        guard let d = prefetchDevice(event) else { return }
        let i = Int(d)
        core.devices.prefetch(i)
        eventHashes.devices.prefetch(i)
        let a = Int(androidOf[i])
        if a >= 0 { androids.prefetch(a) }
    }
}
