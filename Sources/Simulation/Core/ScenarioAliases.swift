import Scenario

/// The scenario's platform name (`"ios"` / `"android"`); the alias avoids the clash
/// between the `Platform` module and the `Scenario` module's `Platform` enum.
typealias CohortPlatform = Platform
