import SimKernel
import Platform
import Scenario

/// The users: app opens on the diurnal curve in each user's true local time
/// (``UserBehaviorModel``), and the iOS force-quit.
extension World {
    /// Schedules the user's next app open: a Poisson process of `usage.appOpensPerDay`
    /// shaped by the diurnal curve in the user's local time.
    mutating func scheduleNextOpen(_ d: UInt32) {
        let i = Int(d)
        let users = cohorts[Int(devices[i].cohort)].users
        let zone = Int(devices[i].clock.location)
        guard let at = users.nextAppOpen(after: now, rng: &devices[i].openStream, zone: &localZones[zone], startUnixSeconds: startUnixSeconds)
        else { return }
        clock.schedule(.userOpensApp(device: d), at: at)
    }
}
