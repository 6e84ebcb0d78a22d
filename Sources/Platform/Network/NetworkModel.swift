import SimKernel

/// Per-device connectivity for one request: round-trip latency, loss in transit, and
/// offline spells. The profile numbers are named assumptions (README, "Assumptions").
public struct NetworkModel: Sendable {
    /// Round-trip latency, microseconds.
    public var latency: Distribution
    /// Probability that a request fails in transit.
    public var failureRate: Double
    public var offlineSpellsPerDay: Double
    /// Length of an offline spell, microseconds.
    public var offlineSpellDuration: Distribution

    public init(latency: Distribution, failureRate: Double, offlineSpellsPerDay: Double, offlineSpellDuration: Distribution) {
        self.latency = latency
        self.failureRate = failureRate
        self.offlineSpellsPerDay = offlineSpellsPerDay
        self.offlineSpellDuration = offlineSpellDuration
    }

    /// Time until the next offline spell starts (Poisson arrivals), or nil when there are none.
    public func nextSpell(rng: inout RandomStream) -> SimDuration? {
        guard offlineSpellsPerDay > 0 else { return nil }
        return .fromSeconds(rng.exponential(mean: 86_400 / offlineSpellsPerDay))
    }
}
