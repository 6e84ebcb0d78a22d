import SimKernel
import AppLogic
import Platform

/// A manufacturer's background policy that force-stops apps (``OEMBackgroundPolicy``).
extension AndroidHost {
    /// Arms the force-stop of an `OEMBackgroundPolicy` that kills background apps, from
    /// the screen going off (none under `stock`).
    mutating func armOEMKill(_ d: UInt32, core: inout WorldCore) {
        let a = core.androidIndex(d)
        let t = core.now
        guard !devices[a].forceStopped, let at = borrowedModels(d, core.devices)._withUnsafeGuaranteedRef({ $0.oem.killTime(screenOffAt: t) }) else { return }
        let generation = devices[a].timers.arm(.oemKill)
        core.schedule(.android(.timer(device: d, generation: generation, timer: .oemKill)), at: at)
    }

    /// The screen has been off the policy's time: unless the app is in the foreground,
    /// it is force-stopped (counted and traced; ``World/oemForceStop(_:)`` ends the
    /// process, then ``forceStopped(_:core:)``). Returns whether it is.
    mutating func oemForceStops(_ d: UInt32, core: inout WorldCore) -> Bool {
        let i = Int(d), a = core.androidIndex(d)
        guard !devices[a].screen.isOn, !(core.devices[i].process == .running && core.now < core.devices[i].foregroundUntil) else { return false }
        core.metrics.platform.oemForceStops += 1
        core.note(d, "OS: the manufacturer's policy force-stops the app")
        return true
    }

    /// The app is stopped: no job, alarm or FCM message reaches it until the user opens it.
    mutating func forceStopped(_ d: UInt32, core: inout WorldCore) {
        devices[core.androidIndex(d)].forceStopped = true
        cancelWhileIdleAlarm(d, core: &core)
    }
}
