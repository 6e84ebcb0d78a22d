import Foundation
import Testing

/// docs/adapters.md's refresh adapter is this directory's RefreshAdapter.swift, which
/// this target compiles: the page shows code that builds against AppLogic as it is.
@Suite struct AdapterSampleDocTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test func thePagesAdapterIsTheCompiledFile() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/adapters.md"), encoding: .utf8)
        let file = try String(contentsOf: Self.root.appendingPathComponent("Tests/AppLogicTests/AdapterSample/RefreshAdapter.swift"), encoding: .utf8)
        let blocks = page.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```\n")[0] }
        let adapter = blocks.filter { $0.contains("final class RefreshAdapter") }
        #expect(adapter.count == 1, "docs/adapters.md shows the refresh adapter \(adapter.count) time(s)")
        #expect(adapter.first == file, "docs/adapters.md's refresh adapter differs from Tests/AppLogicTests/AdapterSample/RefreshAdapter.swift: copy the file into the page")
    }
}
