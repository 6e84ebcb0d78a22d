/// BatteryService's "battery low" flag, which drives WorkManager's battery-not-low
/// constraint (`docs/platform-facts.md` E): set when the device is unplugged and the level is at
/// or below 15 %; cleared when it is plugged in or the level is at or above 20 %.
/// Between the two, the flag keeps its last value.
public struct BatteryLowMonitor: Sendable, Equatable {
    /// `config_lowBatteryWarningLevel`: 15 %.
    public var lowLevel: Double = 15
    /// 15 % + `config_lowBatteryCloseWarningBump` 5: 20 %.
    public var clearLevel: Double = 20
    public init() {}

    /// The new flag for a battery reading.
    public func isLow(levelPercent: Double, plugged: Bool, wasLow: Bool) -> Bool {
        if plugged || levelPercent >= clearLevel { return false }
        if levelPercent <= lowLevel { return true }
        return wasLow
    }
}
