import Reports

/// `backend.pooled` of a merged report: the shards' recorded requests replayed through
/// one backend of the scenario's whole capacity (``PooledReplay``), beside the
/// shard-local figures of `backend.queue` and `backend.load` (each shard answered with
/// its part of the capacity). A plain run has no such section: its own figures are the
/// pooled ones (docs/scale.md, "One pooled backend").
public enum PooledReport {
    /// What the shards' answers did to the arrivals the replay carries: the answers their
    /// part of the capacity shaped (503s, sends refused by a full queue, client timeouts
    /// when some request waited in a shard's queue: a timeout without any wait came from
    /// an outage, the network or a slow service, as in a plain run), the retries sent
    /// after failures, and what the pooled backend itself refused (a plain run's phones
    /// would have heard those 503s).
    public struct ShardAnswers: Sendable {
        public var clientTimeouts: Int64
        /// The longest wait of any request in a shard's queue (microseconds).
        public var longestWait: Int64
        public init(clientTimeouts: Int64, longestWait: Int64) {
            self.clientTimeouts = clientTimeouts
            self.longestWait = longestWait
        }
        /// Client timeouts the shards' queues may have made.
        var queuedTimeouts: Int64 { longestWait > 0 ? clientTimeouts : 0 }
    }

    /// What the pooled figures are (docs/scale.md, "When to trust which figure"): exact for
    /// the recorded arrivals when no answer of the shards' part capacity shaped them and
    /// the pooled backend refused nothing, else an open-loop estimate, with the counts.
    public static func arrivalsText(_ o: PooledReplay.Outcome, _ shards: ShardAnswers) -> String {
        let shaped = Int64(o.recordedRejected) + Int64(o.recordedSendsRefused) + shards.queuedTimeouts
        let refused = o.api.rejected + o.providers.reduce(0) { $0 + $1.rejected }
        guard dependsOnAnswers(o, shards) else {
            let timeouts = shards.clientTimeouts > 0
                ? "; the \(shards.clientTimeouts) client timeouts came without any wait in a shard's queue (an outage, the network or a slow service), as in a plain run"
                : ""
            return "exact: no answer of the shards' part capacity shaped the arrivals (no 503, no refused send, no client timeout after a queue wait)"
                + timeouts + ", and the pooled backend refused nothing"
        }
        var why: [String] = []
        if shaped > 0 {
            why.append("\(shaped) answers of the shards' part capacity (\(o.recordedRejected) 503s, \(o.recordedSendsRefused) refused sends, "
                       + "\(shards.queuedTimeouts) client timeouts with requests queued), followed by \(o.recordedRetries) retries")
        }
        if refused > 0 { why.append("\(refused) requests or sends the pooled backend itself refused, which a plain run's phones would have heard") }
        return "open-loop estimate: " + why.joined(separator: "; ") + ": the arrivals are the shards', not those of one backend of the whole capacity"
    }

    public static func dependsOnAnswers(_ o: PooledReplay.Outcome, _ shards: ShardAnswers) -> Bool {
        o.recordedRejected > 0 || o.recordedSendsRefused > 0 || shards.queuedTimeouts > 0
            || o.api.rejected > 0 || o.providers.contains { $0.rejected > 0 }
    }

    /// The section: capacity, what the arrivals are, what the shards saw, and the API's
    /// and each notification provider's pooled figures.
    public static func section(_ o: PooledReplay.Outcome, _ shards: ShardAnswers) -> ReportValue {
        var providers: [String: ReportValue] = [:]
        for (p, name) in ["apns", "fcm"].enumerated() where o.providers[p].arrivals > 0 {
            let pool = o.providers[p]
            var f = figures(pool, o)
            f["concurrency"] = .count(pool.capacity)
            f["queueLimit"] = .count(pool.queueLimit)
            f["sends"] = .count(pool.arrivals)
            f["peakConcurrent"] = .count(pool.peakBusy)
            f["peakQueue"] = .count(pool.peakQueueDepth)
            f["rejectedByQueue"] = .count(pool.rejected)
            providers[name] = .object(f)
        }
        var api = figures(o.api, o)
        api["requests"] = .count(o.api.arrivals)
        api["served"] = .count(o.api.waits.count)
        api["rejected"] = .count(o.api.rejected)
        api["unanswered"] = .count(o.api.unanswered)
        api["peakQueueDepth"] = .count(o.api.peakQueueDepth)
        api["queueing"] = o.api.waits.latencySummary()
        api["busyWorkersPeak"] = .count(o.api.peakBusy)
        api["busyWorkersPeakOverTime"] = .array(o.api.busyPeak.map { .count($0) })
        api["borrowedServiceTimes"] = .count(o.api.borrowedService)
        api["capacity"] = ["workers": .count(o.capacity.workers), "queueLimit": .count(o.capacity.queueLimit)]
        api["arrivals"] = .string(arrivalsText(o, shards))
        api["shardsSaw"] = ["rejected": .count(o.recordedRejected), "clientTimeouts": .count(shards.clientTimeouts),
                            "retries": .count(o.recordedRetries), "sendsRefused": .count(o.recordedSendsRefused),
                            "longestWait": .seconds(shards.longestWait)]
        api["providers"] = .object(providers)
        return .object(api)
    }

    /// A pool's waits (mean, P(wait > 0)), utilisation and headroom (the least of any
    /// bucket, 0 where it refused work).
    static func figures(_ pool: PooledReplay.Pool, _ o: PooledReplay.Outcome) -> [String: ReportValue] {
        let utilisation = utilisationSeries(pool, o)
        return ["meanWait": DerivedFigures.meanWait(pool.waits), "pWait": DerivedFigures.pWait(pool.waits),
                "utilisation": DerivedFigures.utilisation(busy: Int64(clamping: pool.busy.reduce(0, &+)), capacity: Int64(pool.capacity),
                                                          microseconds: o.durationMicroseconds),
                "headroom": DerivedFigures.leastHeadroom(utilisation: utilisation, refused: pool.rejectedPerBucket.map(Int64.init))]
    }

    public static func utilisationSeries(_ pool: PooledReplay.Pool, _ o: PooledReplay.Outcome) -> [Double] {
        DerivedFigures.utilisationSeries(busy: pool.busy.map { Int64(clamping: $0) }, capacity: Int64(pool.capacity),
                                         bucketSeconds: o.bucketMicroseconds / 1_000_000, durationMicroseconds: o.durationMicroseconds)
    }

    /// The run's headroom of a pool (``figures(_:_:)``'s `headroom`) as a number.
    public static func headroom(_ pool: PooledReplay.Pool, _ o: PooledReplay.Outcome) -> Double {
        DerivedFigures.leastHeadroom(utilisation: utilisationSeries(pool, o), refused: pool.rejectedPerBucket.map(Int64.init)).doubleValue ?? 1
    }
}
