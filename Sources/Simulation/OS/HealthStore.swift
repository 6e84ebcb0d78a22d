import SimKernel
import AppLogic
import Platform
import Backend

/// The days of a device's own calendar: its zone setting read on its wall clock, skew
/// included. HealthKit's statistics collection and Health Connect's aggregate by period
/// bucket on the calendar the app passes, which is the device's; the app reads
/// from that calendar's midnight, so a read always starts on one of these days.
struct DeviceDays {
    let calendar: LocalCalendar
    let skew: SimDuration
    let startUnixSeconds: Int64

    /// The device's date at true time `t`.
    func day(at t: SimTime) -> Int32 {
        WorldCore.localTime(t + skew, calendar: calendar, startUnixSeconds: startUnixSeconds).day
    }

    /// The true time at which the device's date `day` begins.
    func start(of day: Int32) -> SimTime {
        SimTime(microseconds: (calendar.dayStart(day) - startUnixSeconds) * 1_000_000) - skew
    }
}

extension WorldCore {
    /// The device's calendar as it is now (zone setting and clock skew).
    func deviceDays(_ i: Int) -> DeviceDays {
        DeviceDays(calendar: calendars[Int(devices[i].clock.timeZone)], skew: devices[i].clock.skew, startUnixSeconds: startUnixSeconds)
    }
}

/// The health store (HealthKit, Health Connect) the app reads, answered from the
/// reading feature's ``HealthDataGenerator``: the steps the user truly records. Methods
/// of the one-word generator, not of the feature's host: called from the host's
/// mutating methods, a host method copied the whole host (its per-device arrays
/// retained) per read.
extension HealthDataGenerator {
    /// The steps the user truly recorded in `[from, to)` (ground truth: the health data
    /// follows the user's home-zone day).
    func trueSteps(user: DailyRhythm.User, from: SimTime, to: SimTime, home: LocalCalendar, startUnixSeconds: Int64) -> Int32 {
        guard from < to else { return 0 }
        let start = WorldCore.localTime(from, calendar: home, startUnixSeconds: startUnixSeconds)
        let end = WorldCore.localTime(to, calendar: home, startUnixSeconds: startUnixSeconds)
        var total: Int32 = 0
        for day in start.day...end.day { total += steps(user: user, day: day, before: end.day, secondOfDay: end.secondOfDay) }
        return total - steps(user: user, day: start.day, before: start.day, secondOfDay: start.secondOfDay)
    }

    /// Daily totals of `[from, to)` by the device's date, as the health store answers the
    /// app's read.
    func healthData(user: DailyRhythm.User, from: SimTime, to: SimTime, days: DeviceDays, home: LocalCalendar, startUnixSeconds: Int64) -> [DailySteps] {
        guard from < to else { return [] }
        let first = days.day(at: from), last = days.day(at: to)
        // Any range: the store answers every date it holds (the user's steps before the
        // run included), as HealthKit and Health Connect do.
        guard first <= last else { return [] }
        var out: [DailySteps] = []
        out.reserveCapacity(Int(last - first) + 1)
        for day in first...last {
            let steps = trueSteps(user: user, from: max(from, days.start(of: day)), to: min(to, days.start(of: day + 1)),
                                  home: home, startUnixSeconds: startUnixSeconds)
            out.append(DailySteps(date: LocalDate(daysSince1970: day), steps: steps))
        }
        return out
    }
}
