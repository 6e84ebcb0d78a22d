import SimKernel

/// Users' daily alarm clocks (`AlarmManager.setAlarmClock`). An alarm clock is a
/// wake-from-idle alarm: `AlarmManager.getNextWakeFromIdleTime` returns it, and Doze's
/// `isUpcomingAlarmClock` keeps deep Doze from stepping on within `MIN_TIME_TO_ALARM`
/// (30 min) of it (`DeviceIdleController.stepIdleStateLocked`,
/// `becomeInactiveIfAppropriateLocked`; docs/platform-facts.md section A).
///
/// **Assumption** (`android.alarmClock`, no published figures): a share of users (default
/// 0.5) has one alarm that rings every day at the same local time of day, drawn once per
/// user (default uniform 6 h to 8 h after local midnight). The world tells Doze the next
/// ring (`DozeInput.nextWakeFromIdleAlarm`) and, when it rings, the one after it.
public struct AlarmClockModel: Sendable, Equatable {
    /// Share of users with a daily alarm clock, 0 to 1.
    public var share: Double
    /// Local time of day it rings, µs after midnight; draws are kept within the day.
    public var timeOfDay: Distribution

    public init(share: Double = 0.5, timeOfDay: Distribution = .uniform(6 * 3_600e6, 8 * 3_600e6)) {
        self.share = share
        self.timeOfDay = timeOfDay
    }

    static let day = SimDuration.hours(24)

    /// One user's alarm: the local time of day it rings, or nil for a user without one.
    /// Two draws from `rng` either way, so the share never shifts the stream.
    public func draw(rng: inout RandomStream) -> SimDuration? {
        let has = rng.uniform() < share
        let t = timeOfDay.sampleDuration(&rng).microseconds
        let day = Self.day.microseconds
        let inDay = ((t % day) + day) % day
        return has ? SimDuration(microseconds: inDay) : nil
    }

    /// The first ring strictly after `now` at local `timeOfDay` in `zone` (simulated time
    /// 0 is `startUnixSeconds`). Across a DST change the ring keeps its local time (a
    /// time inside the hour a spring-forward skips rings an hour early).
    public static func nextRing(after now: SimTime, timeOfDay: SimDuration, zone: inout LocalTimeZone,
                                startUnixSeconds: Int64) -> SimTime {
        let day = Self.day.microseconds
        let base = startUnixSeconds * 1_000_000
        let local = zone.localTime(atUnixMicroseconds: base + now.microseconds).microsecondsIntoDay
        var delta = timeOfDay.microseconds - local
        if delta <= 0 { delta += day }
        var t = now + SimDuration(microseconds: delta)
        // The UTC offset at the ring may differ from now's (a DST change tonight): move
        // by the difference, once, so the ring is at `timeOfDay` in the offset it has.
        let there = zone.localTime(atUnixMicroseconds: base + t.microseconds).microsecondsIntoDay
        var shift = timeOfDay.microseconds - there
        if shift > day / 2 { shift -= day } else if shift < -day / 2 { shift += day }
        t = t + SimDuration(microseconds: shift)
        if t <= now { t = t + Self.day }
        return t
    }
}
