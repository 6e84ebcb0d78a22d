import SimKernel
import AppLogic
import Platform

/// A manufacturer's background policy that force-stops apps (``OEMBackgroundPolicy``).
extension World {
    /// Arms the force-stop of an `OEMBackgroundPolicy` that kills background apps, from
    /// the screen going off (none under `stock`).
    mutating func armOEMKill(_ d: UInt32) {
        let a = androidIndex(d)
        let t = now
        guard !androids[a].forceStopped, let at = borrowedModels(d)._withUnsafeGuaranteedRef({ $0.oem.killTime(screenOffAt: t) }) else { return }
        let generation = androids[a].timers.arm(.oemKill)
        core.clock.schedule(.android(.timer(device: d, generation: generation, timer: .oemKill)), at: at)
    }

    /// The screen has been off the policy's time: unless the app is in the foreground,
    /// it is force-stopped: the process dies (unpersisted writes lost), and no job,
    /// alarm or FCM message reaches it until the user opens it.
    mutating func oemForceStop(_ d: UInt32) {
        let i = Int(d), a = androidIndex(d)
        guard !androids[a].screen.isOn, !(core.devices[i].process == .running && now < core.devices[i].foregroundUntil) else { return }
        core.metrics.platform.oemForceStops += 1
        core.note(d, "OS: the manufacturer's policy force-stops the app")
        if core.devices[i].process != .terminated { terminate(d) }
        androids[a].forceStopped = true
        cancelWhileIdleAlarm(d)
    }
}
