import Foundation
import Scenario
import Simulation

/// Refuses, before anything is built, a run whose estimated memory
/// (``MemoryEstimate``) exceeds what the machine has available, with a hint to shard.
/// Linux only (`MemAvailable` of /proc/meminfo); elsewhere it never refuses.
enum MemoryGuard {
    static func check(_ scenario: Scenario, shard: ShardPlan, available: Int? = availableBytes()) throws(CLIError) {
        guard let available else { return }
        let estimate = MemoryEstimate.bytes(scenario, shard: shard)
        guard estimate > available else { return }
        let shards = (estimate + available - 1) / available * shard.count
        throw .input("\(scenario.sourcePath): this run needs about \(megabytes(estimate)) MB of memory (its devices x bytes per device, "
                     + "docs/scale.md), but only \(megabytes(available)) MB is available (MemAvailable); "
                     + "split it with --shard K/\(shards) and 'fleetsim merge' (scripts/run-sharded.sh \(shards) ...), or lower --scale")
    }

    static func megabytes(_ bytes: Int) -> Int { (bytes + (1 << 20) - 1) >> 20 }

    /// `MemAvailable` of /proc/meminfo in bytes, or nil where there is none.
    static func availableBytes(meminfo path: String = "/proc/meminfo") -> Int? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return parse(meminfo: text)
    }

    /// The `MemAvailable:   123456 kB` line, in bytes.
    static func parse(meminfo text: String) -> Int? {
        for line in text.split(separator: "\n") where line.hasPrefix("MemAvailable:") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, let kB = Int(fields[1]) else { return nil }
            return kB * 1024
        }
        return nil
    }
}
