import SimKernel

/// Seed `004`'s analysis modes, by name.
public enum AnalysisModeName: String, Sendable, Equatable, CaseIterable { case hierarchical, baseline }

/// The buttons of seed `004`'s alert, by name.
public enum ContinuationChoiceName: String, Sendable, Equatable, CaseIterable { case continueHere, moveOn, cancel }

/// `fleet[].continuation`: how a cohort's users use the long request of seed `004`,
/// how long the server takes, and the OS's background time. The seed gives no user
/// probabilities: each default here is a named **Assumption** (README).
public struct ContinuationUsage: Sendable, Equatable {
    /// Probability that an app open starts an analysis. **Assumption**: 0.1.
    public var startProbability: Double
    /// Which mode an analysis uses. **Assumption**: half each.
    public var modes: Categorical<AnalysisModeName>
    /// What the user answers when the alert appears. **Assumption**: continue here 0.4,
    /// move on 0.5, cancel 0.1.
    public var choice: Categorical<ContinuationChoiceName>
    /// The server's time for a hierarchical analysis. Seed `004`: "Average time: 15-30
    /// seconds"; **Assumption**: lognormal, median 22.5 s, p99 2 min.
    public var hierarchicalTime: Distribution
    /// The server's time for a baseline analysis. Seed `004`: "Average time: 5-15 seconds";
    /// **Assumption**: lognormal, median 10 s, p99 1 min.
    public var baselineTime: Distribution
    /// iOS: the time `beginBackgroundTask` grants after the app leaves the foreground.
    /// Apple documents no figure (`docs/platform-facts.md`, "Unverified": "A time limit for
    /// `beginBackgroundTask`"); **Assumption**: 30 s, the figure of the other iOS
    /// background allowances of `docs/platform-facts.md` F.
    public var backgroundTime: SimDuration

    public static let defaults = ContinuationUsage(
        startProbability: 0.1,
        modes: Categorical([(value: .hierarchical, weight: 0.5), (value: .baseline, weight: 0.5)]),
        choice: Categorical([(value: .continueHere, weight: 0.4), (value: .moveOn, weight: 0.5), (value: .cancel, weight: 0.1)]),
        hierarchicalTime: .lognormal(median: micros(.milliseconds(22_500)), p99: micros(.minutes(2))),
        baselineTime: .lognormal(median: micros(.seconds(10)), p99: micros(.minutes(1))),
        backgroundTime: .seconds(30))
}
