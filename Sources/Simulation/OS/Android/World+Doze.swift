import SimKernel
import AppLogic
import Platform

/// Doze (docs/platform-facts.md section A; AOSP `DeviceIdleController`): its inputs
/// (screen, charging, motion, network, a high-priority push, Quick Doze) and what a
/// transition releases.
extension World {
    /// Feeds Doze one input, traces its transitions, keeps its one timer event current,
    /// and lets due work run when Doze stops holding it back.
    mutating func applyDoze(_ d: UInt32, _ input: DozeInput) {
        let a = androidIndex(d)
        dozeTransitions.removeAll(keepingCapacity: true)
        models(d).doze.handle(input, state: &androids[a].doze, now: now, into: &dozeTransitions)
        let changed = !dozeTransitions.isEmpty
        for transition in dozeTransitions {
            switch transition {
            case .deep(let state):
                if state == .idle { metrics.platform.dozeDeepIdleEntries += 1 }
                if state == .idleMaintenance { metrics.platform.dozeMaintenanceWindows += 1 }
                note(d, "Doze: deep \(state)")
            case .light(let state):
                if state == .idleMaintenance { metrics.platform.dozeMaintenanceWindows += 1 }
                note(d, "Doze: light \(state)")
            }
        }
        let next = androids[a].doze.nextDeadline
        if next != androids[a].dozeTimerAt {
            androids[a].dozeTimerAt = next
            let generation = androids[a].timers.arm(.doze)
            if let next { clock.schedule(.android(.timer(device: d, timer: .doze, generation: generation)), at: max(next, now)) }
        }
        if changed, androids[a].alarmHeld, androids[a].doze.deep != .idle { releaseHeldAlarm(d) }
        if changed, !androids[a].doze.restrictsBackgroundWork {
            tryRunWork(d, .refresh)
            tryRunWork(d, .stepSync)
            flushFCM(d)
        }
    }

    /// The device went online or offline: Doze's light maintenance waits for network,
    /// and the work's network constraint.
    mutating func androidConnectivityChanged(_ d: UInt32) {
        applyDoze(d, .network(connected: devices[Int(d)].online))
        tryRunWork(d, .refresh)
        tryRunWork(d, .stepSync)
    }

    /// Battery Saver (the `lowPowerMode` setting or fault, or its automatic schedule:
    /// World+BatterySaver; `docs/platform-facts.md` E): Quick Doze,
    /// and background jobs wait while it is on.
    mutating func batterySaverChanged(_ d: UInt32) {
        applyDoze(d, .quickDoze(devices[Int(d)].lowPowerMode))
        tryRunWork(d, .refresh)
        tryRunWork(d, .stepSync)
    }
}
