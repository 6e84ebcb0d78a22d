import SimKernel
import AppLogic
import Platform

/// The one place a device's times are built: its wall and boot clocks as the app reads
/// them (skew and zone included), the user's true local time, and local days of the home zone.
extension World {
    /// The user's true local time at `t` (where they are, no clock skew).
    mutating func userLocalTime(_ i: Int, at t: SimTime) -> LocalTime {
        core.devices[i].clock.userLocalTime(at: t, startUnixSeconds: core.startUnixSeconds, zones: &localZones)
    }

    /// Local date and clock time of true time `t` on `calendar`.
    static func localTime(_ t: SimTime, calendar: LocalCalendar, startUnixSeconds: Int64) -> (day: Int32, secondOfDay: Int) {
        let unix = startUnixSeconds + (t.microseconds >= 0 ? t.microseconds / 1_000_000 : (t.microseconds - 999_999) / 1_000_000)
        return calendar.local(atUnix: unix)
    }
}

extension WorldCore {
    /// Local date and clock time of true time `t` in the user's home zone (the zone the
    /// health data and the battery habits follow).
    @inline(__always) func localTime(_ i: Int, at t: SimTime) -> (day: Int32, secondOfDay: Int) {
        World.localTime(t, calendar: calendars[Int(devices[i].homeTimeZone)], startUnixSeconds: startUnixSeconds)
    }
}
