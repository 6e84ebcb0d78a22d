import Foundation
import Reports

/// `fleetsim bench --shards N`: how shards scale across the cores of one machine. Every
/// process runs one shard of the bench world of `N × D` devices (`D` devices each, so
/// one process's work is the same whatever `N`): first shard 0 alone, then all `N` at
/// once, each a child process of this binary (`fleetsim run --shard K/N`). Weak scaling:
/// the parallel efficiency is one process's wall time alone over the wall time of `N`
/// at once (until the last ends); 100 % means `N` processes did `N` times the work in
/// the time of one. Wall time, not CPU time: what cores a shared machine withholds is
/// part of what sharding on it gets, so the load average is printed before and after.
enum ShardBench {
    /// One measured side: the wall time until every process ended, and the CPU seconds
    /// (user and system) the processes used, from the rusage of reaped children.
    struct Timing {
        var wall: Double
        var cpu: Double
    }

    /// The figures the output prints, from the two timings (``lines(shards:devices:days:single:parallel:)``).
    struct Figures: Equatable {
        /// Device-days per second of all the processes at once, and of one alone.
        var aggregate: Double
        var single: Double
        /// One process's wall time alone over `N` at once's: aggregate / (N × single).
        var efficiency: Double
        /// One process's CPU time alone over the mean CPU time of each of `N` at once:
        /// what the processes cost each other (cache, memory bandwidth), without the
        /// time a shared machine's other work takes from them.
        var cpuEfficiency: Double
    }

    /// The parallel efficiency the issue asks of 2 shards on the project's 2-core VM.
    static let targetEfficiency = (shards: 2, fraction: 0.85)

    static func figures(shards: Int, devices: Int, days: Int, single: Timing, parallel: Timing) -> Figures {
        let work = Double(devices) * Double(days)
        return Figures(aggregate: Double(shards) * work / parallel.wall, single: work / single.wall, efficiency: single.wall / parallel.wall,
                       cpuEfficiency: single.cpu / (parallel.cpu / Double(shards)))
    }

    /// The result lines after the runs: each side's wall and CPU time, the aggregate rate
    /// and the efficiency (and the target, at 2 shards).
    static func lines(shards: Int, devices: Int, days: Int, single: Timing, parallel: Timing) -> [String] {
        let f = figures(shards: shards, devices: devices, days: days, single: single, parallel: parallel)
        var lines = [
            String(format: "  1 process alone: %.2f s wall, %.2f s CPU: %.0f device-days/s", single.wall, single.cpu, f.single),
            String(format: "  %d processes at once: %.2f s wall until the last ended, %.2f s CPU per process: %.0f device-days/s in all",
                   shards, parallel.wall, parallel.cpu / Double(shards), f.aggregate),
            String(format: "  parallel efficiency: %.1f %% (%.2f s alone / %.2f s at once; %d x %d device-days in %.2f s against %d in %.2f s)",
                   f.efficiency * 100, single.wall, parallel.wall, shards, devices * days, parallel.wall, devices * days, single.wall),
            String(format: "  CPU efficiency: %.1f %% (%.2f s CPU alone / %.2f s per process at once: what the processes cost each other, without the machine's other work)",
                   f.cpuEfficiency * 100, single.cpu, parallel.cpu / Double(shards)),
        ]
        if shards == targetEfficiency.shards {
            lines.append(String(format: "  target: at least %.0f %% at %d shards (the project's 2-core VM): %.1f %%, %@",
                                targetEfficiency.fraction * 100, shards, f.efficiency * 100,
                                f.efficiency >= targetEfficiency.fraction ? "met" : "NOT met"))
        }
        return lines
    }

    /// Runs the measurement: `repeats` times shard 0 alone, then all `shards` at once
    /// (alternated, so both sides meet the same spells of a shared machine; the best of
    /// each is shown), then the merge of the last parallel run's reports. Exit 2 when a
    /// process fails (its output is shown).
    static func measure(shards: Int, devices: Int, days: Int, repeats: Int) -> Int32 {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fleetsim-bench-shards-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = directory.appendingPathComponent("bench-world.json").path
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(Bench.worldScenario(devices: shards * devices, days: days).utf8).write(to: URL(fileURLWithPath: scenario))
        } catch {
            eprint("error: bench --shards: cannot write its scenario in \(directory.path): \(error)")
            return 2
        }
        let binary = executable()
        print("Shards on one machine: the bench world of \(shards) x \(devices) devices, \(days) day\(days == 1 ? "" : "s"); "
              + "each process runs one shard (\(devices) devices), a child process of \(binary.path)")
        print("  \(ProcessInfo.processInfo.activeProcessorCount) cores online; load average before: \(loadAverage())")
        var single = Timing(wall: .infinity, cpu: .infinity), parallel = Timing(wall: .infinity, cpu: .infinity)
        for _ in 0 ..< repeats {
            do {
                let alone = try runShards([0], of: shards, scenario: scenario, in: directory.appendingPathComponent("alone"), binary: binary)
                if alone.wall < single.wall { single = alone }
                let together = try runShards(Array(0 ..< shards), of: shards, scenario: scenario, in: directory.appendingPathComponent("together"), binary: binary)
                if together.wall < parallel.wall { parallel = together }
            } catch {
                eprint("error: bench --shards: \(error.message)")
                return 2
            }
        }
        if repeats > 1 { print("  best of \(repeats) runs of each, alternated") }
        for line in lines(shards: shards, devices: devices, days: days, single: single, parallel: parallel) { print(line) }
        let reports = (0 ..< shards).map { directory.appendingPathComponent("together/shard-\($0)/report.json").path }
        do {
            let merge = try timed(binary, ["merge"] + reports + ["--out", directory.appendingPathComponent("merged").path], log: directory.appendingPathComponent("merge.log"))
            print(String(format: "  merge of the %d reports: %.2f s wall", shards, merge.wall))
        } catch {
            eprint("error: bench --shards: \(error.message)")
            return 2
        }
        print("  load average after: \(loadAverage())")
        return 0
    }

    struct Failure: Error {
        var message: String
    }

    /// Starts one `run --shard K/N` per index at once and waits for them all.
    static func runShards(_ indices: [Int], of count: Int, scenario: String, in directory: URL, binary: URL) throws(Failure) -> Timing {
        let started = Date()
        let cpuBefore = childrenCPUSeconds()
        var processes: [(Int, Process, URL)] = []
        for k in indices {
            let log = directory.appendingPathComponent("shard-\(k).log")
            let process = try launch(binary, ["run", scenario, "--shard", "\(k)/\(count)", "--out", directory.appendingPathComponent("shard-\(k)").path, "--quiet"], log: log)
            processes.append((k, process, log))
        }
        for (k, process, log) in processes { try finished(process, "shard \(k)/\(count)", log: log) }
        return Timing(wall: Date().timeIntervalSince(started), cpu: childrenCPUSeconds() - cpuBefore)
    }

    /// One child process run to its end, timed.
    static func timed(_ binary: URL, _ arguments: [String], log: URL) throws(Failure) -> Timing {
        let started = Date()
        let cpuBefore = childrenCPUSeconds()
        try finished(try launch(binary, arguments, log: log), arguments[0], log: log)
        return Timing(wall: Date().timeIntervalSince(started), cpu: childrenCPUSeconds() - cpuBefore)
    }

    /// Waits for `process`; a broken one (`name`) throws with its log. Exit 1 is a
    /// verdict of the bench world (none is expected), not a broken process.
    static func finished(_ process: Process, _ name: String, log: URL) throws(Failure) {
        process.waitUntilExit()
        guard process.terminationStatus <= 1 else {
            throw Failure(message: "\(name) exited \(process.terminationStatus): \(String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self))")
        }
    }

    /// A child process of `binary` with its output (both streams) in `log`.
    static func launch(_ binary: URL, _ arguments: [String], log: URL) throws(Failure) -> Process {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        do {
            try FileManager.default.createDirectory(at: log.deletingLastPathComponent(), withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)  // a failure throws at the open below
            let handle = try FileHandle(forWritingTo: log)
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
        } catch {
            throw Failure(message: "cannot start \(binary.path): \(error)")
        }
        return process
    }

    /// This binary (Linux: /proc/self/exe), so the children run the build being measured.
    static func executable() -> URL {
        Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    }

    /// User and system CPU seconds of the children reaped so far.
    static func childrenCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// The 1, 5 and 15 minute load averages (Linux: /proc/loadavg), or "not available".
    static func loadAverage() -> String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "not available" }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }
}
