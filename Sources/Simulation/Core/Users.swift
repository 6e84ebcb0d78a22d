import SimKernel
import Platform

/// The users' app opens: a Poisson process on the diurnal curve in each user's true
/// local time (``UserBehaviorModel``). What an open does is the world's dispatch
/// (Core/World+Lifecycle.swift, ``World/openApp(_:fromNotification:)``).
extension WorldCore {
    /// Device `i`'s user as their days are drawn: their global id and the usual wake-up
    /// the device keeps (read in place: the `Device` is not copied).
    @inline(__always) func rhythmUser(_ i: Int) -> DailyRhythm.User {
        DailyRhythm.User(id: Int(globalID(i)), usualWakeUp: Int(devices.withUnsafeBufferPointer { $0[i].usualWakeUp }))
    }

    /// Schedules the user's next app open: a Poisson process of `usage.appOpensPerDay`
    /// shaped by the diurnal curve in the user's local time.
    mutating func scheduleNextOpen(_ d: UInt32) {
        let i = Int(d)
        let users = cohorts[Int(devices[i].cohort)].users
        let zone = Int(devices[i].clock.location)
        let (now, startUnixSeconds) = (now, startUnixSeconds)
        guard let at = streams(of: i).withStream(.userOpen, at: &devices[i].streams.open, {
            users.nextAppOpen(after: now, rng: &$0, zone: &localZones[zone], startUnixSeconds: startUnixSeconds)
        }) else { return }
        schedule(.userOpensApp(device: d), at: at)
    }
}
