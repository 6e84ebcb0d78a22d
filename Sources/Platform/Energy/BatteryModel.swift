import SimKernel

/// A phone's battery level as a piecewise-linear function of time: it drains at a
/// constant average current while unplugged and charges at a constant current while
/// plugged in, so the world needs an event only when the user plugs in or unplugs
/// (a few a day), not a tick per hour. Deliberately coarse; a finer model (screen
/// sessions, radio) can replace the two currents later.
///
/// "Battery low" follows Android's BatteryService (`docs/platform-facts.md` E): unplugged and the
/// level ≤ 15 %, cleared when plugged in or at ≥ 20 %. Here the level rises only while
/// plugged in, and plugging in clears the state, so low is exactly "unplugged and ≤ 15 %"
/// (the 20 % hysteresis never decides anything in this model).
public struct BatteryModel: Sendable {
    /// When the user charges (a cohort's `battery.charging`).
    public enum Habit: Sendable {
        /// **Assumption**: plugged in from bedtime to wake-up, every night (``DailyRhythm``:
        /// each user's own times, drawn per user and local date; about 22:00 to 07:00).
        case overnight
        /// **Assumption**: plugged in when the level falls to 25 %, unplugged at 80 %.
        case topUps
        /// **Assumption**: plugged in only at the 5 % critical level (`docs/platform-facts.md` E), unplugged when full.
        case rarely
    }

    public var capacityMah: Double
    public var habit: Habit
    /// **Assumption**: 130 mA average drain of a phone in daily use, everything included
    /// (`docs/platform-facts.md` I: screen on 82.75-98 mA, CPU idle 17-36 mA, radio paging 1-5 mA;
    /// no published whole-day figure). About 3.9 %/h of 3300 mAh: a full battery lasts ~25 h.
    public var drainMilliamps = 130.0
    /// **Assumption**: 1500 mA charging current (a 5-7.5 W charger), ~2.2 h from empty to full at 3300 mAh.
    public var chargeMilliamps = 1500.0
    /// `docs/platform-facts.md` E: low-battery warning level.
    public static let lowPercent = 15.0
    /// `docs/platform-facts.md` E: critical level (the `rarely` habit plugs in here).
    public static let criticalPercent = 5.0
    static let topUpFrom = 25.0, topUpTo = 80.0

    public init(capacityMah: Double, habit: Habit) {
        self.capacityMah = capacityMah
        self.habit = habit
    }

    /// Percent per second, signed.
    private func slope(charging: Bool) -> Double {
        (charging ? chargeMilliamps : -drainMilliamps) / capacityMah * 100 / 3600
    }

    /// The level at `t` (0...100).
    public func percent(_ s: BatteryState, at t: SimTime) -> Double {
        let level = s.percent + slope(charging: s.charging) * (t - s.since).seconds
        return min(100, max(0, level))
    }

    /// `docs/platform-facts.md` E: unplugged and at most 15 %.
    public func isLow(_ s: BatteryState, at t: SimTime) -> Bool {
        !s.charging && percent(s, at: t) <= BatteryModel.lowPercent
    }

    /// The state at time zero: unplugged at `percent`, or plugged in if the habit says so
    /// (`overnight`: while `user` sleeps at the local clock reading `local`).
    public func initial(percent: Double, user: DailyRhythm.User, local: (day: Int32, secondOfDay: Int), rhythm: DailyRhythm) -> BatteryState {
        var s = BatteryState(percent: min(100, max(0, percent)), since: .zero, charging: false)
        switch habit {
        case .overnight: s.charging = !rhythm.day(user, day: local.day).isAwake(local.secondOfDay)
        case .topUps: s.charging = s.percent <= BatteryModel.topUpFrom
        case .rarely: s.charging = s.percent <= BatteryModel.criticalPercent
        }
        return s
    }

    /// When `user` next plugs in or unplugs, seen at `now` with the local clock reading
    /// `local` (a DST change in between moves the overnight times by an hour at most).
    public func nextSwitch(_ s: BatteryState, now: SimTime, user: DailyRhythm.User, local: (day: Int32, secondOfDay: Int), rhythm: DailyRhythm) -> SimTime {
        switch habit {
        case .overnight:
            // Plugged in: off at the next wake-up. Unplugged: on at today's bedtime, or
            // tomorrow's if today's has passed.
            let today = rhythm.day(user, day: local.day)
            let target = s.charging ? today.wakeUp : today.bedtime
            let wait = local.secondOfDay < target
                ? target - local.secondOfDay
                : 86_400 - local.secondOfDay + (s.charging ? rhythm.day(user, day: local.day + 1).wakeUp
                                                           : rhythm.day(user, day: local.day + 1).bedtime)
            return now + .seconds(Int64(wait))
        case .topUps:
            return now + timeToReach(s.charging ? BatteryModel.topUpTo : BatteryModel.topUpFrom, from: percent(s, at: now), charging: s.charging)
        case .rarely:
            return now + timeToReach(s.charging ? 100 : BatteryModel.criticalPercent, from: percent(s, at: now), charging: s.charging)
        }
    }

    /// The first microsecond at or after `now` at which the unplugged level is at most
    /// `level` (`docs/platform-facts.md` E: Battery Saver's automatic level, 15 %), or nil while
    /// plugged in (the level only rises). Exact to the microsecond: the world's event
    /// finds the level at or below `level`, never a rounding above it.
    public func timeFalling(to level: Double, _ s: BatteryState, now: SimTime) -> SimTime? {
        guard !s.charging else { return nil }
        let current = percent(s, at: now)
        guard current > level else { return now }
        var t = now + SimDuration(microseconds: Int64(((current - level) / -slope(charging: false) * 1_000_000).rounded(.down)))
        while percent(s, at: t) > level { t = t + SimDuration(microseconds: 1) }
        return t
    }

    private func timeToReach(_ target: Double, from level: Double, charging: Bool) -> SimDuration {
        let seconds = (target - level) / slope(charging: charging)
        return SimDuration.fromSeconds(max(0, seconds))
    }

    /// Plugs in or unplugs at `now`.
    public func toggle(_ s: inout BatteryState, at now: SimTime) {
        s = BatteryState(percent: percent(s, at: now), since: now, charging: !s.charging)
    }
}

/// One device's battery: the level at `since`, and whether it is plugged in since then.
public struct BatteryState: Sendable, Equatable {
    public var percent: Double
    public var since: SimTime
    public var charging: Bool
    public init(percent: Double, since: SimTime, charging: Bool) {
        self.percent = percent; self.since = since; self.charging = charging
    }
}
