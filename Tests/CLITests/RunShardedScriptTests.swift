import Foundation
import Testing

/// `scripts/run-sharded.sh --jobs J`: at most J shards run at once, whatever N, each with
/// the run options, then one merge of every shard's report. A stand-in `fleetsim` (a
/// shell script) records how many of its runs overlap, so the cap is checked without a
/// simulation and without timing anything. (ShardTests runs the script on the real
/// binary and compares the merge with the plain run.)
@Suite struct RunShardedScriptTests {
    /// The stand-in: `run` marks itself running for 0.2 s and appends how many runs are
    /// marked (itself included) and its arguments to files in `FAKE_DIR`; `merge` logs
    /// its arguments; a run of shard `FAKE_FAIL` exits 2.
    static let standIn = """
        #!/bin/sh
        d=$FAKE_DIR
        if [ "$1" = merge ]; then echo "$*" > "$d/merge"; exit 0; fi
        touch "$d/running.$$"
        ls "$d" | grep -c '^running\\.' >> "$d/overlap"
        echo "$*" >> "$d/runs"
        sleep 0.2
        rm "$d/running.$$"
        [ "$4" = "${FAKE_FAIL:-none}" ] && { echo "shard broke"; exit 2; }
        exit 0
        """

    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
        var overlaps: [Int]
        var runs: [String]
        var merge: String
        /// `FLEETSIM_OUT`, where the shards' reports go.
        var out: String
    }

    static func script(_ arguments: [String], failing shard: String? = nil) throws -> Outcome {
        let dir = try CLI.temporaryDirectory()
        let fake = try CLI.write(standIn, to: "fleetsim", in: dir)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake)
        let records = dir.appendingPathComponent("records")
        try FileManager.default.createDirectory(at: records, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["scripts/run-sharded.sh"] + arguments
        process.currentDirectoryURL = CLI.packageRoot
        var environment = ProcessInfo.processInfo.environment
        environment["FLEETSIM"] = fake
        environment["FLEETSIM_OUT"] = dir.appendingPathComponent("out").path
        environment["FAKE_DIR"] = records.path
        environment["FAKE_FAIL"] = shard
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        func lines(_ name: String) -> [String] {
            ((try? String(contentsOf: records.appendingPathComponent(name), encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        return Outcome(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                       stderr: String(decoding: stderr, as: UTF8.self), overlaps: lines("overlap").compactMap { Int($0) },
                       runs: lines("runs").sorted(), merge: lines("merge").first ?? "", out: environment["FLEETSIM_OUT"]!)
    }

    /// One job: five shards one after another, never two at once; every shard gets the
    /// run options, and the merge gets the five reports in shard order.
    @Test func oneJobRunsTheShardsOneAtATime() throws {
        let r = try Self.script(["--jobs", "1", "5", "scenarios/default.json", "--scale", "0.5"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("run-sharded.sh: 5 shards, at most 1 at a time"))
        #expect(r.overlaps == [1, 1, 1, 1, 1])
        #expect(r.runs == (0..<5).map { "run scenarios/default.json --shard \($0)/5 --out \(r.out)/shard-\($0) --quiet --scale 0.5" })
        #expect(r.merge == "merge " + (0..<5).map { "\(r.out)/shard-\($0)/report.json" }.joined(separator: " ") + " --out \(r.out)/merged")
    }

    /// Two jobs and more shards than jobs: never more than two at once, every shard run.
    @Test func moreShardsThanJobsNeverExceedTheJobs() throws {
        let r = try Self.script(["--jobs", "2", "6", "scenarios/default.json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.overlaps.count == 6)
        #expect(r.overlaps.allSatisfy { (1...2).contains($0) }, "\(r.overlaps)")
    }

    /// Without --jobs, the cap is the machine's online cores (what `getconf` reads).
    @Test func theDefaultIsTheMachinesCores() throws {
        let r = try Self.script(["2", "scenarios/default.json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("run-sharded.sh: 2 shards, at most \(sysconf(Int32(_SC_NPROCESSORS_ONLN))) at a time"))
    }

    /// A shard that exits 2 stops the script with 2 and its log is shown; nothing is merged.
    @Test func aBrokenShardStopsBeforeTheMerge() throws {
        let r = try Self.script(["--jobs", "2", "3", "scenarios/default.json"], failing: "1/3")
        #expect(r.status == 2)
        #expect(r.stderr.contains("run-sharded.sh: shard 1/3 exited 2:\nshard broke"), "\(r.stderr)")
        #expect(r.merge.isEmpty)
    }

    /// --jobs takes a positive integer: 0, a word or nothing is refused with 2 and the usage.
    @Test func badJobsAreRefused() throws {
        for bad in [["--jobs", "0", "2", "scenarios/default.json"], ["--jobs", "two", "2", "scenarios/default.json"], ["--jobs"]] {
            let r = try Self.script(bad)
            #expect(r.status == 2)
            #expect(r.stderr.contains("--jobs must be a positive integer") || r.stderr.contains("usage: scripts/run-sharded.sh [--jobs J]"), "\(r.stderr)")
            #expect(r.runs.isEmpty)
        }
    }
}
