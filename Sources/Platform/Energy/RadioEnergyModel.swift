import SimKernel

/// LTE radio energy per the AT&T ARO parameterisation of Huang et al. 2012
/// (`REFERENCE.md` I): promotion 0.26 s at 1.21 W, transfer at the 1.2 W baseline,
/// then a 10 s long-DRX tail at 1.06 W. A request that starts inside the previous
/// request's tail pays neither a promotion nor a second tail: two requests a few
/// seconds apart share one tail; a lone request pays a whole one.
///
/// CPU: **assumption** `cpuActiveMilliamps` (150 mA at the nominal voltage) while the
/// app runs in the background; `REFERENCE.md` I lists only idle/suspend CPU currents.
public struct RadioEnergyModel: Sendable {
    public var promotionSeconds = 0.26
    public var promotionWatts = 1.21
    public var activeWatts = 1.2
    public var tailSeconds = 10.0
    public var tailWatts = 1.06
    public var cpuActiveMilliamps = 150.0
    /// Nominal cell voltage used to turn joules into mAh (`REFERENCE.md`, worked example).
    public var volts = 3.85

    public init() {}

    public func milliampHours(joules: Double) -> Double { joules / (volts * 3.6) }
    public func cpuJoules(seconds: Double) -> Double { cpuActiveMilliamps / 1000 * volts * seconds }
}

/// One device's radio: when its last transfer ended, and what it has cost.
///
/// A transfer is charged its whole tail at once; a later transfer that starts inside
/// that tail refunds the unused part, so a fleet's sum is exact and each request's
/// returned cost includes the tail it leaves behind.
public struct RadioState: Sendable {
    /// End of the last transfer (start of the tail).
    public var activeUntil = SimTime(microseconds: Int64.min / 2)
    public var joules = 0.0
    /// Seconds in promotion, transfer or tail.
    public var activeSeconds = 0.0
    public init() {}

    /// Accounts a transfer over `[start, end]` and returns the energy it added (J).
    public mutating func transfer(from start: SimTime, to end: SimTime, model: RadioEnergyModel) -> Double {
        let before = joules
        let tailEnd = activeUntil + .fromSeconds(model.tailSeconds)
        if start < activeUntil {
            // Overlaps a transfer: the tail moves to the new end, already paid for.
            if end > activeUntil { active(seconds: (end - activeUntil).seconds, model: model); activeUntil = end }
            return joules - before
        }
        if start < tailEnd {
            let unused = (tailEnd - start).seconds
            joules -= unused * model.tailWatts
            activeSeconds -= unused
        } else {
            joules += model.promotionSeconds * model.promotionWatts
            activeSeconds += model.promotionSeconds
        }
        if end > start { active(seconds: (end - start).seconds, model: model) }
        activeUntil = end > start ? end : start
        joules += model.tailSeconds * model.tailWatts
        activeSeconds += model.tailSeconds
        return joules - before
    }

    private mutating func active(seconds: Double, model: RadioEnergyModel) {
        joules += seconds * model.activeWatts
        activeSeconds += seconds
    }
}
