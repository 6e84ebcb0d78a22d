/// The most of something in use at once (busy API workers, a feature backend's open streams) in each
/// bucket of a ``LoadSeries``, over the bucket's whole time: the level is noted at every
/// change, and a bucket with no change holds the level carried into it (a long service
/// keeps its worker busy through quiet minutes). So the peaks of shards, added per
/// bucket, bound from above the peak of the shards together whenever each shard's
/// level is the same as in the plain run.
struct BucketPeaks {
    private(set) var peaks: [UInt32]
    /// The level after the last change, and the bucket of that change.
    private var level: UInt32 = 0
    private var bucket = 0

    init(buckets: Int) { peaks = [UInt32](repeating: 0, count: buckets) }

    /// The level is `now` in bucket `b` (buckets never go back).
    mutating func note(_ now: Int, bucket b: Int) {
        guard !peaks.isEmpty else { return }
        if b > bucket {
            for k in (bucket + 1)...b where peaks[k] < level { peaks[k] = level }
            bucket = b
        }
        level = UInt32(clamping: now)
        if peaks[b] < level { peaks[b] = level }
    }

    /// The peaks to the end of the run: the last level holds in the buckets after its change.
    var filled: [UInt32] {
        var done = peaks
        if bucket + 1 < done.count { for k in (bucket + 1)..<done.count where done[k] < level { done[k] = level } }
        return done
    }
}
