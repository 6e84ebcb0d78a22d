import SimKernel
import Platform

/// Android's automatic Battery Saver (`docs/platform-facts.md` E, ``BatterySaverModel``): for the
/// users who turned its schedule on (`android.batterySaverAuto`, **assumption**), it turns
/// on when the battery reaches 15 % unplugged and off when the phone is plugged in. While
/// on it acts as the `lowPowerMode` setting or fault does on Android: Quick Doze, and
/// background work waits (``World/batterySaverChanged(_:)``); the app's logic reads it
/// as Low Power Mode (``Device/lowPowerMode``). The level is piecewise linear (``BatteryModel``), so one event at
/// the moment it reaches 15 % is enough.
extension AndroidHost {
    /// Battery Saver's automatic state for the battery now, and the event for the moment the
    /// level reaches the automatic level while unplugged. Returns whether the device's Battery
    /// Saver (setting, fault or schedule) turned on or off, so Doze and the work must hear of it.
    @discardableResult
    mutating func updateAutoBatterySaver(_ d: UInt32, core: inout WorldCore) -> Bool {
        let i = Int(d), a = core.androidIndex(d)
        guard devices[a].batterySaverAuto else { return false }
        let saver = core.androidModels(d).batterySaver
        let battery = core.cohorts[Int(core.devices[i].cohort)].battery
        let level = battery.percent(core.devices[i].battery, at: core.now)
        let on = saver.isOn(levelPercent: level, plugged: core.devices[i].battery.charging, wasOn: core.devices[i].autoBatterySaver)
        let generation = devices[a].timers.arm(.batterySaverLevel)
        if !on, let auto = saver.autoLevelPercent, let at = battery.timeFalling(to: auto, core.devices[i].battery, now: core.now) {
            core.schedule(.android(.timer(device: d, generation: generation, timer: .batterySaverLevel)), at: at)
        }
        guard on != core.devices[i].autoBatterySaver else { return false }
        let was = core.devices[i].lowPowerMode
        core.devices[i].autoBatterySaver = on
        core.note(d, on ? "OS: Battery Saver on (automatic schedule, battery \(String(format: "%.1f", level)) % unplugged)"
                   : "OS: Battery Saver's automatic schedule off (plugged in)")
        guard core.devices[i].lowPowerMode != was else { return false }
        if on { core.metrics.platform.batterySaverActivations += 1 }
        return true
    }
}
