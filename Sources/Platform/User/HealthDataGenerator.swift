import SimKernel

/// Ground truth of each user's steps: what the phone's health store (HealthKit or
/// Google Fit) records through the day, as a closed form so nothing is stored per day.
///
/// - **Assumption**: a day's total is uniform in [2,000, 14,000) steps, drawn from
///   (seed, user, local date) alone, so it never depends on when anyone asks.
/// - **Assumption**: the steps accrue evenly while the user is up (``DailyRhythm``: from
///   their wake-up, drawn per user and day, for 15 h), none at night.
public struct HealthDataGenerator: Sendable {
    public static let dailyMinimum: Int64 = 2_000
    public static let dailySpread: Int64 = 12_000
    let key: UInt64
    /// When each user is up.
    public let rhythm: DailyRhythm

    public init(seed: UInt64, rhythm: DailyRhythm) {
        var mixer = SplitMix64(state: seed ^ 0x5354_4550_5300_0000)  // "STEPS"
        key = mixer.next()
        self.rhythm = rhythm
    }

    /// The user's total for local date `day`.
    public func dailyTotal(user: Int, day: Int32) -> Int32 {
        var mixer = SplitMix64(state: key ^ (UInt64(user) &* 0x9E37_79B9_7F4A_7C15) ^ (UInt64(UInt32(bitPattern: day)) << 40))
        return Int32(HealthDataGenerator.dailyMinimum + Int64(mixer.next() % UInt64(HealthDataGenerator.dailySpread)))
    }

    /// Steps of local date `day` recorded before the local clock reads (`nowDay`, `secondOfDay`).
    public func steps(user: DailyRhythm.User, day: Int32, before nowDay: Int32, secondOfDay: Int) -> Int32 {
        if nowDay < day { return 0 }
        let total = dailyTotal(user: user.id, day: day)
        if nowDay > day { return total }
        let up = rhythm.day(user, day: day)
        let active = Int64(min(max(secondOfDay, up.wakeUp), up.bedtime) - up.wakeUp)
        return Int32(Int64(total) * active / Int64(up.bedtime - up.wakeUp))
    }

    /// Seconds from local (`day`, `secondOfDay`) until the user next records steps (0 while they do).
    public func secondsUntilSteps(user: DailyRhythm.User, day: Int32, secondOfDay: Int) -> Int {
        rhythm.secondsUntilAwake(user, day: day, secondOfDay: secondOfDay)
    }
}
