import SimKernel
import Reports
import Scenario

/// What a world of a scenario (or one of its shards) will hold in memory, estimated
/// before it is built, so `run` can refuse a fleet the machine cannot hold instead of
/// being killed hours in (docs/scale.md has the estimate against measured peak RSS).
public enum MemoryEstimate {
    /// Queue entries per device: the timing wheel's room is 10.6 to 11.3 entries per device
    /// at its peak in a day (`fleetsim bench`'s queue bytes over ``EventQueue/entryStride``,
    /// 100,000 to 1,000,000 devices), with some to spare; an entry due at or after the
    /// run's end is not kept (``SimClock``).
    static let queueEntriesPerDevice = 14

    /// State outside the device arrays and the queue (oracle, metrics, the feature hosts'
    /// fleet-wide state, Android job-quota histories, allocator slack) per device, fitted
    /// to the peak RSS of the default scenario for 1 day at 10,000 and 100,000 devices
    /// (docs/scale.md: about 2.1 KB per device all told) with some 5 % to spare; 8 less
    /// since 8 bytes of the oracle's moved into a host's per-device array, which
    /// ``World/bytesPerDevice`` counts.
    static let otherBytesPerDevice = 547

    /// What grows with simulated time per device (the feature hosts' ledgers and
    /// messages in flight, job histories' state), fitted to the default scenario's peak
    /// RSS at 10,000 devices for 1 and 7 days (about 250).
    static let bytesPerDeviceDay = 300

    /// Bytes per device for a run of `days`: its `Device`, its share of an
    /// `AndroidDevice` or of an iOS launch policy, its queue entries, the rest of the world's per-device state, and
    /// what grows per simulated day; with the reference logic's states, or `logics`'.
    public static func bytesPerDevice(androidShare: Double, days: Double) -> Int {
        bytesPerDevice(androidShare: androidShare, days: days, logics: ReferenceLogics.self)
    }

    public static func bytesPerDevice<Logics: LogicSet>(androidShare: Double, days: Double, logics: Logics.Type) -> Int {
        return World<Logics>.bytesPerDevice + Int((androidShare * Double(World<Logics>.bytesPerAndroidDevice) + (1 - androidShare) * Double(World<Logics>.bytesPerIOSDevice)).rounded(.up))
            + queueEntriesPerDevice * EventQueue<WorldEvent>.entryStride + otherBytesPerDevice + Int((days * Double(bytesPerDeviceDay)).rounded(.up))
    }

    /// The binary, its libraries and the world's fixed tables.
    public static let baseBytes = 32 << 20

    /// What the report holds per bucket of `backend.load` (``LoadSeries``): its counts in
    /// the world, each series' values in the report's tree, its JSON and the charts of
    /// report.html: about 1.7 KB measured (2 devices for 1 to 366 days, docs/scale.md),
    /// with some to spare.
    static let bytesPerLoadBucket = 2_560

    /// What the report holds per bucket of `latencyOverTime` (``TimedLatency``): the
    /// timelines' closed buckets and their encodings, with some to spare.
    static let bytesPerLatencyBucket = 16_384

    /// What grows with the run's length whatever its fleet: the report's series over
    /// time, both bounded (``LoadSeries/maximumBuckets``, ``TimedLatency/maximumBuckets``),
    /// so at most about 47 MB.
    public static func reportBytes(_ scenario: Scenario) -> Int {
        LoadSeries.buckets(scenario.duration) * bytesPerLoadBucket
            + Int(TimedLatency.buckets(durationMicroseconds: scenario.duration.microseconds)) * bytesPerLatencyBucket
    }

    /// The estimated peak bytes of `scenario`'s world (one shard of it): its devices times
    /// ``bytesPerDevice(androidShare:days:)``, plus its report's series over time
    /// (``reportBytes(_:)``), plus ``baseBytes``.
    public static func bytes(_ scenario: Scenario, shard: ShardPlan = .whole) -> Int {
        bytes(scenario, shard: shard, logics: ReferenceLogics.self)
    }

    /// The same for a world of `logics`, whose per-device states may differ in size.
    public static func bytes<Logics: LogicSet>(_ scenario: Scenario, shard: ShardPlan = .whole, logics: Logics.Type) -> Int {
        let total = scenario.fleet.reduce(0) { $0 + $1.count }
        let android = scenario.fleet.filter { $0.platform == .android }.reduce(0) { $0 + $1.count }
        let held = (total - shard.index + shard.count - 1) / shard.count
        let share = total == 0 ? 0 : Double(android) / Double(total)
        return held * bytesPerDevice(androidShare: share, days: scenario.duration.seconds / 86_400, logics: logics) + reportBytes(scenario) + baseBytes
            + FeatureList.bytesOffTheRunsDays(scenario, held: held, total: total)
    }
}
