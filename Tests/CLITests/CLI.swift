import Foundation

/// Runs the built `fleetsim` executable as a user would, capturing its output.
enum CLI {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The executable under test: the one FLEETSIM_TEST_BINARY names, else the one next to
    /// the test bundle (SwiftPM builds it for this test target). `make test` names the
    /// release build, the binary users run (`make run`, `make install`), in which the
    /// simulations these tests start take about a thirtieth of the debug build's CPU.
    static let executable: URL = {
        if let named = ProcessInfo.processInfo.environment["FLEETSIM_TEST_BINARY"] { return URL(fileURLWithPath: named) }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("fleetsim")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return packageRoot.appendingPathComponent(".build/debug/fleetsim")
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String], in directory: URL = packageRoot, executable: URL = executable) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read before waiting so a large output cannot fill the pipe and block.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// One directory per test process for every test's files, removed when the process
    /// exits, so that runs of the suite leave nothing behind in the temporary directory.
    static let scratch: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fleetsim-cli-\(UUID().uuidString)")
        atexit { try? FileManager.default.removeItem(at: CLI.scratch) }
        return url
    }()

    static func temporaryDirectory() throws -> URL {
        let url = scratch.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func write(_ text: String, to name: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
