import Foundation
import Scenario
import Simulation

/// Shipped scenario files, read from the package's `scenarios/` folder.
enum Fixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func path(_ relative: String) -> String { packageRoot.appendingPathComponent(relative).path }

    static func scenario(_ relative: String) throws -> Scenario {
        try ScenarioDecoder.load(path: path(relative), vocabulary: ReferenceWorld.scenarioVocabulary)
    }

    static func decode(_ json: String, file: String = "inline.json") throws -> Scenario {
        try ScenarioDecoder.decode(Array(json.utf8), file: file, vocabulary: ReferenceWorld.scenarioVocabulary)
    }
}
