import SimKernel
import AppLogic
import Platform

/// The app's process: resume (cold start), suspend, terminate (in-memory state and
/// unpersisted writes lost), and persist (UserDefaults reaches the disk). The features
/// that react are listed in Features/Features.swift and nowhere else.
extension World {
    // MARK: - Process lifecycle

    /// The app runs (cold start if it was terminated); unpersisted writes get a flush.
    mutating func resume(_ d: UInt32) {
        let i = Int(d)
        if core.devices[i].process == .terminated { core.note(d, "app cold-starts") }
        core.devices[i].process = .running
        if core.devices[i].keyValue.dirty { core.armFlush(d) }
    }

    mutating func suspend(_ d: UInt32) {
        featuresHearSuspended(d)
        core.devices[Int(d)].process = .suspended
        core.note(d, "app suspended")
    }

    /// Abrupt termination: in-memory state and unpersisted writes are lost.
    mutating func terminate(_ d: UInt32) {
        let i = Int(d)
        if core.devices[i].keyValue.dirty { core.note(d, "UserDefaults: unpersisted writes lost") }
        core.devices[i].process = .terminated
        core.devices[i].incarnation &+= 1
        core.devices[i].keyValue.dirty = false
        core.cancelFlush(d)
        featuresHearTerminated(d)
        if core.devices[i].task.running { endTask(d) }
    }

    mutating func jetsam(_ d: UInt32, fault: Int) {
        let f = scenario.faults[fault]
        let until = f.duration.map { SimTime.zero + f.at + $0 } ?? end
        guard now < until, case .appTermination(let rate) = f.kind else { return }
        let i = Int(d)
        if core.devices[i].process != .terminated {
            core.metrics.jetsamKills += 1
            core.note(d, "OS: app terminated (jetsam)")
            terminate(d)
        }
        let gap = SimDuration.fromSeconds(core.withStream(.os, of: i) { $0.exponential(mean: 86_400 / rate) })
        core.clock.schedule(.jetsam(device: d, fault: UInt16(fault)), after: gap)
    }

    // MARK: - Key-value durability

    mutating func persist(_ d: UInt32, how: String) {
        let i = Int(d)
        featuresPersist(i)
        core.devices[i].keyValue.dirty = false
        core.cancelFlush(d)
        core.note(d, "UserDefaults: \(how)")
    }

    /// The foreground session is over: the features hear the app leave; the app is
    /// suspended unless background work holds it (or the user force-quits it).
    mutating func foregroundSessionEnds(_ d: UInt32, incarnation: UInt32) {
        let i = Int(d)
        guard core.devices[i].incarnation == incarnation, core.devices[i].process == .running,
              now >= core.devices[i].foregroundUntil else { return }
        featuresHearLeftForeground(d)
        guard !core.devices[i].task.running, !featuresHoldProcess(i) else { return }
        if userMayForceQuit(d) { return }
        suspend(d)
    }

    /// Shortly after a task completed, the OS suspends an app nothing else holds.
    mutating func suspendAfterTask(_ d: UInt32, serial: UInt32) {
        let i = Int(d)
        guard core.devices[i].task.serial == serial, !core.devices[i].task.running, core.devices[i].process == .running,
              now >= core.devices[i].foregroundUntil, !featuresHoldProcess(i) else { return }
        suspend(d)
    }

    /// The persistence delay is over: UserDefaults writes a running app's dirty state.
    mutating func keyValueFlushDue(_ d: UInt32, generation: UInt32) {
        let i = Int(d)
        guard core.devices[i].keyValue.flush.isCurrent(generation), core.devices[i].process == .running else { return }
        persist(d, how: "persisted by UserDefaults")
    }
}
