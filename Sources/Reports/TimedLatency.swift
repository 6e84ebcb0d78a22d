/// A latency recorded over the whole run and per hour of it, by one call, so the two
/// always hold the same samples: ``whole`` is the summary `latency.<name>` writes,
/// ``overTime`` its series in `latencyOverTime` (``LatencyTimeline``).
public struct TimedLatency: Sendable {
    /// Hours: the bucket width of report.json's `latencyOverTime`.
    public static let bucketSeconds: Int64 = 3_600

    public private(set) var whole = LatencyHistogram()
    public private(set) var overTime: LatencyTimeline

    /// Empty, for a run of `durationMicroseconds`.
    public init(durationMicroseconds: Int64) {
        overTime = LatencyTimeline(bucketSeconds: Self.bucketSeconds, durationMicroseconds: durationMicroseconds)
    }

    /// One delay of `value` microseconds that ended `at` microseconds after the run's start.
    public mutating func record(_ value: Int64, at: Int64) {
        whole.record(value)
        overTime.record(value, at: at)
    }
}
