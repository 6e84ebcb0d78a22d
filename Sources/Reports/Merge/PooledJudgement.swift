/// A merged report's backend expectations judged on the pooled backend (docs/scale.md,
/// "One pooled backend"): each shard answered with its part of the capacity, so its queue,
/// its 503s and its headroom are not the backend's; the shards' requests replayed through
/// the whole capacity (`backend.pooled`) are. An expectation on such a figure is judged on
/// its pooled twin, and its entry names it (`judgedOn`).
public enum PooledJudgement {
    /// The pooled figure that stands for `metric`, or nil when it has none (a count that
    /// adds up exactly across shards is its own).
    public static func pooledMetric(for metric: String) -> String? {
        let p = "backend.pooled."
        if metric.hasPrefix("backend.queueing.") { return p + "queueing." + metric.dropFirst("backend.queueing.".count) }
        let direct = ["backend.queue.overall.meanWait": "meanWait", "backend.queue.overall.pWait": "pWait",
                      "backend.queue.overall.utilisation": "utilisation", "backend.rejected": "rejected",
                      "backend.peakQueueDepth": "peakQueueDepth", "backend.load.apiHeadroom": "headroom"]
        if let key = direct[metric] { return p + key }
        let parts = metric.split(separator: ".").map(String.init)
        if parts.count == 4, parts[0] == "backend", parts[1] == "pushes", ["peakConcurrent", "rejectedByQueue", "headroom"].contains(parts[3]) {
            return p + "providers.\(parts[2]).\(parts[3])"
        }
        return nil
    }

    /// `merged` with its `expect` entries judged again: those with a pooled twin in
    /// `merged` on it, the others as they were.
    public static func rejudge(_ merged: ReportValue) -> ReportValue {
        guard let entries = merged.at(["expect"])?.arrayValue else { return merged }
        let judged: [ReportValue] = entries.map { entry in
            let e = ExpectationJudgement(reportEntry: entry)
            guard let pooled = pooledMetric(for: e.metric), merged.lookup(pooled) != nil else { return entry }
            var j = ExpectationJudgement.judge(metric: pooled, min: e.min, max: e.max, minText: e.minText, maxText: e.maxText, in: merged)
            j.metric = e.metric
            j.judgedOn = pooled
            return j.reportValue
        }
        guard case .object(var document) = merged else { return merged }
        document["expect"] = .array(judged)
        return .object(document)
    }
}
