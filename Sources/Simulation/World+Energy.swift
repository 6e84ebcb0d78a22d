import SimKernel
import Platform
import Scenario

/// Which radio carries the app's traffic, and whether the phone is plugged in.
extension World {
    /// **Assumption** (`network.homeWiFi`, ``NetworkConfig/homeHours``): a user with Wi-Fi
    /// at home is on it from 19:00 to 08:00 in their local time; otherwise on cellular (LTE).
    mutating func onWiFi(_ i: Int, at t: SimTime) -> Bool {
        guard devices[i].homeWiFi else { return false }
        let hour = userLocalTime(i, at: t).hour
        return hour >= NetworkConfig.homeHours.from || hour < NetworkConfig.homeHours.until
    }

    /// The radio of a request sent at `t` (`REFERENCE.md` I: LTE or Wi-Fi).
    mutating func bearer(_ i: Int, at t: SimTime) -> Bearer { onWiFi(i, at: t) ? .wifi : .cellular }

    /// Whether the phone is plugged in now.
    func isCharging(_ i: Int) -> Bool { false }
}
