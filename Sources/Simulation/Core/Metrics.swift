import AppLogic
import SimKernel
import Reports

/// What the core, the backend and the OS models measure, accumulated as the run goes
/// (each feature host keeps its own metrics beside its state).
struct Metrics {
    var queueingLatency = LatencyHistogram()
    var rejected: UInt64 = 0
    var unanswered: UInt64 = 0
    var timeouts: UInt64 = 0
    var transportFailures: UInt64 = 0
    var unauthorized: UInt64 = 0
    /// Requests arriving at the server per second of simulated time, folded as time
    /// passes (a few kB, whatever the run's length).
    var arrivalsPerSecond = PerSecondArrivals()
    /// The API's wait for a worker per endpoint (``LoadSeries/endpointNames``): what
    /// `backend.queue.byEndpoint` derives mean wait, P(wait > 0) and percentiles from.
    var queueingByEndpoint = Array(repeating: LatencyHistogram(), count: LoadSeries.endpointNames.count)
    /// The same waits by the span of simulated time in which they ended (``BatchMeans``):
    /// report.json's `batches`, what the interval of a queueing percentile or mean wait
    /// rests on (waits depend on each other: docs/report.md, "Intervals").
    var queueingBatches = LatencyTimeline(bucketSeconds: 1, durationMicroseconds: 0)

    var launches: UInt64 = 0
    var submitUnavailable: UInt64 = 0
    var launchesHeldBack: UInt64 = 0
    var expirations: UInt64 = 0
    var earlyExpirations: UInt64 = 0
    var watchdogKills: UInt64 = 0
    var jetsamKills: UInt64 = 0
    var notificationsSuppressed: UInt64 = 0
    var appOpens: UInt64 = 0
    var testsTaken: UInt64 = 0
    var platform = PlatformMetrics()

    /// `keepsSeconds`: a shard keeps every busy second (``PerSecondArrivals/keepsSeconds``).
    init(keepsSeconds: Bool = false, durationMicroseconds: Int64 = 0) {
        arrivalsPerSecond.keepsSeconds = keepsSeconds
        queueingBatches = LatencyTimeline(bucketSeconds: BatchMeans.spanSeconds(durationMicroseconds: durationMicroseconds),
                                          durationMicroseconds: durationMicroseconds)
    }

    /// A request of `cause` to `endpoint` (``Job/endpointRow``) arrives.
    mutating func countArrival(at now: SimTime, cause: LoadCause, endpoint: Int) {
        arrivalsPerSecond.count(second: Int(now.microseconds / 1_000_000), mix: PerSecondArrivals.mixIndex(cause: cause, endpoint: endpoint))
    }

    /// A worker takes a request to `endpoint` after it waited `wait` (0: at once).
    mutating func recordWait(_ wait: SimDuration, endpoint: Int, at now: SimTime) {
        queueingLatency.record(wait.microseconds)
        queueingBatches.record(wait.microseconds, at: now.microseconds)
        queueingByEndpoint[endpoint].record(wait.microseconds)
    }
}

/// The energy of each event of one kind (a feature's task or upload) in one cohort,
/// as report.json's `battery` shows it: in mAh and in percent of the cohort's battery.
/// Kept as the two distributions themselves, filled one event at a time: they are exact
/// (``ValueDistribution/add(_:)`` gives what building them from every value at the end
/// gave, byte for byte) and hold the distinct written values, a few hundred, where the
/// values themselves cost 8 bytes an event (about 170 bytes per device and day).
struct EventEnergy {
    let capacityMah: Double
    private(set) var mAh = ValueDistribution(digits: 4)
    private(set) var percentOfCapacity = ValueDistribution(digits: 5)

    init(capacityMah: Double) { self.capacityMah = capacityMah }

    mutating func add(_ mAh: Double) {
        self.mAh.add(mAh)
        percentOfCapacity.add(mAh / capacityMah * 100)
    }

    var count: UInt64 { mAh.count }

    /// `{count, mAh, percentOfCapacity}`, as `battery.<cohort>` shows it.
    var summary: ReportValue {
        ["count": .count(count), "mAh": mAh.summary(), "percentOfCapacity": percentOfCapacity.summary()]
    }
}

/// How many requests arrived in each second of the run, kept as a histogram (how many
/// seconds saw k arrivals) instead of one counter per second: arrivals come in time
/// order, so a second is final once a later one starts. The quantiles and the peak are
/// exact; memory is one counter per distinct per-second count (about the peak), not
/// 31.6 M counters for a 366-day run.
struct PerSecondArrivals {
    /// `secondsWith[k]`: seconds, before ``current``, that saw exactly k > 0 arrivals.
    private(set) var secondsWith: [UInt64] = [0]
    private(set) var current = -1
    private(set) var currentCount: UInt32 = 0
    /// The busiest second before ``current`` and its start (the first of equals).
    private(set) var peak: UInt32 = 0
    private(set) var peakSecond = 0
    /// A shard also keeps every busy second and its arrivals (8 bytes a busy second),
    /// for `backend.load.arrivalsBySecond`, which `fleetsim merge` adds up second by
    /// second to find the merged run's busiest second and p99 exactly.
    var keepsSeconds = false
    private(set) var busySeconds: [UInt32] = []
    private(set) var busyCounts: [UInt32] = []
    /// The current second's arrivals by cause, then by endpoint (``mixIndex(cause:endpoint:)``),
    /// and the busiest seconds' (``topLimit``, busiest first, the earlier of equals first):
    /// what explains the peak second, kept for those seconds only.
    private var currentMix = [UInt32](repeating: 0, count: mixWidth)
    private(set) var top: [(second: Int, count: UInt32, mix: [UInt32])] = []
    /// How many busiest seconds keep their mix: the run's busiest; a shard's 8 busiest, so
    /// that merge finds the merged busiest second's mix in every shard when its load
    /// comes from all of them at once (a herd: `ReportMerge`'s `secondMixes`).
    var topLimit: Int { keepsSeconds ? 8 : 1 }

    /// Causes first, then endpoints.
    static let mixWidth = LoadCause.allCases.count + LoadSeries.endpointNames.count

    /// The two slots an arrival of `cause` to `endpoint` counts in: its cause's and its endpoint's.
    @inline(__always) static func mixIndex(cause: LoadCause, endpoint: Int) -> (cause: Int, endpoint: Int) {
        (Int(cause.rawValue), LoadCause.allCases.count + endpoint)
    }

    mutating func count(second: Int, mix: (cause: Int, endpoint: Int)) {
        if second != current {
            fold()
            current = second
        }
        currentCount &+= 1
        currentMix[mix.cause] &+= 1
        currentMix[mix.endpoint] &+= 1
    }

    private mutating func fold() {
        guard currentCount > 0 else { return }
        let k = Int(currentCount)
        if k >= secondsWith.count { secondsWith.append(contentsOf: repeatElement(0, count: k - secondsWith.count + 1)) }
        secondsWith[k] += 1
        if currentCount > peak { peak = currentCount; peakSecond = current }
        if top.count < topLimit || currentCount > top[top.count - 1].count {
            let at = top.firstIndex { $0.count < currentCount } ?? top.count
            top.insert((current, currentCount, currentMix), at: at)
            if top.count > topLimit { top.removeLast() }
        }
        if keepsSeconds { busySeconds.append(UInt32(current)); busyCounts.append(currentCount) }
        currentCount = 0
        for i in currentMix.indices { currentMix[i] = 0 }
    }

    /// The busiest seconds (``topLimit``, busiest first) with their arrivals by cause
    /// (``LoadCause`` order) and by endpoint (``LoadSeries/endpointNames`` order).
    func busiestSecondMixes() -> [(second: Int, byCause: [UInt32], byEndpoint: [UInt32])] {
        var done = self
        done.fold()
        let causes = LoadCause.allCases.count
        return done.top.map { ($0.second, Array($0.mix[..<causes]), Array($0.mix[causes...])) }
    }

    /// The busy seconds and their arrivals, ascending (empty unless ``keepsSeconds``).
    func bySecond() -> (seconds: [UInt32], counts: [UInt32]) {
        var done = self
        done.fold()
        return (done.busySeconds, done.busyCounts)
    }

    /// The whole run of `seconds` seconds (quiet ones count as 0): the busiest second
    /// (arrivals, its start in seconds) and the nearest-rank quantile `q` of the
    /// per-second counts, as ``Summary/quantile(_:)`` computes it over every second.
    func summary(seconds: Int, quantile q: Double) -> (peak: UInt32, peakAt: Int, quantile: Double) {
        var done = self
        done.fold()
        let busy = done.secondsWith.reduce(0, +)
        let total = max(UInt64(seconds), UInt64(max(done.current + 1, 0)), busy)
        guard total > 0 else { return (0, 0, 0) }
        let rank = UInt64(max(1, Int((q * Double(total)).rounded(.up))))
        var seen = total - busy  // the quiet seconds sort first
        var value = 0
        if seen < rank {
            for (k, n) in done.secondsWith.enumerated() where n > 0 {
                seen += n
                if seen >= rank { value = k; break }
            }
        }
        return (done.peak, done.peakSecond, Double(value))
    }
}
