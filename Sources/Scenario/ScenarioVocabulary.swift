/// The names a scenario may use that belong to the world and the logic that run it,
/// handed to ``ScenarioDecoder`` by the caller, so that the decoder names no feature's
/// nor logic's vocabulary itself: the features a cohort may run, the known-bug variants
/// of `logic.variants`, the judges' rules `judges.off` may switch off, and the endpoint
/// paths `backend.endpoints` may name, and the sections its features declare at the top
/// level, under `logic` and under a cohort (``ScenarioSection``).
public struct ScenarioVocabulary: Sendable {
    /// The features a cohort's `features` may name, in the world's order; a cohort that
    /// names none runs those ``Feature/byDefault`` (Simulation's `World.scenarioVocabulary`
    /// lists them).
    public var features: [Feature]
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
    /// The keys `logic` takes besides `variants`, each a feature's section, in the order
    /// an unknown key's message lists them.
    public var logicSections: [ScenarioSectionKey]
    /// The keys a cohort takes for the features' own sections (before `energy` in an
    /// unknown key's message).
    public var cohortSections: [ScenarioSectionKey]
    /// The top-level keys of the features' own sections (before `judges` in an unknown
    /// key's message).
    public var topLevelSections: [ScenarioSectionKey]

    public init(features: [Feature], variants: [String], judgeRules: [String]? = nil, endpoints: [String]? = nil,
                logicSections: [ScenarioSectionKey] = [], cohortSections: [ScenarioSectionKey] = [],
                topLevelSections: [ScenarioSectionKey] = []) {
        self.features = features
        self.variants = variants
        self.judgeRules = judgeRules
        self.endpoints = endpoints
        self.logicSections = logicSections
        self.cohortSections = cohortSections
        self.topLevelSections = topLevelSections
    }

    /// The features a cohort that lists none runs.
    public var defaultFeatures: [Feature] { features.filter(\.byDefault) }
}
