import SimKernel
import AppLogic
import Platform

/// The one place a device's local times are built: the user's true local time (where
/// they are, no clock skew; each zone's UTC offset cached between DST changes in
/// ``WorldCore/localZones``) and local days of the home zone. The app's clocks are
/// ``WorldCore/deviceTime(_:at:)``.
extension WorldCore {
    /// The user's true local time at `t` (where they are, no clock skew).
    mutating func userLocalTime(_ i: Int, at t: SimTime) -> LocalTime {
        devices[i].clock.userLocalTime(at: t, startUnixSeconds: startUnixSeconds, zones: &localZones)
    }

    /// Local date and clock time of true time `t` on `calendar`.
    static func localTime(_ t: SimTime, calendar: LocalCalendar, startUnixSeconds: Int64) -> (day: Int32, secondOfDay: Int) {
        let unix = startUnixSeconds + (t.microseconds >= 0 ? t.microseconds / 1_000_000 : (t.microseconds - 999_999) / 1_000_000)
        return calendar.local(atUnix: unix)
    }

    /// Local date and clock time of true time `t` in the user's home zone (the zone the
    /// health data and the battery habits follow).
    @inline(__always) func localTime(_ i: Int, at t: SimTime) -> (day: Int32, secondOfDay: Int) {
        WorldCore.localTime(t, calendar: calendars[Int(devices[i].homeTimeZone)], startUnixSeconds: startUnixSeconds)
    }
}
