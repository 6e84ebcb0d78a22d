import Foundation
import Scenario
import Simulation

/// Refuses, before anything is built, a run whose estimated memory
/// (``MemoryEstimate``) exceeds what the process may use, with a hint to shard.
/// What it may use is the smallest of three limits (Linux; elsewhere it never refuses):
/// `MemAvailable` of /proc/meminfo, the address-space limit `RLIMIT_AS` (`ulimit -v`)
/// less the address space already mapped, and the cgroup's `memory.max` less its
/// `memory.current`, for the process's cgroup and every ancestor (cgroup v2).
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
        throw .input("\(scenario.sourcePath): this run needs about \(megabytes(estimate)) MB of memory (its devices x bytes per device, "
                     + "docs/scale.md), but only \(megabytes(limit.bytes)) MB is available (\(limit.source)); "
                     + "split it with --shard K/\(shards) and 'fleetsim merge' (scripts/run-sharded.sh \(shards) ...), or lower --scale")
    }

    static func megabytes(_ bytes: Int) -> Int { (bytes + (1 << 20) - 1) >> 20 }

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
        if let text = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8), let path = parse(cgroup: text) {
            var directory = "/sys/fs/cgroup" + (path == "/" ? "" : path)
            while directory.hasPrefix("/sys/fs/cgroup") {
                if let max = try? String(contentsOfFile: directory + "/memory.max", encoding: .utf8),
                   let current = try? String(contentsOfFile: directory + "/memory.current", encoding: .utf8),
                   let bytes = parse(cgroupMax: max, current: current) {
                    limits.append(Limit(bytes: bytes, source: "the cgroup's memory.max less memory.current, \(directory)"))
                }
                guard directory != "/sys/fs/cgroup" else { break }
                directory = OutputDirectory.parent(of: directory)
            }
        }
        return limits.min { $0.bytes < $1.bytes }
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

    /// `memory.max` less `memory.current` in bytes; nil for `max` (no limit).
    static func parse(cgroupMax max: String, current: String) -> Int? {
        guard let limit = Int(max.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
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
