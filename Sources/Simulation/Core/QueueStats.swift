import SimKernel
import AppLogic

/// How a run uses its event queue, measured only when asked (``World/measuresQueue``):
/// pending entries at each pop (peak and mean) and how many popped entries were
/// superseded, that is stale (a timer re-armed or cancelled, a task or job moved on, a
/// process restarted) and so a no-op. It never touches the run: report.json is the
/// same with or without it. The figures are in docs/performance.md#the-pending-event-set.
public struct QueueStats: Sendable, Equatable {
    public var pops: UInt64 = 0
    public var pendingSum: UInt64 = 0
    public var peakPending = 0
    public var superseded: UInt64 = 0

    public var meanPending: Double { pops == 0 ? 0 : Double(pendingSum) / Double(pops) }
    public var supersededShare: Double { pops == 0 ? 0 : Double(superseded) / Double(pops) }

    /// One popped event, with the entries still pending after the pop.
    mutating func record(pendingAfterPop pending: Int, superseded stale: Bool) {
        pops &+= 1
        // The popped entry was pending too.
        let before = pending + 1
        pendingSum &+= UInt64(before)
        if before > peakPending { peakPending = before }
        if stale { superseded &+= 1 }
    }
}

extension WorldEvent {
    /// Whether this event is stale in `world`: its generation, serial or incarnation guard
    /// will drop it (the first guard of its handler, read before the handler runs).
    /// Read for every popped event (the event hashes skip stale ones) and for ``QueueStats``.
    /// Inlined on purpose: not inlined, passing the world from a mutating method of
    /// `World` copies the whole `World` (3.7 KB), twice per event before.
    @inline(__always) func isSuperseded<Logics: LogicSet>(in world: World<Logics>) -> Bool {
        switch self {
        case .foregroundSessionEnds(let d, let incarnation):
            let i = Int(d)
            return !(world.core.devices[i].incarnation == incarnation && world.core.devices[i].process == .running && world.core.now >= world.core.devices[i].foregroundUntil)
        case .taskLaunch(let d, let generation):
            return !world.core.bgTaskRequestPending(d, generation: generation)
        case .taskExpires(let d, let serial), .taskWatchdog(let d, let serial):
            return !(world.core.devices[Int(d)].task.serial == serial && world.core.devices[Int(d)].task.running)
        case .suspendAfterTask(let d, let serial):
            return world.core.devices[Int(d)].task.serial != serial
        case .deviceTimer(let d, let generation, let timer):
            return !world.core.isCurrent(d, timer, generation)
        case .keyValueFlush(let d, let generation):
            return !world.core.devices[Int(d)].keyValue.flush.isCurrent(generation)
        case .requestReachesServer(let job, let generation), .serviceCompletes(let job, let generation),
             .responseReachesDevice(let job, let generation):
            return world.core.jobs[Int(job)].generation != generation
        case .requestTimesOut(let job, let generation):
            return world.core.jobs[Int(job)].generation != generation || world.core.jobs[Int(job)].clientDone
        case .feature(let e):
            return world.featureEventIsSuperseded(e)
        case .android(let e):
            switch e {
            case .screenOff(let d, let generation):
                let screen = world.android.devices[world.androidIndex(d)].screen
                return !(screen.isOn && screen.offTimer.isCurrent(generation))
            case .timer(let d, let generation, let timer): return !world.android.devices[world.androidIndex(d)].timers.isCurrent(timer, generation)
            case .jobStops(let d, let serial, let work):
                let a = world.androidIndex(d)
                return !(world.android.devices[a].runsJob(work) && world.android.devices[a].jobSerials[Int(work.rawValue)] == serial)
            case .screenSessionStarts, .motion: return false
            }
        case .userOpensApp, .notificationTapped, .offlineSpellStarts, .offlineSpellEnds, .faultStarts,
             .faultEnds, .jetsam, .batterySwitch:
            return false
        }
    }
}
