import Scenario

/// One shard of a fleet (`run --shard K/N`): the devices whose global id mod `count`
/// is `index`, against `1/count` of the backend's capacity.
///
/// Global ids are the dense ids of the unsharded fleet (cohorts in file order). A shard
/// holds its devices densely: local index `l` is global id `l * count + index`. Every
/// stream, trace, report sample and replay command uses the global id, so a device's
/// draws are the same in every shard plan.
public struct ShardPlan: Sendable, Equatable {
    public var index: Int
    public var count: Int

    /// The whole fleet: `0/1`.
    public static let whole = ShardPlan(index: 0, count: 1)

    public init(index: Int, count: Int) {
        precondition(count >= 1 && index >= 0 && index < count, "shard \(index)/\(count)")
        self.index = index
        self.count = count
    }

    /// `K/N` with `0 <= K < N`; nil otherwise.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, k >= 0, k < n else { return nil }
        self.init(index: k, count: n)
    }

    public var isWhole: Bool { count == 1 }

    /// Whether the device with this global id belongs to this shard.
    @inline(__always) public func holds(_ global: Int) -> Bool { global % count == index }

    /// The global id of local index `l`.
    @inline(__always) public func global(_ local: Int) -> Int { local * count + index }

    /// The local index of a global id this shard holds, else nil.
    public func local(_ global: Int) -> Int? { global >= 0 && holds(global) ? (global - index) / count : nil }

    /// This shard's part of a capacity `total`: `total / count`, plus one for the first
    /// `total % count` shards, so the shards' parts add up to `total` exactly; at least 1.
    public func part(of total: Int) -> Int { max(1, total / count + (index < total % count ? 1 : 0)) }

    /// The scenario with this shard's part of the backend's capacity: API workers and
    /// queue limit, and the features' backends' parts (``part(of:)``).
    public func apply(to scenario: Scenario) -> Scenario {
        guard !isWhole else { return scenario }
        var s = scenario
        s.backend.workers = part(of: s.backend.workers)
        s.backend.queueLimit = part(of: s.backend.queueLimit)
        FeatureList.takeShardPart(of: &s, self)
        return s
    }
}
