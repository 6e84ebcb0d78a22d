import Foundation
import Reports
import Scenario
import Simulation

/// Refuses, before anything is built, a run whose estimated memory
/// (``MemoryEstimate``) exceeds what the process may use, with a hint to shard; and a
/// `merge`, `compare` or `validate` whose inputs would need more than that to read
/// (``checkInputs(_:factor:command:hint:)``).
/// What it may use is the smallest of four limits (Linux; elsewhere it never refuses):
/// `MemAvailable` of /proc/meminfo, the address-space limit `RLIMIT_AS` (`ulimit -v`)
/// less the address space already mapped, the cgroup's `memory.max` less its
/// `memory.current` (cgroup v2), and its `memory.limit_in_bytes` less its
/// `memory.usage_in_bytes` (cgroup v1), for the process's cgroup and every ancestor.
enum MemoryGuard {
    /// A limit in bytes and where it comes from, as the refusal names it.
    struct Limit: Equatable {
        var bytes: Int
        var source: String
    }

    static func check(_ scenario: Scenario, shard: ShardPlan, limit: Limit? = smallestLimit()) throws(CLIError) {
        guard let limit else { return }
        let estimate = MemoryEstimate.bytes(scenario, shard: shard)
        guard estimate > limit.bytes else { return }
        let available = Swift.max(limit.bytes, 1)
        let shards = (estimate + available - 1) / available * shard.count
        // The estimate's three parts, as docs/scale.md ("Memory") gives them: what grows
        // with the devices this world holds, the report's series over time, the program.
        let total = scenario.fleet.reduce(0) { $0 + $1.count }
        let held = (total - shard.index + shard.count - 1) / shard.count
        let report = MemoryEstimate.reportBytes(scenario), devices = estimate - report - MemoryEstimate.baseBytes
        throw .input("\(scenario.sourcePath): this run needs about \(megabytes(estimate)) MB of memory (\(megabytes(devices)) MB for its "
                     + "\(HumanUnits.count(UInt64(held))) devices, \(megabytes(report)) MB for the report's series over time, "
                     + "\(megabytes(MemoryEstimate.baseBytes)) MB for the program; docs/scale.md), but only \(megabytes(limit.bytes)) MB is available (\(limit.source)); "
                     + "split it with --shard K/\(shards) and '\(scenario.runner) merge' (scripts/run-sharded.sh \(shards) ...), or lower --scale")
    }

    static func megabytes(_ bytes: Int) -> Int { (bytes + (1 << 20) - 1) >> 20 }

    /// Peak memory over the bytes of the JSON read, measured (docs/scale.md, "Memory"),
    /// with some to spare: `merge` (its inputs read at once, the merged report and its
    /// documents), `compare` (each report parsed, then checked as merge reads it) and a
    /// scenario file (parsed; its report then has its own estimate).
    static let mergeFactor = 12
    static let compareFactor = 16
    static let scenarioFactor = 16

    /// Refuses a scenario whose report over its whole length (the series over time of an
    /// empty fleet, ``MemoryEstimate/reportBytes(_:)``) does not fit: `validate` and `run`
    /// build it to check the metric names of `expect`.
    static func checkReport(_ scenario: Scenario, limit: Limit? = smallestLimit()) throws(CLIError) {
        guard let limit else { return }
        let estimate = MemoryEstimate.reportBytes(scenario) + MemoryEstimate.baseBytes
        guard estimate > limit.bytes else { return }
        throw .input("\(scenario.sourcePath): the report of this scenario's \(HumanUnits.duration(microseconds: scenario.duration.microseconds)) "
                     + "needs about \(megabytes(estimate)) MB of memory (docs/scale.md), but only \(megabytes(limit.bytes)) MB is available "
                     + "(\(limit.source)); free memory, or shorten the run")
    }

    /// The JSON files `paths` read at once (reports, or a scenario) need about `factor`
    /// times their bytes, and ``MemoryEstimate/baseBytes``, of memory (docs/scale.md,
    /// "Memory": measured peak RSS against the files' size); refused (exit 2) above the
    /// smallest limit, before anything is read. `command` says what needs it, `hint`
    /// what to do instead. A path that is no regular file is left to the reader's own error.
    static func checkInputs(_ paths: [String], factor: Int, extra: Int = 0, command: String, hint: String,
                            limit: Limit? = smallestLimit()) throws(CLIError) {
        guard let limit else { return }
        var bytes = 0
        for path in paths {
            var status = stat()
            if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG { bytes += Int(status.st_size) }
        }
        let (scaled, overflow) = bytes.multipliedReportingOverflow(by: factor)
        let estimate = overflow ? Int.max : scaled + extra + MemoryEstimate.baseBytes
        guard estimate > limit.bytes else { return }
        throw .input("\(command) needs about \(megabytes(estimate)) MB of memory (about \(factor) times the \(megabytes(bytes)) MB of JSON it reads, "
                     + "docs/scale.md), but only \(megabytes(limit.bytes)) MB is available (\(limit.source)); \(hint)")
    }

    /// The smallest of the limits this machine has, or nil where there is none.
    static func smallestLimit() -> Limit? {
        var limits: [Limit] = []
        if let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8), let bytes = parse(meminfo: text) {
            limits.append(Limit(bytes: bytes, source: "MemAvailable"))
        }
        var rlimit = rlimit()
        if getrlimit(Int32(RLIMIT_AS.rawValue), &rlimit) == 0, rlimit.rlim_cur != rlim_t.max {
            let mapped = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)).flatMap { parse(status: $0) } ?? 0
            let cap = rlimit.rlim_cur > UInt64(Int.max) ? Int.max : Int(rlimit.rlim_cur)
            limits.append(Limit(bytes: Swift.max(cap - mapped, 0), source: "the address-space limit RLIMIT_AS, ulimit -v"))
        }
        if let text = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8) {
            limits += cgroupLimits(text)
        }
        return limits.min { $0.bytes < $1.bytes }
    }

    /// The limits of the cgroups of /proc/self/cgroup's `text` and their ancestors under
    /// `root`: v2's `memory.max` (the `0::` line, under `root`), v1's `memory.limit_in_bytes`
    /// (the line whose controllers include `memory`, under `root`/memory). A process in
    /// a container sees its own cgroup at the root, and a path the container does not
    /// mount is walked up to it.
    static func cgroupLimits(_ text: String, root: String = "/sys/fs/cgroup") -> [Limit] {
        var limits: [Limit] = []
        func walk(_ base: String, _ path: String, _ maxFile: String, _ currentFile: String) {
            var directory = base + (path == "/" ? "" : path)
            while directory.hasPrefix(base) {
                if let max = try? String(contentsOfFile: directory + "/" + maxFile, encoding: .utf8),
                   let current = try? String(contentsOfFile: directory + "/" + currentFile, encoding: .utf8),
                   let bytes = parse(cgroupMax: max, current: current) {
                    limits.append(Limit(bytes: bytes, source: "the cgroup's \(maxFile) less \(currentFile), \(directory)"))
                }
                guard directory != base else { break }
                directory = OutputDirectory.parent(of: directory)
            }
        }
        if let path = parse(cgroup: text) { walk(root, path, "memory.max", "memory.current") }
        if let path = parse(cgroupV1: text) { walk(root + "/memory", path, "memory.limit_in_bytes", "memory.usage_in_bytes") }
        return limits
    }

    /// The `MemAvailable:   123456 kB` line, in bytes.
    static func parse(meminfo text: String) -> Int? {
        kilobytes(text, "MemAvailable:")
    }

    /// The `VmSize:  123456 kB` line of /proc/self/status (address space mapped), in bytes.
    static func parse(status text: String) -> Int? {
        kilobytes(text, "VmSize:")
    }

    /// The cgroup v2 path of `0::/path` in /proc/self/cgroup.
    static func parse(cgroup text: String) -> String? {
        text.split(separator: "\n").first { $0.hasPrefix("0::") }.map { String($0.dropFirst(3)) }
    }

    /// The cgroup v1 memory controller's path of `N:...memory...:/path` in /proc/self/cgroup.
    static func parse(cgroupV1 text: String) -> String? {
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            if fields.count == 3, fields[1].split(separator: ",").contains("memory") { return String(fields[2]) }
        }
        return nil
    }

    /// `memory.max` less `memory.current` in bytes (v1: `memory.limit_in_bytes` less
    /// `memory.usage_in_bytes`); nil for `max` or v1's "unlimited" (2⁶³ rounded down to a
    /// page, anything from 2⁶⁰ up).
    static func parse(cgroupMax max: String, current: String) -> Int? {
        guard let limit = Int(max.trimmingCharacters(in: .whitespacesAndNewlines)), limit < 1 << 60 else { return nil }
        let used = Int(current.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        return Swift.max(limit - used, 0)
    }

    static func kilobytes(_ text: String, _ key: String) -> Int? {
        for line in text.split(separator: "\n") where line.hasPrefix(key) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, let kB = Int(fields[1]), kB < Int.max / 1024 else { return nil }
            return kB * 1024
        }
        return nil
    }
}
