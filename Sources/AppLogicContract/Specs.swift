/// The refresh's spec: the numbers the logic runs by and the oracle judges it by (seed
/// `000`'s by default; the reference takes each from a scenario's `logic.refresh`).
public struct RefreshSpec: Hashable, Sendable {
    /// `earliestBeginDate` of the next request: 4 h ("Refresh Frequency").
    public var preferredInterval: Interval = .hours(4)
    /// How far the `earliestBeginDate` the logic asks for may lie from now + `preferredInterval`:
    /// `lower ... upper` added to it (0 ... 0: exactly; docs/architecture.md, "The spec the judges read").
    public var earliestBeginJitter: ClosedRange<Interval> = Interval.zero ... Interval.zero
    /// Skip when the last refresh is more recent: 12 h ("Conditional Execution").
    public var minimumInterval: Interval = .hours(12)
    /// Test cadence: 90 days.
    public var testCadence: Interval = .days(90)
    /// No notification when the app was opened more recently: 24 h ("Notification Throttling").
    public var recentOpenSuppression: Interval = .hours(24)
    /// Hard stop inside the 30 s budget: 20 s (Phase 5.1, "Enforce 20-second max").
    public var hardStop: Interval = .seconds(20)
    public init() {}
}

/// The step sync's spec: the numbers the logic runs by and the oracle judges it by
/// (seed `003`'s by default; the reference takes each from a scenario's `logic.stepSync`).
public struct StepSyncSpec: Hashable, Sendable {
    /// Periodic work interval and the spacing of background syncs: about 2 h
    /// ("Configure with flexible interval (120 minutes target)").
    public var syncInterval: Interval = .hours(2)
    /// Backfill at most this far back ("Query health data for entire gap (up to 30 days max)").
    public var backfillLimit: Interval = .days(30)
    /// Delays before attempts 2, 3 and 4 ("Retry Strategy": +5, +10, +15 min; then wait
    /// for the next scheduled sync or the foreground).
    public var retryDelays: [Interval] = [.minutes(5), .minutes(10), .minutes(15)]
    /// Sync on app open when the last sync is at least this old ("If > 24 hours ago,
    /// trigger immediate sync"; 24:00 counts, as the seed's "24+ hours" does).
    public var openSyncAge: Interval = .hours(24)
    /// Notify when no sync has run for this long ("notify users if sync hasn't run for 24+ hours").
    public var staleNotificationAge: Interval = .hours(24)
    /// Battery low at or below this percent while unplugged (docs/platform-facts.md E: 15 %;
    /// seed `003`: "Skip on low battery - Always skip sync when battery is low (mandatory)").
    public var lowBatteryPercent: Int = 15
    public init() {}
}

/// The continuation's spec: the numbers the logic runs by and the oracle judges it by
/// (seed `004`'s by default; the reference takes each from a scenario's `logic.continuation`).
public struct ContinuationSpec: Hashable, Sendable {
    /// The background option is offered when the request is still running this long
    /// after it started: 10 s ("10-Second Detection").
    public var offerAfter: Interval = .seconds(10)
    /// Timeout of a hierarchical request: 300 s ("Timeout safety: 300 seconds").
    public var hierarchicalTimeout: Interval = .seconds(300)
    /// Timeout of a baseline request: 180 s ("Timeout safety: 180 seconds").
    public var baselineTimeout: Interval = .seconds(180)
    public init() {}

    public func timeout(_ mode: AnalysisMode) -> Interval {
        mode == .hierarchical ? hierarchicalTimeout : baselineTimeout
    }
}
