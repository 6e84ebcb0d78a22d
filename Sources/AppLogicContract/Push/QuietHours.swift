import Foundation

/// A user's quiet hours on their local wall clock, `start ..< end`; when `start` is
/// later than `end` they run across midnight (seed `001`'s example, 8:00 PM - 7:00 AM).
/// Equal `start` and `end` mean no quiet hours. The minutes are kept in 16 bits (4
/// bytes where two `Int`s took 16, in every push user's settings).
public struct QuietHours: Hashable, Sendable {
    private var start: Int16
    private var end: Int16
    /// Minutes after local midnight, 0 ..< 1440.
    public var startMinute: Int {
        get { Int(start) }
        set { start = Int16(newValue) }
    }
    public var endMinute: Int {
        get { Int(end) }
        set { end = Int16(newValue) }
    }

    public init(startHour: Int, startMinute: Int = 0, endHour: Int, endMinute: Int = 0) {
        start = Int16(startHour * 60 + startMinute)
        end = Int16(endHour * 60 + endMinute)
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
