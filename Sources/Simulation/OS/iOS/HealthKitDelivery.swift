import SimKernel

/// HealthKit background delivery (iOS; seed `003`: "Background App Refresh + HealthKit
/// Background Delivery"): once the app enabled it (``World/healthStoreDelivers(_:)``),
/// HealthKit wakes the app when new samples come, at most 4 times an hour, and gives each
/// wake a little background time. The model decides when the next wake comes and how long
/// it lasts; the feature that reads the health data schedules it with
/// its own draws and what the user truly records, and runs its sync in it.
enum HealthKitDelivery {
    /// Seed `003`: HealthKit background delivery wakes the app at most 4 times an hour.
    static let minimumGap = SimDuration.minutes(15)
    /// **Assumption**: while steps accrue, deliveries come a mean of 1 h apart: the 15 min
    /// minimum plus an exponential of mean 45 min (a floor on a plain exponential put a
    /// fifth of the gaps at exactly 15 min, so every iPhone's first delivery of a run fell
    /// in one second); none while no steps are recorded.
    static let meanGap = 3600.0
    /// **Assumption**: a wake gets the same 30 s as the app's background task (`docs/platform-facts.md` F);
    /// the app is suspended `ios.suspensionDelay` after the work finishes, or at the budget's end.
    static let budget = SimDuration.seconds(30)

    /// A gap between deliveries: ``minimumGap`` plus an exponential, with mean ``meanGap``
    /// in all, drawn from `rng`.
    static func gap(_ rng: inout RandomStream) -> SimDuration {
        minimumGap + SimDuration.fromSeconds(rng.exponential(mean: meanGap - minimumGap.seconds))
    }

    /// When the next delivery comes, a drawn ``gap(_:)`` from `now`: new samples come
    /// while the user records steps, so a gap that ends while the user sleeps ends instead
    /// a fresh gap after their first steps of the day. `secondsUntilSteps(t)` is how long
    /// after `t` the user next records steps (zero while they do); `drawGap` draws a gap.
    @inline(__always) static func next(after now: SimTime, drawGap: () -> SimDuration, secondsUntilSteps: (SimTime) -> Int) -> SimTime {
        let at = now + drawGap()
        let asleep = secondsUntilSteps(at)
        return asleep > 0 ? at + .seconds(Int64(asleep)) + drawGap() : at
    }
}
