import Foundation
import Testing
import Scenario
import Simulation
@testable import FleetSimCLI

/// The memory guard (docs/scale.md, "Memory"): the limits it reads, the estimate of what
/// grows with a run's length, and the commands that read reports or a scenario.
@Suite struct MemoryGuardTests {
    static func write(_ text: String, _ path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// cgroup v2's `memory.max` and v1's `memory.limit_in_bytes`, each less what the
    /// cgroup uses, for the process's cgroup and its ancestors; "max" and v1's
    /// "unlimited" are no limit, and a path a container does not mount is walked up to
    /// the root it sees.
    @Test func theGuardReadsCgroupV2AndV1() throws {
        let root = try CLI.temporaryDirectory().path
        try Self.write("1073741824\n", root + "/a/b/memory.max")
        try Self.write("268435456\n", root + "/a/b/memory.current")
        try Self.write("max\n", root + "/a/memory.max")
        try Self.write("5\n", root + "/a/memory.current")
        try Self.write("536870912\n", root + "/memory/x/y/memory.limit_in_bytes")
        try Self.write("134217728\n", root + "/memory/x/y/memory.usage_in_bytes")
        try Self.write("9223372036854771712\n", root + "/memory/memory.limit_in_bytes")
        try Self.write("1\n", root + "/memory/memory.usage_in_bytes")
        let limits = MemoryGuard.cgroupLimits("12:cpu,cpuacct:/x/y\n9:blkio,memory:/x/y\n0::/a/b\n", root: root)
        #expect(limits == [
            .init(bytes: 805_306_368, source: "the cgroup's memory.max less memory.current, \(root)/a/b"),
            .init(bytes: 402_653_184, source: "the cgroup's memory.limit_in_bytes less memory.usage_in_bytes, \(root)/memory/x/y"),
        ])
        #expect(MemoryGuard.parse(cgroupV1: "4:memory:/docker/abc\n") == "/docker/abc")
        #expect(MemoryGuard.parse(cgroupV1: "0::/a\n3:cpu:/b\n") == nil)
        // A container's own cgroup is the root it mounts.
        let container = try CLI.temporaryDirectory().path
        try Self.write("104857600\n", container + "/memory/memory.limit_in_bytes")
        try Self.write("0\n", container + "/memory/memory.usage_in_bytes")
        #expect(MemoryGuard.cgroupLimits("9:memory:/docker/abc\n", root: container).map(\.bytes) == [104_857_600])
    }

    /// merge, compare and validate refuse, before reading, inputs that need more memory
    /// than the process may use (a 400 MB file under `ulimit -v 2000000`), naming what
    /// is needed, what is available and what to do; nothing is written.
    @Test(arguments: ["merge", "compare", "validate"])
    func commandsThatReadJSONRefuseInputsThatDoNotFit(command: String) throws {
        let dir = try CLI.temporaryDirectory()
        let big = dir.appendingPathComponent("big.json").path
        #expect(FileManager.default.createFile(atPath: big, contents: nil) && truncate(big, 400 << 20) == 0)
        let out = dir.appendingPathComponent("out").path
        let arguments = ["merge": [big, "--out", out], "compare": [big, big], "validate": [big]][command]!
        let r = try Self.limited(2_000_000, [command] + arguments)
        #expect(r.status == 2 && r.stderr.contains("needs about") && r.stderr.contains("MB of JSON it reads")
                && r.stderr.contains("(the address-space limit RLIMIT_AS, ulimit -v)"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// `fleetsim ARGUMENTS` under `ulimit -v kilobytes`.
    static func limited(_ kilobytes: Int, _ arguments: [String]) throws -> CLI.Result {
        try CLI.run(["-c", "ulimit -v \(kilobytes) && exec \"$0\" \"$@\"", CLI.executable.path] + arguments,
                    executable: URL(fileURLWithPath: "/bin/sh"))
    }

    /// What grows with the run's length counts: 2 devices for 366 days used 1.37 GB (a
    /// 123 MB report.json) against an estimate of 33 MB, and under a `ulimit -v` the run
    /// passed the guard and then aborted. Now the estimate covers the report's series, and
    /// at every limit of a sweep the run either completes or is refused (exit 2) before
    /// it starts: never killed.
    @Test func aLongRunOfAFewDevicesIsRefusedOrCompletesUnderALimit() throws {
        let dir = try CLI.temporaryDirectory()
        let path = try CLI.write("""
            {"name": "year", "seed": 1, "duration": "366d", "fleet": [
              {"cohort": "ios", "count": 1, "platform": "ios"}, {"cohort": "android", "count": 1, "platform": "android"}]}
            """, to: "year.json", in: dir)
        let scenario = try ScenarioOptions.load(path)
        #expect(MemoryEstimate.bytes(scenario) >= MemoryEstimate.reportBytes(scenario) + MemoryEstimate.baseBytes)
        #expect(MemoryEstimate.reportBytes(scenario) > 20 << 20)
        var outcomes: [Int32] = []
        for kilobytes in [100_000, 150_000, 175_000, 200_000, 300_000] {
            let out = dir.appendingPathComponent("out-\(kilobytes)").path
            let r = try Self.limited(kilobytes, ["run", path, "--out", out, "--quiet"])
            outcomes.append(r.status)
            #expect([0, 1].contains(r.status) || (r.status == 2 && r.stderr.contains("RLIMIT_AS")), "ulimit -v \(kilobytes): exit \(r.status): \(r.stderr.suffix(300))")
            if [0, 1].contains(r.status) {
                let size = (try? FileManager.default.attributesOfItem(atPath: out + "/report.json")[.size] as? Int) ?? nil
                #expect((size ?? .max) < 8 << 20, "report.json of 366 days: \(size ?? -1) bytes")
            }
        }
        #expect(outcomes.contains(2) && outcomes.contains { $0 == 0 || $0 == 1 }, "\(outcomes)")
    }
}
