import Foundation
import Testing

/// How far the features reach into the rest of the simulation (docs/architecture.md,
/// "Where each kind of change goes"), measured on Sources/Simulation as it is: per
/// feature, the files outside its own folder (Features/<F>/) and Oracle/ that name it,
/// and the files that extend `World`. Each count must stay at or under its ceiling, the
/// value when the ceiling was last set: a change that names a feature in one more file,
/// or adds an `extension World` file, fails here; one that removes names lowers the
/// ceiling with it.
///
/// A file names a feature when its text, comments included, contains one of the
/// feature's words, case-insensitively: what `grep -il` finds, so the counts are the
/// ones a reader reproduces by hand.
@Suite struct ArchitectureTests {
    /// A feature: its folder under Features/, the words that name it, and the most files
    /// outside its folder and Oracle/ that may name it.
    struct Feature: CustomStringConvertible {
        let folder: String
        let words: [String]
        let ceiling: Int
        var description: String { folder }
    }

    static let features = [
        Feature(folder: "Refresh", words: ["refresh"], ceiling: 24),
        Feature(folder: "StepSync", words: ["stepsync", "step sync", "syncsteps", "healthkit"], ceiling: 14),
        Feature(folder: "Continuation", words: ["continuation"], ceiling: 5),
        Feature(folder: "Push", words: ["push"], ceiling: 9),
        Feature(folder: "Badge", words: ["badge"], ceiling: 11),
    ]

    /// The most files that may hold an `extension World` (of `World` itself, not
    /// `WorldCore` or `WorldEvent`).
    static let worldExtensionsCeiling = 35

    static let simulation = Fixtures.packageRoot.appendingPathComponent("Sources/Simulation")

    /// Every Swift file under Sources/Simulation: its path from there and its text, lowercased.
    static func sources() throws -> [(path: String, text: String)] {
        let root = simulation.standardizedFileURL.path + "/"
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var files: [(path: String, text: String)] = []
        while let relative = walker.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            files.append((relative, try String(contentsOfFile: root + relative, encoding: .utf8).lowercased()))
        }
        return files.sorted { $0.path < $1.path }
    }

    /// The files outside `feature`'s folder and Oracle/ that name it.
    static func naming(_ feature: Feature, in files: [(path: String, text: String)]) -> [String] {
        files.filter { file in
            !file.path.hasPrefix("Features/\(feature.folder)/") && !file.path.hasPrefix("Oracle/")
                && feature.words.contains { file.text.contains($0) }
        }.map(\.path)
    }

    /// Whether `text` (lowercased) extends `World` itself.
    static func extendsWorld(_ text: String) -> Bool {
        var rest = Substring(text)
        while let found = rest.range(of: "extension world") {
            rest = rest[found.upperBound...]
            guard let next = rest.first, next.isLetter || next.isNumber || next == "_" else { return true }
        }
        return false
    }

    @Test(arguments: features) func eachFeatureIsNamedInAtMostItsCeilingOfFilesOutsideItsFolder(_ feature: Feature) throws {
        let files = try Self.sources()
        #expect(files.count > 50, "Sources/Simulation not found at \(Self.simulation.path)")
        let naming = Self.naming(feature, in: files)
        #expect(naming.count <= feature.ceiling, "\(feature) is named in \(naming.count) files outside Features/\(feature.folder)/ and Oracle/ (ceiling \(feature.ceiling)): \(naming)")
    }

    @Test func atMostTheCeilingOfFilesExtendWorld() throws {
        let extending = try Self.sources().filter { Self.extendsWorld($0.text) }.map(\.path)
        #expect(!extending.isEmpty)
        #expect(extending.count <= Self.worldExtensionsCeiling, "\(extending.count) files extend World (ceiling \(Self.worldExtensionsCeiling)): \(extending)")
    }

    /// The measure itself: a file counts once however often it names a feature, in any
    /// case, and only outside the feature's folder and Oracle/.
    @Test func theMeasureCountsFilesThatNameAFeatureOutsideItsFolder() {
        let push = Feature(folder: "Push", words: ["push"], ceiling: 0)
        let files = [("Core/A.swift", "// a push, another push"), ("Core/B.swift", "pushhost.section()"),
                     ("Features/Push/PushHost.swift", "push"), ("Oracle/PushChecker.swift", "push"),
                     ("Features/Refresh/RefreshHost.swift", "the push"), ("Core/C.swift", "refresh")]
            .map { (path: $0.0, text: $0.1.lowercased()) }
        #expect(Self.naming(push, in: files) == ["Core/A.swift", "Core/B.swift", "Features/Refresh/RefreshHost.swift"])
        #expect(Self.extendsWorld("extension world {") && Self.extendsWorld("extension world: sendable {"))
        #expect(!Self.extendsWorld("extension worldcore {") && !Self.extendsWorld("extension worldevent {"))
        #expect(Self.extendsWorld("extension worldcore {}\nextension world {"))
    }
}
