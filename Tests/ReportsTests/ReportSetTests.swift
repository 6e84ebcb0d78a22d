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
        // The directory itself stays (its contents are swapped, not it).
        #expect(try FileManager.default.attributesOfItem(atPath: out)[.systemFileNumber] as? NSNumber == inode)
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

    /// The output directory keeps its inode, mode, owner and group (a shell inside it is
    /// still in it), and at every step of the swap, where a kill could stop it, the
    /// directory's path shows one whole set, old or new, beside the other files.
    @Test func theDirectoryStaysAndEveryStepShowsOneWholeSet() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let out = root + "/run"
        try ReportSet.write(Self.set("old"), to: out)
        try "mine\n".write(toFile: out + "/notes.txt", atomically: false, encoding: .utf8)
        #expect(chmod(out, 0o2750) == 0)
        #expect(chown(out, getuid(), 4_321) == 0 || getuid() != 0)
        var before = stat()
        #expect(stat(out, &before) == 0)
        // A process whose current directory is the output directory (as a shell's).
        let shell = open(out, O_RDONLY | O_DIRECTORY)
        defer { close(shell) }

        var steps = 0
        try ReportSet.write(Self.set("new"), to: out, between: {
            steps += 1
            guard let now = try? Self.contents(out) else { Issue.record("step \(steps): unreadable"); return }
            let tags = Set(Self.names.map { now[$0]?.split(separator: " ").first.map(String.init) ?? "missing" })
            #expect(tags.count == 1 && tags.first != "missing", "step \(steps): \(now)")
            #expect(now["notes.txt"] == "mine\n", "step \(steps)")
            #expect(now.keys.sorted() == (Self.names + ["notes.txt"]).sorted(), "step \(steps): \(now.keys.sorted())")
        })
        #if os(Linux)
        #expect(steps == Self.names.count + 2)
        #endif
        var after = stat()
        #expect(stat(out, &after) == 0)
        #expect(after.st_ino == before.st_ino && after.st_mode == before.st_mode && after.st_uid == before.st_uid && after.st_gid == before.st_gid)
        var held = stat()
        #expect(fstat(shell, &held) == 0 && held.st_ino == after.st_ino && held.st_nlink > 0)
        #expect(try Self.contents(out) == Dictionary(uniqueKeysWithValues: Self.names.map { ($0, "new \($0)\n") } + [("notes.txt", "mine\n")]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["run"])
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
