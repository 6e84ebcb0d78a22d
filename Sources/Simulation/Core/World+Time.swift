import SimKernel
import AppLogic
import Platform

/// The one place a device's times are built: its wall and boot clocks as the app reads
/// them (skew and zone included), the user's true local time, and local days of the home zone.
extension World {
    /// The user's true local time at `t` (where they are, no clock skew).
    mutating func userLocalTime(_ i: Int, at t: SimTime) -> LocalTime {
        devices[i].clock.userLocalTime(at: t, startUnixSeconds: startUnixSeconds, zones: &localZones)
    }

    /// **Assumption**: how long every phone has been up when the run starts (a week: longer
    /// than any stamp set before the run, so each is on this boot's clock).
    static let bootedBeforeStart = SimDuration.days(7)

    /// The device's clocks as the app reads them at true time `t`: the wall clock
    /// (skew included) and the boot clock, which counts true time since the boot.
    /// **Assumption**: every device booted `World.bootedBeforeStart` before the run and
    /// none reboots during it (the simulator models no reboots), so the boot is 1.
    func deviceTime(_ i: Int, at t: SimTime) -> DeviceTime {
        DeviceTime(wall: wallInstant(i, at: t),
                   sinceBoot: Interval(microseconds: t.microseconds + World.bootedBeforeStart.microseconds), boot: 1)
    }

    /// Local date and clock time of true time `t` in the user's home zone (the zone the
    /// health data and the battery habits follow).
    @inline(__always) func localTime(_ i: Int, at t: SimTime) -> (day: Int32, secondOfDay: Int) {
        World.localTime(t, calendar: calendars[Int(devices[i].homeTimeZone)], startUnixSeconds: startUnixSeconds)
    }

    /// Local date and clock time of true time `t` on `calendar`.
    static func localTime(_ t: SimTime, calendar: LocalCalendar, startUnixSeconds: Int64) -> (day: Int32, secondOfDay: Int) {
        let unix = startUnixSeconds + (t.microseconds >= 0 ? t.microseconds / 1_000_000 : (t.microseconds - 999_999) / 1_000_000)
        return calendar.local(atUnix: unix)
    }
}
