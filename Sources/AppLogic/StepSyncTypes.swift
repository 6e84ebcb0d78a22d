/// The reference step sync's configuration is its spec.
public typealias StepSyncConfiguration = StepSyncSpec

/// Known bugs of a step sync (docs/scenario.md, "Variants"). The empty set is the correct logic.
public struct StepSyncVariants: OptionSet, Hashable, Sendable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// Rows are inserted (`POST /api/v1/steps`) instead of upserted by (user, date, source).
    public static let insertNotUpsert = StepSyncVariants(rawValue: 1 << 0)
    /// The last-sync timestamp advances even when the upload failed.
    public static let advanceCursorOnFailure = StepSyncVariants(rawValue: 1 << 1)
    /// Syncs while the battery is low.
    public static let ignoresLowBattery = StepSyncVariants(rawValue: 1 << 2)
    /// The retry delays' minutes are read as seconds: retries come after 5, 10 and 15 s.
    public static let retryDelaysSeconds = StepSyncVariants(rawValue: 1 << 3)
    /// The stale-sync notice's hours are read as minutes: it is set for 24 min after a sync.
    public static let staleNoticeMinutes = StepSyncVariants(rawValue: 1 << 4)
    /// Starts a sync although the network is unreachable (the reachability guard dropped).
    public static let ignoresOffline = StepSyncVariants(rawValue: 1 << 5)
    /// The sync interval's hours are read as minutes: periodic work every 2 min, and a
    /// refresh launch or HealthKit delivery syncs 2 min after the last sync.
    public static let intervalMinutes = StepSyncVariants(rawValue: 1 << 6)
    /// An open syncs only when the last sync is more than 48 h old (the "very stale" mark)
    /// instead of 24 h.
    public static let openSyncAfter48h = StepSyncVariants(rawValue: 1 << 7)
    /// The backfill cap is dropped: a read reaches back to the last sync however old.
    public static let backfillUnlimited = StepSyncVariants(rawValue: 1 << 8)
    /// The local midnight a read starts at is computed with the zone's standard UTC offset,
    /// daylight saving time ignored: while DST is in force the read starts an hour late
    /// (01:00), and the first date it uploads lacks that hour's steps (seed `002`'s class
    /// of time-zone and DST date errors).
    public static let localDayIgnoresDST = StepSyncVariants(rawValue: 1 << 9)
}


/// One device's step-sync state. `stored` mirrors what the app wrote; after a termination
/// the host rebuilds the state from what reached the disk with ``init(persisted:)``.
public struct StepSyncState: Hashable, Sendable {
    enum Trigger: Hashable, Sendable { case open, periodicWork, refresh, healthDelivery, retry }

    /// The sync being run, if any.
    /// Its fields, and the state's, largest first: 56 bytes where 64 padded.
    struct Sync: Hashable, Sendable {
        /// The end of the health-data range read (the cursor's next value).
        var readTo: DeviceTime
        var awaiting: RequestID?
        var trigger: Trigger
        var source: StepSource
    }

    public var stored: StepSyncStored
    var retryArmed = false
    var sync: Sync?
    var nextRequest: UInt32 = 0

    public init(persisted: StepSyncStored = StepSyncStored()) { stored = persisted }

    /// Whether a sync is under way (as the logic believes).
    public var isSyncing: Bool { sync != nil }
    /// The upload awaiting its answer, if any.
    public var awaitingUpload: RequestID? { sync?.awaiting }
}
