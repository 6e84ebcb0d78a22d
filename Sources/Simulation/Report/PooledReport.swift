import Reports

/// `backend.pooled` of a merged report: the shards' recorded requests replayed through
/// one backend of the scenario's whole capacity (``PooledReplay``), beside the
/// shard-local figures of `backend.queue` and `backend.load` (each shard answered with
/// its part of the capacity). A plain run has no such section: its own figures are the
/// pooled ones (docs/scale.md, "One pooled backend").
public enum PooledReport {
    /// What the pooled figures are: exact for the recorded arrivals when no answer of the
    /// shards shaped them (no 503, no client timeout, no provider's send refused), else an
    /// open-loop estimate (the arrivals as the shards' answers made them).
    public static func arrivalsText(_ o: PooledReplay.Outcome, clientTimeouts: Int64) -> String {
        dependsOnAnswers(o, clientTimeouts: clientTimeouts)
            ? "open-loop estimate: the shards' 503s, client timeouts or refused sends shaped the arrivals (retries, and requests a larger backend would have answered)"
            : "exact: no 503, client timeout or refused send shaped the arrivals"
    }

    public static func dependsOnAnswers(_ o: PooledReplay.Outcome, clientTimeouts: Int64) -> Bool {
        o.recordedRejected > 0 || o.recordedSendsRefused > 0 || clientTimeouts > 0
    }

    /// The section: capacity, what the arrivals are, what the shards saw, and the API's
    /// and each notification provider's pooled figures.
    public static func section(_ o: PooledReplay.Outcome, clientTimeouts: Int64) -> ReportValue {
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
        api["arrivals"] = .string(arrivalsText(o, clientTimeouts: clientTimeouts))
        api["shardsSaw"] = ["rejected": .count(o.recordedRejected), "clientTimeouts": .count(clientTimeouts),
                            "retries": .count(o.recordedRetries), "sendsRefused": .count(o.recordedSendsRefused)]
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
