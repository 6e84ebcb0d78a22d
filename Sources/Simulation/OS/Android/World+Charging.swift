import SimKernel
import Platform

/// Android hears the charger (`docs/platform-facts.md` A, B, D, E): Battery Saver's automatic
/// schedule turns off when plugged in (World+BatterySaver), Doze leaves idle while charging
/// and comes back unplugged, BatteryService's "battery low" clears, and every declared work
/// may run (a charging job is exempt from the bucket's quota: World+WorkManager). The
/// battery itself, its switches and the level are the core's (Core/Battery).
extension World {
    /// The user plugged the phone in or unplugged it (through the OS seam's `chargingChanged`).
    mutating func androidChargingChanged(_ d: UInt32) {
        if updateAutoBatterySaver(d) { applyDoze(d, .quickDoze(core.devices[Int(d)].lowPowerMode)) }
        applyDoze(d, .charging(core.isCharging(Int(d))))
        updateBatteryLow(d)
        tryEveryWork(d)
    }
}
