import Foundation

/// A user's quiet hours on their local wall clock, `start ..< end`; when `start` is
/// later than `end` they run across midnight (seed `001`'s example, 8:00 PM - 7:00 AM).
/// Equal `start` and `end` mean no quiet hours.
public struct QuietHours: Hashable, Sendable {
    /// Minutes after local midnight, 0 ..< 1440.
    public var startMinute: Int
    public var endMinute: Int

    public init(startHour: Int, startMinute: Int = 0, endHour: Int, endMinute: Int = 0) {
        self.startMinute = startHour * 60 + startMinute
        self.endMinute = endHour * 60 + endMinute
    }

    /// Whether `now` is inside the quiet hours on the local clock of `timeZone`.
    public func contains(_ now: Instant, in timeZone: TimeZone) -> Bool {
        let second = LocalTime.secondOfDay(now, timeZone)
        let start = Int64(startMinute) * 60, end = Int64(endMinute) * 60
        if start < end { return second >= start && second < end }
        if start > end { return second >= start || second < end }
        return false
    }

    /// The first instant after `now` at which the local clock reads the end time. On a
    /// day when a DST change skips that time, the first time after the gap; when it
    /// repeats it, its first occurrence.
    public func end(after now: Instant, in timeZone: TimeZone) -> Instant {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let components = DateComponents(hour: endMinute / 60, minute: endMinute % 60, second: 0, nanosecond: 0)
        let next = calendar.nextDate(after: LocalTime.date(now), matching: components,
                                     matchingPolicy: .nextTime, repeatedTimePolicy: .first, direction: .forward)
        // A calendar always finds a next day with that time; a day later is the fail-safe.
        return next.map(LocalTime.instant) ?? now + .days(1)
    }
}

/// One user's push settings (seed `001`, "Push Notification Preferences").
public struct PushUserSettings: Hashable, Sendable {
    /// The user's IANA time zone, for quiet hours and daily limits.
    public var timeZone: TimeZone
    public var quietHours: QuietHours?
    /// Categories the user turned off.
    public var optedOut: PushCategories
    /// Email is enabled, so the fallback can use it.
    public var emailEnabled: Bool

    public init(timeZone: TimeZone, quietHours: QuietHours? = nil, optedOut: PushCategories = [], emailEnabled: Bool = true) {
        self.timeZone = timeZone
        self.quietHours = quietHours
        self.optedOut = optedOut
        self.emailEnabled = emailEnabled
    }
}
