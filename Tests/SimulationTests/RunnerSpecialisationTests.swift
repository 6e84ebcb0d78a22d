import Foundation
import Testing

/// What lets an app's runner specialise `World<ItsLogics>` as `fleetsim` does
/// (docs/architecture.md, "Specialisation across modules"): every FleetSim target is built
/// in release with cross-module optimisation and `-enable-testing`, and no function
/// carries `@_specialize`, which cross-module optimisation skips. Both were found by
/// counting instructions: a runner missing either ran 30-60 % more.
@Suite struct RunnerSpecialisationTests {
    static func text(_ path: String) throws -> String {
        try String(contentsOf: Fixtures.packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func everySwiftTargetIsBuiltWithCrossModuleOptimisation() throws {
        let manifest = try Self.text("Package.swift")
        let settings = try #require(manifest.split(separator: "\n").first { $0.hasPrefix("let crossModule") })
        #expect(settings.contains("\"-cross-module-optimization\"") && settings.contains("\"-enable-testing\""), "\(settings)")
        let targets = manifest.split(separator: "\n").filter { $0.contains(".target(name:") }
        #expect(targets.count >= 9)
        // MemoryHints is C: no Swift bodies to carry.
        for target in targets where !target.contains("\"MemoryHints\"") {
            #expect(target.contains("swiftSettings: crossModule"), "\(target)")
        }
    }

    @Test func noFunctionIsPrespecialised() throws {
        let root = Fixtures.packageRoot.appendingPathComponent("Sources").standardizedFileURL.path + "/"
        let walker = try #require(FileManager.default.enumerator(atPath: root))
        var swiftFiles = 0, specialised: [String] = []
        while let relative = walker.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            swiftFiles += 1
            if try String(contentsOfFile: root + relative, encoding: .utf8).contains("@_specialize") { specialised.append(relative) }
        }
        #expect(swiftFiles > 100)
        #expect(specialised.isEmpty, "\(specialised)")
    }
}
