/// The names a scenario may use that belong to the logic it runs, handed to
/// ``ScenarioDecoder`` by the caller, so that the decoder names no logic's vocabulary
/// itself: the known-bug variants of `logic.variants`, and the judges' rules
/// `judges.off` may switch off.
public struct ScenarioVocabulary: Sendable {
    /// The variant names `logic.variants` may list (the logic set's).
    public var variants: [String]
    /// The rules `judges.off` may name (the simulator's violation kinds); nil: any
    /// non-empty name, which the world then matches against its own (an unknown one
    /// switches nothing off).
    public var judgeRules: [String]?

    public init(variants: [String], judgeRules: [String]? = nil) {
        self.variants = variants
        self.judgeRules = judgeRules
    }

    /// The reference logic's variants (every one of ``Catalog/variants``); the rules are
    /// the simulator's to check (Simulation's `World.scenarioVocabulary` lists them).
    public static let reference = ScenarioVocabulary(variants: Catalog.variants.map(\.name))
}
