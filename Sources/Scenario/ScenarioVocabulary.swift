/// The names a scenario may use that belong to the logic it runs, handed to
/// ``ScenarioDecoder`` by the caller, so that the decoder names no logic's vocabulary
/// itself: the known-bug variants of `logic.variants`.
public struct ScenarioVocabulary: Sendable {
    /// The variant names `logic.variants` may list (the logic set's).
    public var variants: [String]

    public init(variants: [String]) {
        self.variants = variants
    }

    /// The reference logic's: every variant of ``Catalog/variants``.
    public static let reference = ScenarioVocabulary(variants: Catalog.variants.map(\.name))
}
