import SimKernel

/// `logic`: the sections the world's features declare (``ScenarioVocabulary/logicSections``,
/// each decoded by its feature) and `variants` (known-bug variant names of the logic in
/// use, each at most once, each built in this version).
enum LogicDecoder {
    static func decode(_ node: ScenarioNode, vocabulary: ScenarioVocabulary) throws(ScenarioError) -> LogicConfig {
        var logic = LogicConfig.defaults
        var slots = SectionSlots(vocabulary.logicSections)
        let example = vocabulary.logicSections.first.map { "\(JSONValue.quoteForMessage($0.key)): {}, " } ?? ""
        for member in try node.members("a logic object, e.g. {\(example)\"variants\": []}") {
            if member.key == "variants" {
                logic.variants = try variants(member.node, known: vocabulary.variants)
            } else if try !slots.decode(member) {
                throw member.unknownKey(among: slots.keys + ["variants"])
            }
        }
        logic.sections = slots.sections
        return logic
    }

    /// The names of `known` (the logic in use's), each at most once.
    static func variants(_ node: ScenarioNode, known: [String]) throws(ScenarioError) -> [String] {
        let expectedOne = known.first.map { "a known-bug variant name such as \(JSONValue.quoteForMessage($0)) (see docs/scenario.md, \"Variants\")" }
            ?? "no variant: the logic in use plants none"
        let example = known.first.map { "[\(JSONValue.quoteForMessage($0))]" } ?? "[]"
        var names: [String] = []
        for element in try node.elements("an array of variant names, e.g. \(example)") {
            let name = try element.name(among: known, expectedOne)
            guard !names.contains(name) else {
                throw element.error(expected: "each variant at most once", found: "\(JSONValue.quoteForMessage(name)) a second time")
            }
            names.append(name)
        }
        return names
    }
}
