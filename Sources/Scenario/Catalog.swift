/// What a scenario may name, and which of those this build can run yet (the known-bug
/// variants are the logic set's, ``ScenarioVocabulary/variants``).
/// A name that exists but is not built answers "not available yet" (exit 2), as
/// `docs/scenario.md` promises; a name that does not exist is an error.
public enum Catalog {
    /// Platforms a cohort can use in this build.
    public static let availablePlatforms: [Platform] = [.ios, .android]

    /// Fault kinds of `docs/scenario.md` and whether they are built.
    public static let faultKinds: [(name: String, available: Bool)] = [
        ("backendOutage", true),
        ("backendSlowdown", true),
        ("networkOutage", true),
        ("networkLatency", true),
        ("pushProviderErrors", true),
        ("pushProviderOutage", true),
        ("clockSkew", true),
        ("timeZoneChange", true),
        ("appTermination", true),
        ("authExpiry", true),
        ("lowPowerMode", true),
    ]

    /// Network profiles and their defaults.
    public static let networkProfiles = ["urban", "rural", "commuter", "flaky"]
}
