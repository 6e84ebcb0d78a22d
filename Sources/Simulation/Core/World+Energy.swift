import SimKernel
import Platform
import Scenario

/// Which radio carries the app's traffic, and whether the phone is plugged in.
extension World {
    /// **Assumption** (`network.homeWiFi`, ``NetworkConfig/homeHours``): a user with Wi-Fi
    /// at home is on it from 19:00 to 08:00 in their local time; otherwise on cellular (LTE).
    mutating func onWiFi(_ i: Int, at t: SimTime) -> Bool {
        guard core.devices[i].homeWiFi else { return false }
        let hour = userLocalTime(i, at: t).hour
        return hour >= NetworkConfig.homeHours.from || hour < NetworkConfig.homeHours.until
    }

    /// The radio of a request sent at `t` (`docs/platform-facts.md` I: LTE or Wi-Fi).
    mutating func bearer(_ i: Int, at t: SimTime) -> Bearer { onWiFi(i, at: t) ? .wifi : .cellular }

    /// Whether the phone is plugged in now (``BatteryModel``, the cohort's charging habit).
    func isCharging(_ i: Int) -> Bool { core.devices[i].battery.charging }

    /// Every device's battery at time zero and its first plug-in or unplug: charging
    /// drives Doze (`docs/platform-facts.md` A), quota exemptions (B), the launch policy, and the
    /// step sync's low-battery rule.
    mutating func startBattery(_ d: UInt32, initialPercent: Double) {
        let i = Int(d)
        let battery = core.cohorts[Int(core.devices[i].cohort)].battery
        let local = core.localTime(i, at: .zero), user = Int(core.globalID(i))
        core.devices[i].battery = battery.initial(percent: initialPercent, user: user, local: local, rhythm: core.rhythm)
        core.clock.schedule(.batterySwitch(device: d),
                            at: battery.nextSwitch(core.devices[i].battery, now: .zero, user: user, local: local, rhythm: core.rhythm))
    }

    /// The user plugs the phone in or unplugs it (``WorldEvent/batterySwitch(device:)``):
    /// the battery's next switch is drawn and the OS hears of it.
    mutating func batterySwitches(_ d: UInt32) {
        let i = Int(d)
        let battery = core.cohorts[Int(core.devices[i].cohort)].battery
        battery.toggle(&core.devices[i].battery, at: now)
        core.note(d, "battery: \(core.devices[i].battery.charging ? "plugged in" : "unplugged") at \(Int(core.devices[i].battery.percent)) %")
        core.clock.schedule(.batterySwitch(device: d),
                            at: battery.nextSwitch(core.devices[i].battery, now: now, user: Int(core.globalID(i)),
                                                   local: core.localTime(i, at: now), rhythm: core.rhythm))
        chargingChanged(d)
    }
}

extension BatteryModel.Habit {
    init(_ habit: ChargingHabit) {
        switch habit {
        case .overnight: self = .overnight
        case .topUps: self = .topUps
        case .rarely: self = .rarely
        }
    }
}
