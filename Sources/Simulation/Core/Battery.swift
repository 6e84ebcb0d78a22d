import SimKernel
import Platform
import Scenario

/// Which radio carries the app's traffic, and whether the phone is plugged in: the
/// battery is the core's (``BatteryModel``, the cohort's charging habit); the OS hears
/// of a plug-in or unplug through the seam (``World/batterySwitches(_:)``).
extension WorldCore {
    /// **Assumption** (`network.homeWiFi`, ``NetworkConfig/homeHours``): a user with Wi-Fi
    /// at home is on it from 19:00 to 08:00 in their local time; otherwise on cellular (LTE).
    mutating func onWiFi(_ i: Int, at t: SimTime) -> Bool {
        guard devices[i].homeWiFi else { return false }
        let hour = userLocalTime(i, at: t).hour
        return hour >= NetworkConfig.homeHours.from || hour < NetworkConfig.homeHours.until
    }

    /// The radio of a request sent at `t` (`docs/platform-facts.md` I: LTE or Wi-Fi).
    mutating func bearer(_ i: Int, at t: SimTime) -> Bearer { onWiFi(i, at: t) ? .wifi : .cellular }

    /// Whether the phone is plugged in now (``BatteryModel``, the cohort's charging habit).
    func isCharging(_ i: Int) -> Bool { devices[i].battery.charging }

    /// Every device's battery at time zero and its first plug-in or unplug: charging
    /// drives Doze (`docs/platform-facts.md` A), quota exemptions (B), the launch policy,
    /// and the app's low-battery rules.
    mutating func startBattery(_ d: UInt32, initialPercent: Double) {
        let i = Int(d)
        let battery = cohorts[Int(devices[i].cohort)].battery
        let local = localTime(i, at: .zero), user = rhythmUser(i)
        devices[i].battery = battery.initial(percent: initialPercent, user: user, local: local, rhythm: rhythm)
        schedule(.batterySwitch(device: d),
                       at: battery.nextSwitch(devices[i].battery, now: .zero, user: user, local: local, rhythm: rhythm))
    }

    /// The user plugs the phone in or unplugs it (``WorldEvent/batterySwitch(device:)``):
    /// the battery toggles and its next switch is drawn.
    mutating func toggleBattery(_ d: UInt32) {
        let i = Int(d)
        let battery = cohorts[Int(devices[i].cohort)].battery
        battery.toggle(&devices[i].battery, at: now)
        note(d) { c in "battery: \(c.devices[i].battery.charging ? "plugged in" : "unplugged") at \(Int(c.devices[i].battery.percent)) %" }
        schedule(.batterySwitch(device: d),
                       at: battery.nextSwitch(devices[i].battery, now: now, user: rhythmUser(i),
                                              local: localTime(i, at: now), rhythm: rhythm))
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
