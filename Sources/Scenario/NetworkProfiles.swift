import SimKernel

/// The named network profiles a cohort's `network.profile` picks, and the defaults each
/// supplies. Keys written next to `profile` override these.
///
/// These numbers are **assumptions** of FleetSim's network model (no measurement
/// backs them yet): a plausible latency distribution, in-transit failure rate and
/// offline spells for each kind of user. Change them here, or override per cohort.
///
/// | profile  | latency (median / p99) | failureRate | offlineSpellsPerDay | offlineSpellDuration (median / p99) | homeWiFi |
/// |----------|------------------------|-------------|---------------------|-------------------------------------|----------|
/// | urban    | 80 ms / 600 ms         | 0.005       | 0.5                 | 10 min / 2 h                        | 0.85     |
/// | rural    | 250 ms / 2 s           | 0.02        | 1.5                 | 30 min / 6 h                        | 0.7      |
/// | commuter | 150 ms / 1500 ms       | 0.01        | 4                   | 5 min / 45 min                      | 0.85     |
/// | flaky    | 400 ms / 5 s           | 0.08        | 6                   | 20 min / 4 h                        | 0.5      |
///
/// **Assumption** (`homeHours`): a user with Wi-Fi at home is on it from 19:00 to 08:00
/// in their local time, and on cellular otherwise.
extension NetworkConfig {
    public static let profiles: [NetworkConfig] = [
        profile("urban", latency: (.milliseconds(80), .milliseconds(600)), failureRate: 0.005,
                spellsPerDay: 0.5, spell: (.minutes(10), .hours(2)), homeWiFi: 0.85),
        profile("rural", latency: (.milliseconds(250), .seconds(2)), failureRate: 0.02,
                spellsPerDay: 1.5, spell: (.minutes(30), .hours(6)), homeWiFi: 0.7),
        profile("commuter", latency: (.milliseconds(150), .milliseconds(1_500)), failureRate: 0.01,
                spellsPerDay: 4, spell: (.minutes(5), .minutes(45)), homeWiFi: 0.85),
        profile("flaky", latency: (.milliseconds(400), .seconds(5)), failureRate: 0.08,
                spellsPerDay: 6, spell: (.minutes(20), .hours(4)), homeWiFi: 0.5),
    ]

    /// **Assumption**: the local hours a user with home Wi-Fi is on it, `from` ..< 24 and 0 ..< `until`.
    public static let homeHours = (from: 19, until: 8)

    /// The defaults of the profile called `name`, or nil.
    public static func profile(named name: String) -> NetworkConfig? {
        profiles.first { $0.profile == name }
    }

    private static func profile(_ name: String, latency: (SimDuration, SimDuration), failureRate: Double,
                                spellsPerDay: Double, spell: (SimDuration, SimDuration), homeWiFi: Double) -> NetworkConfig {
        NetworkConfig(profile: name,
                      latency: .lognormal(median: micros(latency.0), p99: micros(latency.1)),
                      failureRate: failureRate,
                      offlineSpellsPerDay: spellsPerDay,
                      offlineSpellDuration: .lognormal(median: micros(spell.0), p99: micros(spell.1)),
                      homeWiFi: homeWiFi)
    }
}
