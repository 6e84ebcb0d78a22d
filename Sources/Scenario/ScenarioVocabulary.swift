/// The names a scenario may use that belong to the logic it runs, handed to
/// ``ScenarioDecoder`` by the caller, so that the decoder names no logic's vocabulary
/// itself: the known-bug variants of `logic.variants`, the judges' rules
/// `judges.off` may switch off, and the endpoint paths `backend.endpoints` may name.
public struct ScenarioVocabulary: Sendable {
    /// The variant names `logic.variants` may list (the logic set's).
    public var variants: [String]
    /// The rules `judges.off` may name (the simulator's violation kinds); nil: any
    /// non-empty name, which the world then matches against its own (an unknown one
    /// switches nothing off).
    public var judgeRules: [String]?
    /// The endpoint paths `backend.endpoints` may name (the features' endpoints, as
    /// report.json names them); nil: any path, which the world then matches against
    /// its own (an unknown one changes no service time).
    public var endpoints: [String]?

    public init(variants: [String], judgeRules: [String]? = nil, endpoints: [String]? = nil) {
        self.variants = variants
        self.judgeRules = judgeRules
        self.endpoints = endpoints
    }

    /// The reference logic's variants (every one of ``Catalog/variants``); the rules are
    /// the simulator's to check (Simulation's `World.scenarioVocabulary` lists them).
    public static let reference = ScenarioVocabulary(variants: Catalog.variants.map(\.name))
}
