import SimKernel

/// When a user picks up the phone (a screen session) and when they open the app: two
/// non-homogeneous Poisson processes whose rate follows a ``DiurnalCurve`` in the user's
/// true local time (``DeviceClock/userLocalTime(at:startUnixSeconds:zones:)``: where the
/// user is, no clock skew), drawn by thinning (Lewis & Shedler 1979).
///
/// Thinning: candidates arrive at the curve's peak rate, `perDay × max/mean`; one at
/// local hour h is kept with probability `weight(h) / max`. Hour shares of the kept
/// arrivals are the curve's shares exactly, across DST changes and travel, because each
/// candidate's hour is read from the zone at that instant.
///
/// An app open is its own process, not a subset of screen sessions: the world turns the
/// screen on for the open (``ScreenState/sessionStarts(now:length:)``).
/// These drive the iOS launch policy (``LaunchPolicyState/appOpened(at:localHour:model:)``),
/// Doze (screen on/off) and standby buckets.
///
/// Use separate random streams per process (purposes `"user.screen"`, `"user.open"`),
/// so a change of one rate never shifts the other's draws.
public struct UserBehaviorModel: Sendable {
    public var curve: DiurnalCurve
    /// **Assumption** (overridable): 40 screen sessions a day.
    public var screenSessionsPerDay: Double
    /// Length of a screen session, microseconds. **Assumption** (overridable):
    /// lognormal, median 1 min, p99 30 min.
    public var screenSessionLength: Distribution
    /// The cohort's `usage.appOpensPerDay` (scenario default 2.5).
    public var appOpensPerDay: Double

    /// At most this many candidates in hours of positive weight per draw: a bound on the
    /// loop. The last one is kept if all before it were thinned away, a bias that needs
    /// 999 rejections in a row: below (1 − 0.05/1.7)^999 ≈ 1e-13 for ``DiurnalCurve/phoneUse``.
    /// Candidates in hours of weight 0 do not count: they skip to the hour's end.
    public static let candidateLimit = 1_000

    /// Arrivals later than this (µs of simulated time, a quarter of the clock's range) are none.
    public static let horizon = Int64.max / 4

    public init(curve: DiurnalCurve = .phoneUse, screenSessionsPerDay: Double = 40,
                screenSessionLength: Distribution = .lognormal(median: 60e6, p99: 1_800e6),
                appOpensPerDay: Double = 2.5) {
        self.curve = curve
        self.screenSessionsPerDay = screenSessionsPerDay
        self.screenSessionLength = screenSessionLength
        self.appOpensPerDay = appOpensPerDay
    }

    /// The next screen session's start after `now`; nil only when the rate is zero.
    public func nextScreenSession(after now: SimTime, rng: inout RandomStream, zone: inout LocalTimeZone, startUnixSeconds: Int64) -> SimTime? {
        nextArrival(after: now, perDay: screenSessionsPerDay, rng: &rng, zone: &zone, startUnixSeconds: startUnixSeconds)
    }

    /// The next app open after `now`; nil only when the rate is zero.
    public func nextAppOpen(after now: SimTime, rng: inout RandomStream, zone: inout LocalTimeZone, startUnixSeconds: Int64) -> SimTime? {
        nextArrival(after: now, perDay: appOpensPerDay, rng: &rng, zone: &zone, startUnixSeconds: startUnixSeconds)
    }

    public func sessionLength(rng: inout RandomStream) -> SimDuration {
        screenSessionLength.sampleDuration(&rng)
    }

    /// The next arrival of a process of mean `perDay` arrivals a day shaped by `curve`;
    /// nil only when `perDay` is zero (or not finite), or so small that the arrival falls
    /// beyond ``horizon``: then there is none, ever.
    ///
    /// A candidate in a local hour of weight 0 is never kept, and nothing can arrive in
    /// the rest of that hour, so the draw restarts at the hour's end (exact, as the
    /// exponential gaps are memoryless). A high rate asked in a long zero-weight night
    /// thus still finds the morning's arrival.
    public func nextArrival(after now: SimTime, perDay: Double, rng: inout RandomStream, zone: inout LocalTimeZone, startUnixSeconds: Int64) -> SimTime? {
        guard perDay > 0, perDay.isFinite else { return nil }
        let peakGapSeconds = 86_400 / (perDay * curve.maxWeight / curve.meanWeight)
        let hour: Int64 = 3_600_000_000
        var t = now
        var candidates = 0
        while true {
            t = t + .fromSeconds(rng.exponential(mean: peakGapSeconds))
            // Beyond ~73,000 years (a rate near zero): none, rather than overflow local time.
            guard t.microseconds < Self.horizon else { return nil }
            let local = zone.localTime(atUnixMicroseconds: startUnixSeconds * 1_000_000 + t.microseconds)
            let weight = curve.weights[local.hour]
            if weight == 0 {
                t = t + SimDuration(microseconds: hour - local.microsecondsIntoDay % hour)
                continue
            }
            candidates += 1
            if rng.uniform() * curve.maxWeight < weight || candidates == Self.candidateLimit { return t }
        }
    }
}
