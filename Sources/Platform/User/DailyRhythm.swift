import Foundation
import SimKernel

/// When each user's day begins and ends on their local clock: the wake-up time (steps
/// start to accrue, the phone comes off its overnight charger) and the bedtime (steps
/// stop, the phone goes on the charger). A closed form of (seed, user, local date): nothing
/// is stored per day, and per user only the usual wake-up a caller may keep (``User``).
///
/// Real phones do not wake in the same second: a fleet whose users all started their day
/// at 07:00:00 sent every zone's HealthKit deliveries and charger changes in one second
/// (a synthetic herd that set the backend's busiest second). Each user therefore gets a
/// usual wake-up time of their own, and each day moves it a little.
///
/// - **Assumption** (no source gives a distribution for app users; the shape is that of
///   population sleep studies, e.g. Walch, Cochran & Forger 2016, "A global quantification
///   of 'normal' sleep schedules using smartphone data", Science Advances 2: e1501705, whose
///   national mean wake-up times lie around 07:00 with individual spreads of about an hour):
///   a user's usual wake-up is normal with mean ``meanWakeUp`` (07:00) and standard deviation
///   ``wakeUpSpread`` (1 h), truncated to ``earliestUsual``-``latestUsual`` (05:00-08:30) by
///   drawing again, not by clamping: a clamp puts every user beyond a bound on the bound's
///   second (the 2.3 % past 09:00 all rose at 09:00:00).
///   Truncated, the usual wake-ups have mean 06:55 and standard deviation 49 min.
/// - **Assumption**: each day's wake-up is the usual one moved by a uniform ±``dailyShift``
///   (30 min), drawn from (seed, user, date).
/// - **Assumption**: the user is up for ``awake`` (15 h, the 07:00-22:00 day the model used
///   before). The latest day's wake-up is 08:30 + 30 min, so every bedtime is at most
///   midnight without a clamp (a bedtime clamped to midnight plugged a few percent of a
///   zone's phones into their chargers at 00:00:00, a herd of 1,236 requests in one second
///   on a 1,000,000-phone fleet).
///
/// The peak of wake-ups stays where ``DiurnalCurve/phoneUse`` rises (06:00-08:00).
public struct DailyRhythm: Sendable {
    public static let meanWakeUp = 7 * 3600
    public static let wakeUpSpread = 3600.0
    public static let earliestUsual = 5 * 3600
    public static let latestUsual = 8 * 3600 + 1800
    public static let dailyShift = 30 * 60
    public static let awake = 15 * 3600

    /// One local date of a user: seconds after local midnight.
    public struct Day: Sendable, Equatable {
        public var wakeUp: Int
        public var bedtime: Int

        public init(wakeUp: Int, bedtime: Int) {
            self.wakeUp = wakeUp
            self.bedtime = bedtime
        }

        /// Whether the user is up at `secondOfDay`.
        public func isAwake(_ secondOfDay: Int) -> Bool { secondOfDay >= wakeUp && secondOfDay < bedtime }
    }

    let key: UInt64

    public init(seed: UInt64) {
        var mixer = SplitMix64(state: seed ^ 0x4441_5952_4859_0000)  // "DAYRHY"
        key = mixer.next()
    }

    /// A user as their days are drawn: their id and their usual wake-up, seconds after
    /// local midnight (``user(_:)``'s draw). A world keeps the wake-up per device: the
    /// draw (a truncated normal) is most of a day's cost, and a day is asked at every
    /// health read, HealthKit delivery and charger switch.
    public struct User: Sendable, Equatable {
        public let id: Int
        public let usualWakeUp: Int

        /// `usualWakeUp` is the rhythm's own draw for `id` (``DailyRhythm/user(_:)``), kept.
        public init(id: Int, usualWakeUp: Int) {
            self.id = id
            self.usualWakeUp = usualWakeUp
        }
    }

    /// User `id`, their usual wake-up drawn.
    public func user(_ id: Int) -> User { User(id: id, usualWakeUp: usualWakeUp(user: id)) }

    /// The user's usual wake-up, seconds after local midnight.
    public func usualWakeUp(user: Int) -> Int {
        var stream = RandomStream(splitMixSeed: key ^ (UInt64(user) &* 0x9E37_79B9_7F4A_7C15))
        while true {
            let drawn = Int((Double(Self.meanWakeUp) + Self.wakeUpSpread * stream.standardNormal()).rounded(.down))
            if drawn >= Self.earliestUsual && drawn <= Self.latestUsual { return drawn }
        }
    }

    /// The user's wake-up and bedtime on local date `day` (days since 1970-01-01).
    public func day(_ user: User, day: Int32) -> Day {
        var mixer = SplitMix64(state: key ^ (UInt64(user.id) &* 0xD1B5_4A32_D192_ED03) ^ (UInt64(UInt32(bitPattern: day)) << 40))
        let shift = Int(mixer.next() % UInt64(2 * Self.dailyShift + 1)) - Self.dailyShift
        let wakeUp = user.usualWakeUp + shift
        return Day(wakeUp: wakeUp, bedtime: wakeUp + Self.awake)
    }

    /// Seconds from local (`day`, `secondOfDay`) until the user is next up: 0 while awake,
    /// else until today's wake-up or tomorrow's.
    public func secondsUntilAwake(_ user: User, day d: Int32, secondOfDay: Int) -> Int {
        let today = day(user, day: d)
        if today.isAwake(secondOfDay) { return 0 }
        if secondOfDay < today.wakeUp { return today.wakeUp - secondOfDay }
        return 86_400 - secondOfDay + day(user, day: d + 1).wakeUp
    }
}
