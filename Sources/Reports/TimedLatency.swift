/// A latency recorded over the whole run and per hour of it, by one call, so the two
/// always hold the same samples: ``whole`` is the summary `latency.<name>` writes,
/// ``overTime`` its series in `latencyOverTime` (``LatencyTimeline``).
public struct TimedLatency: Sendable {
    /// The bucket width of report.json's `latencyOverTime` for a run of
    /// `durationMicroseconds`: an hour, or for a run of more than 61 days the first of
    /// 6 hours and a day that keeps it within ``maximumBuckets`` buckets, so the section
    /// (and the memory that holds it) is bounded whatever the run's length (docs/report.md,
    /// "latencyOverTime").
    public static func bucketSeconds(durationMicroseconds: Int64) -> Int64 {
        let seconds = (Swift.max(durationMicroseconds, 0) + 999_999) / 1_000_000
        return [3_600, 21_600].first { (seconds + $0 - 1) / $0 <= maximumBuckets } ?? 86_400
    }

    /// The most buckets of an hour or 6 hours: 61 days of hours.
    public static let maximumBuckets: Int64 = 1_464

    /// The buckets of a run of `durationMicroseconds` (at least one).
    public static func buckets(durationMicroseconds: Int64) -> Int64 {
        let width = bucketSeconds(durationMicroseconds: durationMicroseconds) * 1_000_000
        return Swift.max(1, (Swift.max(durationMicroseconds, 0) + width - 1) / width)
    }

    public private(set) var whole = LatencyHistogram()
    public private(set) var overTime: LatencyTimeline

    /// Empty, for a run of `durationMicroseconds`.
    public init(durationMicroseconds: Int64) {
        overTime = LatencyTimeline(bucketSeconds: Self.bucketSeconds(durationMicroseconds: durationMicroseconds), durationMicroseconds: durationMicroseconds)
    }

    /// One delay of `value` microseconds that ended `at` microseconds after the run's start.
    public mutating func record(_ value: Int64, at: Int64) {
        whole.record(value)
        overTime.record(value, at: at)
    }
}
