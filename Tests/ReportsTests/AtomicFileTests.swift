import Foundation
import Testing
import Reports

@Suite struct AtomicFileTests {
    /// A fresh private directory (mkdtemp), removed by the caller.
    private func makeScratchDirectory() throws -> String {
        var template = Array((NSTemporaryDirectory() + "/reports-tests-XXXXXX").utf8CString)
        guard let result = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
        return String(cString: result)
    }

    @Test func createsDirectoriesAndReplacesContentLeavingNoTemporaryFiles() throws {
        let scratch = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let path = scratch + "/out/nested/report.json"

        try AtomicFile.write("first\n", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "first\n")

        try AtomicFile.write("second, longer than the first\n", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "second, longer than the first\n")

        try AtomicFile.write("", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "")

        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch + "/out/nested") == ["report.json"])
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o644)
    }

    @Test func writesRelativePathsAndLargeContent() throws {
        let scratch = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let big = String(repeating: "0123456789abcdef", count: 1 << 16)  // 1 MiB
        try AtomicFile.write(big, to: scratch + "/big.txt")
        #expect(try String(contentsOfFile: scratch + "/big.txt", encoding: .utf8) == big)
    }

    @Test func failureLeavesTargetAndDirectoryUntouched() throws {
        let scratch = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }

        // The target is an existing non-empty directory: rename must fail.
        try FileManager.default.createDirectory(atPath: scratch + "/target/inner", withIntermediateDirectories: true)
        #expect(throws: AtomicFile.Error.self) { try AtomicFile.write("x", to: scratch + "/target") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch) == ["target"])

        // A parent is a regular file: the directory cannot be created.
        try AtomicFile.write("plain", to: scratch + "/file")
        do {
            try AtomicFile.write("x", to: scratch + "/file/child.json")
            Issue.record("expected a failure")
        } catch let error as AtomicFile.Error {
            #expect(error.operation == "createDirectory")
            #expect(error.description.contains("file/child.json"))
        }
        #expect(try String(contentsOfFile: scratch + "/file", encoding: .utf8) == "plain")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).sorted() == ["file", "target"])

        #expect(throws: AtomicFile.Error.self) { try AtomicFile.write("x", to: scratch + "/dir/") }
    }
}
