import Reports
import Scenario

extension RunReport {
    /// `simulated.shard` of a shard's report: its plan (`index`, `count`), what decides
    /// the run besides seed and version (`identity`: the scenario file's content hash,
    /// the `--scale` factor, the variants run, `--swarm`), and `fingerprint`, FNV-1a 64
    /// of all of it with the seed, the version and the shard count. `fleetsim merge`
    /// refuses shards whose identity or fingerprint differ, naming what differs, so
    /// shards of different runs never add up to a fleet that was not simulated.
    func shardSection() -> ReportValue {
        let identity: [String: ReportValue] = [
            "scenarioContent": .string(scenario.contentHash),
            "scale": .string(String(scenario.scale)),
            "variants": .array(scenario.logic.variants.map { .string($0) }),
            "swarm": .bool(scenario.swarm),
        ]
        let parts = [scenario.contentHash, String(scenario.scale), scenario.logic.variants.joined(separator: ","),
                     String(scenario.swarm), String(scenario.seed), fleetsimVersion, String(shard.count)]
        return [
            "index": .count(shard.index),
            "count": .count(shard.count),
            "identity": .object(identity),
            "fingerprint": .string(HashText.fnv1a(parts.joined(separator: "\n"))),
        ]
    }
}
