import SimKernel
import Backend
import Reports

/// Recorded requests (``RequestLog``) replayed, in arrival order, through one backend of a
/// given capacity: the API's workers and queue places, and each notification provider's streams
/// and queue places, each a pool run by ``APIServerModel``, the queue the run itself uses
/// (first come first served; a full queue refuses at once). Each request keeps what the
/// run recorded of it: its arrival, its endpoint or provider, its service time or stream
/// hold. A request the run refused (so drew no service time for) borrows one of a served
/// request of its endpoint (provider), picked by a hash of its arrival; one that arrived
/// during an outage stays unanswered. A worker that finishes at an arrival's instant is
/// free for it. The replay is exact for the recorded arrivals; they are the arrivals of
/// a backend of another capacity only while no answer shaped them (docs/scale.md, "One
/// pooled backend").
public enum PooledReplay {
    public struct Capacity: Equatable, Sendable {
        public var workers: Int
        public var queueLimit: Int
        public var streams: Int
        public var streamQueueLimit: Int
        public init(workers: Int, queueLimit: Int, streams: Int, streamQueueLimit: Int) {
            self.workers = workers
            self.queueLimit = queueLimit
            self.streams = streams
            self.streamQueueLimit = streamQueueLimit
        }
        public init(_ h: RequestLog.Header) {
            self.init(workers: h.workers, queueLimit: h.queueLimit, streams: h.streams, streamQueueLimit: h.streamQueueLimit)
        }
    }

    /// One pool's replay: the API's, or a notification provider's.
    public struct Pool: Sendable {
        public var capacity: Int
        public var queueLimit: Int
        /// Requests (sends) replayed, outages' unanswered ones included.
        public var arrivals: UInt64 = 0
        /// The wait of each served request for a worker (stream), in microseconds.
        public var waits = LatencyHistogram()
        /// The same waits by span of simulated time, when they ended: what their interval
        /// rests on (``BatchMeans``), as the run's `batches`.
        public var batches: LatencyTimeline
        public var rejected: UInt64 = 0
        public var unanswered: UInt64 = 0
        public var peakQueueDepth = 0
        /// Busy time per bucket of the run's load series (worker-microseconds).
        public var busy: [UInt64]
        /// The most busy at once per bucket.
        public var busyPeak: [UInt32]
        public var rejectedPerBucket: [UInt32]
        /// Requests whose service time was borrowed (the run drew none).
        public var borrowedService: UInt64 = 0
        /// The most busy at once over the run.
        public var peakBusy: UInt32 { busyPeak.max() ?? 0 }
    }

    public struct Outcome: Sendable {
        public var capacity: Capacity
        public var bucketMicroseconds: Int64
        public var durationMicroseconds: Int64
        public var api: Pool
        /// APNs, FCM.
        public var providers: [Pool]
        /// What the recording run saw that its answers shaped: its 503s and the sends
        /// refused by a full queue, and its retries (a request sent after a failed answer
        /// or by a backoff timer).
        public var recordedRejected: UInt64 = 0
        public var recordedSendsRefused: UInt64 = 0
        public var recordedRetries: UInt64 = 0
    }

    /// `records` in replay order (``RequestLog/sortedForReplay(_:)``) through one backend
    /// of `capacity`, over a run of `durationMicroseconds`.
    public static func replay(_ records: [RecordedRequest], capacity: Capacity, durationMicroseconds: Int64) -> Outcome {
        let duration = SimDuration(microseconds: durationMicroseconds)
        let bucket = LoadSeries.bucket(for: duration)
        let buckets = LoadSeries.buckets(duration)
        func pool(_ c: Int, _ k: Int) -> Pool {
            Pool(capacity: c, queueLimit: k,
                 batches: LatencyTimeline(bucketSeconds: BatchMeans.spanSeconds(durationMicroseconds: durationMicroseconds), durationMicroseconds: durationMicroseconds),
                 busy: [UInt64](repeating: 0, count: buckets), busyPeak: [UInt32](repeating: 0, count: buckets),
                 rejectedPerBucket: [UInt32](repeating: 0, count: buckets))
        }
        var outcome = Outcome(capacity: capacity, bucketMicroseconds: bucket.microseconds, durationMicroseconds: durationMicroseconds,
                              api: pool(capacity.workers, capacity.queueLimit),
                              providers: [pool(capacity.streams, capacity.streamQueueLimit), pool(capacity.streams, capacity.streamQueueLimit)])
        for r in records {
            if r.flags.contains(.retry) { outcome.recordedRetries += 1 }
            if r.flags.contains(.rejected) {
                if r.isSend { outcome.recordedSendsRefused += 1 } else { outcome.recordedRejected += 1 }
            }
        }
        outcome.api = run(records.filter { !$0.isSend }, into: outcome.api, bucket: bucket, end: durationMicroseconds)
        for p in 0..<2 {
            outcome.providers[p] = run(records.filter { $0.isSend && $0.index == p }, into: outcome.providers[p], bucket: bucket, end: durationMicroseconds)
        }
        return outcome
    }

    /// One pool's records (in replay order) through ``APIServerModel``.
    static func run(_ records: [RecordedRequest], into start: Pool, bucket: SimDuration, end: Int64) -> Pool {
        var pool = start
        // The served requests' service times by endpoint (provider), for those the run drew none for.
        var drawn: [[UInt32]] = Array(repeating: [], count: 128)
        for r in records where !r.flags.contains(.unknownService) { drawn[r.index].append(r.service) }
        let anyDrawn = drawn.flatMap { $0 }
        func service(_ k: Int) -> Int64 {
            let r = records[k]
            guard r.flags.contains(.unknownService) else { return Int64(r.service) }
            let from = drawn[r.index].isEmpty ? anyDrawn : drawn[r.index]
            guard !from.isEmpty else { return 0 }
            pool.borrowedService += 1
            return Int64(from[Int(mix(UInt64(bitPattern: r.arrival) &+ UInt64(r.shard) << 48 &+ UInt64(k)) % UInt64(from.count))])
        }
        var server = APIServerModel(workers: pool.capacity, queueLimit: pool.queueLimit, serviceTime: .constant(0))
        var completions = MinHeap()
        var peaks = BucketPeaks(buckets: pool.busy.count)
        let buckets = pool.busy.count
        func index(_ t: Int64) -> Int { LoadSeries.index(SimTime(microseconds: t), bucket: bucket, buckets: buckets) }
        func startService(_ k: Int, at t: Int64) {
            let s = service(k)
            completions.insert(t + s)
            let stop = s >= end - t ? end : t + s
            if stop > t { LoadSeries.spread(from: t, to: stop, bucket: bucket, into: &pool.busy) }
        }
        func complete(upTo limit: Int64) {
            while let t = completions.min, t <= limit, t < end {
                completions.pop()
                if let next = server.finish() {
                    pool.waits.record(t - next.since.microseconds)
                    pool.batches.record(t - next.since.microseconds, at: t)
                    startService(Int(next.job), at: t)
                }
                peaks.note(server.busy, bucket: index(t))
            }
        }
        for k in records.indices {
            let r = records[k]
            guard r.arrival < end else { break }
            complete(upTo: r.arrival)
            pool.arrivals += 1
            if r.flags.contains(.unanswered) { pool.unanswered += 1; continue }
            let b = index(r.arrival)
            switch server.arrive(job: UInt32(k), now: SimTime(microseconds: r.arrival)) {
            case .serve:
                pool.waits.record(0)
                pool.batches.record(0, at: r.arrival)
                startService(k, at: r.arrival)
            case .queued: break
            case .rejected, .unanswered:
                pool.rejected += 1
                pool.rejectedPerBucket[b] &+= 1
            }
            peaks.note(server.busy, bucket: b)
        }
        complete(upTo: end)
        pool.busyPeak = peaks.filled
        pool.peakQueueDepth = server.peakQueueDepth
        return pool
    }

    /// SplitMix64's finaliser: a fixed, well-spread hash.
    static func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A binary min-heap of completion instants.
struct MinHeap {
    private var items: [Int64] = []
    var min: Int64? { items.first }
    mutating func insert(_ v: Int64) {
        items.append(v)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[parent] > items[i] else { break }
            items.swapAt(parent, i)
            i = parent
        }
    }
    mutating func pop() {
        guard !items.isEmpty else { return }
        items.swapAt(0, items.count - 1)
        items.removeLast()
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < items.count, items[l] < items[m] { m = l }
            if r < items.count, items[r] < items[m] { m = r }
            guard m != i else { return }
            items.swapAt(i, m)
            i = m
        }
    }
}
