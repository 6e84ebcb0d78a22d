/// Android's automatic Battery Saver (`docs/platform-facts.md` E).
///
/// - It turns on when the device is unplugged and the level reaches the suggested auto
///   level, 15 % ([CFG]), for devices whose user enabled the automatic schedule
///   (`autoLevelPercent` nil: never); it turns off when the device is plugged in.
/// - While on, `DEFAULT_FULL_POLICY`: all apps are forced into standby (background jobs
///   and alarms wait), background network is cut, and Quick Doze is on (the world sends
///   `DozeInput.quickDoze`).
public struct BatterySaverModel: Sendable, Equatable {
    /// **Assumption** (per cohort): the share of users with the automatic schedule is the
    /// world's draw; the level is [CFG]'s 15 %.
    public var autoLevelPercent: Double? = 15
    public init(autoLevelPercent: Double? = 15) { self.autoLevelPercent = autoLevelPercent }

    /// Battery Saver's new state for a battery reading.
    public func isOn(levelPercent: Double, plugged: Bool, wasOn: Bool) -> Bool {
        if plugged { return false }
        if let level = autoLevelPercent, levelPercent <= level { return true }
        return wasOn
    }
}
