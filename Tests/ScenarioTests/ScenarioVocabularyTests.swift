import Testing
import Scenario

/// `logic.variants` takes the names of the logic in use, handed to the decoder
/// (``ScenarioVocabulary``): an app's own set's names pass, the reference's are refused
/// for it; the reference's list is the default.
@Suite struct ScenarioVocabularyTests {
    static func scenario(variants: String) -> [UInt8] {
        Array(#"{"name": "x", "duration": "1d", "fleet": [{"cohort": "a", "count": 1, "platform": "ios"}], "logic": {"variants": [\#(variants)]}}"#.utf8)
    }

    static let own = ScenarioVocabulary(features: ScenarioVocabulary.reference.features, variants: ["refresh.completesTwice"])

    @Test func theVariantsOfTheLogicInUseAreAccepted() throws {
        let scenario = try ScenarioDecoder.decode(Self.scenario(variants: #""refresh.completesTwice""#), file: "own.json", vocabulary: Self.own)
        #expect(scenario.logic.variants == ["refresh.completesTwice"])
        #expect(try ScenarioDecoder.decode(Self.scenario(variants: #""refresh.noSynchronize""#), file: "ref.json", vocabulary: .reference).logic.variants == ["refresh.noSynchronize"])
    }

    @Test(arguments: [("refresh.noSynchronize", true), ("refresh.completesTwice", false)])
    func anotherLogicsVariantIsRefusedWithItsPath(_ name: String, own: Bool) {
        do {
            _ = try ScenarioDecoder.decode(Self.scenario(variants: "\"\(name)\""), file: "bad.json", vocabulary: own ? Self.own : .reference)
            Issue.record("accepted \(name)")
        } catch {
            #expect(error.path == "$.logic.variants[0]", "\(error)")
            #expect(error.found.contains(name), "\(error)")
        }
    }
}
