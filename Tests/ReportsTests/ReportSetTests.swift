import Foundation
import Testing
@testable import Reports

/// `ReportSet`: a failure at any file of the set leaves the previous set and the
/// directory's other files as they were, and no temporary anywhere; a success replaces
/// every file of the set at once.
@Suite struct ReportSetTests {
    static let names = ["report.json", "report.md", "report.html", "junit.xml"]

    struct Injected: Error {}

    static func set(_ tag: String) -> [(name: String, bytes: [UInt8])] {
        names.map { ($0, Array("\(tag) \($0)\n".utf8)) }
    }

    static func scratch() throws -> String {
        var template = Array((NSTemporaryDirectory() + "/report-set-tests-XXXXXX").utf8CString)
        guard let result = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
        return String(cString: result)
    }

    static func contents(_ directory: String) throws -> [String: String] {
        var out: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            out[name] = try String(contentsOfFile: "\(directory)/\(name)", encoding: .utf8)
        }
        return out
    }

    @Test func aFailureAtEveryFileLeavesThePreviousSetAndNoTemporary() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let out = root + "/reports/run"
        try ReportSet.write(Self.set("old"), to: out)
        try "mine\n".write(toFile: out + "/notes.txt", atomically: false, encoding: .utf8)
        let before = try Self.contents(out)
        #expect(before.count == 5 && before["report.json"] == "old report.json\n")
        for failing in 1...Self.names.count {
            var written = 0
            #expect(throws: Injected.self) {
                try ReportSet.write(Self.set("new"), to: out) { bytes, path in
                    written += 1
                    if written == failing { throw Injected() }
                    try AtomicFile.write(bytes: bytes, to: path)
                }
            }
            #expect(try Self.contents(out) == before, "failure at file \(failing)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/reports") == ["run"], "failure at file \(failing)")
        }
        let inode = try FileManager.default.attributesOfItem(atPath: out)[.systemFileNumber] as? NSNumber
        try ReportSet.write(Self.set("new"), to: out)
        #if os(Linux)
        // Swapped in one step: a new directory in its place, not files renamed into the old one.
        #expect(try FileManager.default.attributesOfItem(atPath: out)[.systemFileNumber] as? NSNumber != inode)
        #endif
        var after = before
        for name in Self.names { after[name] = "new \(name)\n" }
        #expect(try Self.contents(out) == after)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/reports") == ["run"])
        let mode = try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o755 & ~Int(Self.umask()))
    }

    static func umask() -> mode_t {
        let mask = Foundation.umask(0)
        Foundation.umask(mask)
        return mask
    }

    @Test func aNewDirectoryIsCreatedWhole() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var written = 0
        #expect(throws: Injected.self) {
            try ReportSet.write(Self.set("new"), to: root + "/a/b/") { bytes, path in
                written += 1
                if written == 2 { throw Injected() }
                try AtomicFile.write(bytes: bytes, to: path)
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/a") == [])
        try ReportSet.write(Self.set("new"), to: root + "/a/b/")
        #expect(try Self.contents(root + "/a/b").count == 4)
    }

    /// Temporaries of a process that no longer runs (a killed run) and interrupted
    /// single-file writes are removed by the next write; a live process's are kept.
    @Test func staleTemporariesOfEarlierRunsAreRemoved() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let out = root + "/run"
        try ReportSet.write(Self.set("old"), to: out)
        let dead = Process()
        dead.executableURL = URL(fileURLWithPath: "/bin/true")
        try dead.run()
        dead.waitUntilExit()
        let stale = root + "/.run.fleetsim-set-\(dead.processIdentifier)-abcdef"
        let live = root + "/.run.fleetsim-set-\(getpid())-ghijkl"
        for dir in [stale, live] {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
            try "partial\n".write(toFile: dir + "/report.json", atomically: false, encoding: .utf8)
        }
        try "partial\n".write(toFile: out + "/.report.json.tmp-Ab12Cd", atomically: false, encoding: .utf8)
        try ReportSet.write(Self.set("new"), to: out)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == [".run.fleetsim-set-\(getpid())-ghijkl", "run"])
        #expect(try Self.contents(out).keys.sorted() == Self.names.sorted())
    }

    /// The current directory and those above it are never swapped (the caller would be
    /// left in a removed directory).
    @Test func theCurrentDirectoryAndItsAncestorsAreNotSwapped() {
        #expect(ReportSet.holds("/a/b", "/a/b") && ReportSet.holds("/a", "/a/b") && ReportSet.holds("/", "/a"))
        #expect(!ReportSet.holds("/a/b", "/a") && !ReportSet.holds("/a/b", "/a/bc"))
    }

    /// A directory with a subdirectory cannot be swapped: the files are replaced one by
    /// one, and the subdirectory stays.
    @Test func aDirectoryWithASubdirectoryGetsEachFileInPlace() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/run/keep", withIntermediateDirectories: true)
        try ReportSet.write(Self.set("new"), to: root + "/run")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/run").sorted() == (Self.names + ["keep"]).sorted())
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["run"])
    }
}
