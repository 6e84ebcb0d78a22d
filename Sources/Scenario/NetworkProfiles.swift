import SimKernel

/// The named network profiles a cohort's `network.profile` picks, and the defaults each
/// supplies. Keys written next to `profile` override these.
///
/// These numbers are **assumptions** of FleetSim's network model (no measurement
/// backs them yet): a plausible latency distribution, in-transit failure rate and
/// offline spells for each kind of user. Change them here, or override per cohort.
///
/// | profile  | latency (median / p99) | failureRate | offlineSpellsPerDay | offlineSpellDuration (median / p99) |
/// |----------|------------------------|-------------|---------------------|-------------------------------------|
/// | urban    | 80 ms / 600 ms         | 0.005       | 0.5                 | 10 min / 2 h                        |
/// | rural    | 250 ms / 2 s           | 0.02        | 1.5                 | 30 min / 6 h                        |
/// | commuter | 150 ms / 1500 ms       | 0.01        | 4                   | 5 min / 45 min                      |
/// | flaky    | 400 ms / 5 s           | 0.08        | 6                   | 20 min / 4 h                        |
extension NetworkConfig {
    public static let profiles: [NetworkConfig] = [
        profile("urban", latency: (.milliseconds(80), .milliseconds(600)), failureRate: 0.005,
                spellsPerDay: 0.5, spell: (.minutes(10), .hours(2))),
        profile("rural", latency: (.milliseconds(250), .seconds(2)), failureRate: 0.02,
                spellsPerDay: 1.5, spell: (.minutes(30), .hours(6))),
        profile("commuter", latency: (.milliseconds(150), .milliseconds(1_500)), failureRate: 0.01,
                spellsPerDay: 4, spell: (.minutes(5), .minutes(45))),
        profile("flaky", latency: (.milliseconds(400), .seconds(5)), failureRate: 0.08,
                spellsPerDay: 6, spell: (.minutes(20), .hours(4))),
    ]

    /// The defaults of the profile called `name`, or nil.
    public static func profile(named name: String) -> NetworkConfig? {
        profiles.first { $0.profile == name }
    }

    private static func profile(_ name: String, latency: (SimDuration, SimDuration), failureRate: Double,
                                spellsPerDay: Double, spell: (SimDuration, SimDuration)) -> NetworkConfig {
        NetworkConfig(profile: name,
                      latency: .lognormal(median: micros(latency.0), p99: micros(latency.1)),
                      failureRate: failureRate,
                      offlineSpellsPerDay: spellsPerDay,
                      offlineSpellDuration: .lognormal(median: micros(spell.0), p99: micros(spell.1)))
    }
}
