/// One `expect` of a scenario judged on a report: `pass`, `fail` or `inconclusive`.
///
/// Rules (docs/report.md, "Expectations"):
/// - A percentile of a latency summary (`….p50`, `p90`, `p95`, `p99`: a key beside a
///   `histogram`) is an estimate from `n` samples: it is judged by its 95 % confidence
///   interval: pass when the whole interval is within the limits, fail when none of it
///   is, inconclusive when it contains a limit. An interval open above (too few samples)
///   can pass no `max`. The interval's ``Method``: batch means over simulated time
///   (``BatchMeans``) when the report keeps the summary's spans in `batches` (the API's
///   waits, which depend on each other), else the order statistics of independent
///   samples (``LatencyHistogram/quantileInterval(_:)``).
/// - `backend.queue.overall.meanWait` and a summary's `mean` with spans in `batches` are
///   judged by their batch-means interval likewise.
/// - Batch means that cannot give an interval (``BatchMeans/Outcome/Status``: the batches
///   stay correlated, or too few samples) make the verdict inconclusive, saying why.
/// - Every other metric (counts, rates, a latency's `max`, which is the sample's exact
///   largest value) is judged on its value alone: pass or fail.
/// - A percentile of an empty histogram is inconclusive (n = 0: nothing to judge by);
///   any other metric with no data (`null`, an empty histogram's `max`) fails.
/// - Inconclusive is a failure only under `--strict` (``isFailure(strict:)``).
public struct ExpectationJudgement: Sendable, Equatable {
    public enum Verdict: String, Sendable, Equatable {
        case pass, fail, inconclusive
    }

    /// The 95 % confidence interval of a percentile, in the value's unit (seconds).
    public struct Interval: Sendable, Equatable {
        /// 0 when no sample bounds the percentile from below (latencies are never negative).
        public var low: Double
        /// Nil when no sample bounds it from above (too few samples).
        public var high: Double?

        public init(low: Double, high: Double?) {
            self.low = low
            self.high = high
        }
    }

    public var metric: String
    public var min: Double?
    public var max: Double?
    /// The bounds as the scenario file writes them (`"72h"`), for what people read.
    public var minText: String?
    public var maxText: String?
    /// Nil when the metric had no data.
    public var value: Double?
    /// How many samples the metric rests on: the `count` of the latency summary whose
    /// percentile or `max` it is; nil for other metrics.
    public var samples: UInt64?
    /// The percentile's 95 % confidence interval; nil for other metrics and without data.
    public var interval: Interval?
    public var verdict: Verdict
    /// How the interval was found; nil for a metric judged on its value alone.
    public var method: Method?
    /// The batches behind a batch-means interval (their figures in seconds).
    public var batches: BatchMeans.Outcome?
    /// The figure the verdict rests on when not `metric` itself: in a merged report, a
    /// backend expectation is judged on the pooled backend's figure (``PooledJudgement``).
    public var judgedOn: String?

    /// How an interval is found (report.json's `ciMethod`).
    public enum Method: String, Sendable, Equatable {
        /// Distribution-free, from the order statistics: samples taken as independent.
        case orderStatistics = "order statistics"
        /// Non-overlapping batches of simulated time (``BatchMeans``).
        case batchMeans = "batch means"
        /// Student's t over independent replications (one estimate per seed).
        case replications
    }

    public init(metric: String, min: Double?, max: Double?, minText: String? = nil, maxText: String? = nil,
                value: Double?, samples: UInt64? = nil, interval: Interval? = nil, verdict: Verdict) {
        self.metric = metric
        self.min = min
        self.max = max
        self.minText = minText
        self.maxText = maxText
        self.value = value
        self.samples = samples
        self.interval = interval
        self.verdict = verdict
    }

    /// True only for a pass (`report.json`'s `pass`).
    public var passed: Bool { verdict == .pass }

    /// Whether this expectation sets exit code 1: a fail, or with `strict` an inconclusive.
    public func isFailure(strict: Bool) -> Bool {
        verdict == .fail || (strict && verdict == .inconclusive)
    }

    // MARK: Judging

    /// Judges `metric` (a number in `document`, or null) against `min`/`max`.
    public static func judge(metric: String, min: Double?, max: Double?, minText: String? = nil, maxText: String? = nil,
                             in document: ReportValue) -> ExpectationJudgement {
        var result = ExpectationJudgement(metric: metric, min: min, max: max, minText: minText, maxText: maxText,
                                          value: document.lookup(metric)?.doubleValue, verdict: .fail)
        if let (summary, statistic) = batchedFigure(metric, in: document) {
            let outcome = BatchMeans.interval(statistic, spans: summary.spans, spanSeconds: summary.spanSeconds)
            result.samples = summary.spans.reduce(0) { $0 + $1.count }
            result.method = .batchMeans
            var seconds = outcome
            seconds.centre = outcome.centre.map { $0 / 1_000_000 }
            seconds.low = outcome.low.map { $0 / 1_000_000 }
            seconds.high = outcome.high.map { $0 / 1_000_000 }
            seconds.batchValues = outcome.batchValues.map { $0 / 1_000_000 }
            result.batches = seconds
            if seconds.status == .ok, let low = seconds.low { result.interval = Interval(low: Swift.max(0, low), high: seconds.high) }
        } else if let (histogram, quantile) = latencyFigure(metric, in: document) {
            result.samples = histogram.count
            if let q = quantile, let bounds = histogram.quantileInterval(q) {
                result.method = .orderStatistics
                result.interval = Interval(low: Double(bounds.low ?? 0) / 1_000_000, high: bounds.high.map { Double($0) / 1_000_000 })
            }
        }
        if let batches = result.batches, batches.status != .ok {
            result.verdict = .inconclusive  // the batches cannot give an interval (status says why)
            return result
        }
        guard let value = result.value else {
            // A percentile of no samples at all: its interval is the whole line, so the
            // run cannot tell (n = 0), not a failure unless --strict. Other metrics with
            // no data fail.
            if result.samples == 0, let (_, quantile) = latencyFigure(metric, in: document), quantile != nil { result.verdict = .inconclusive }
            return result
        }
        func within(_ x: Double) -> Bool { (min.map { x >= $0 } ?? true) && (max.map { x <= $0 } ?? true) }
        if let interval = result.interval {
            let high = interval.high ?? .infinity
            if within(interval.low) && within(high) {
                result.verdict = .pass
            } else if min.map({ high < $0 }) ?? false || max.map({ interval.low > $0 }) ?? false {
                result.verdict = .fail
            } else {
                result.verdict = .inconclusive
            }
        } else {
            result.verdict = within(value) ? .pass : .fail
        }
        return result
    }

    /// The histogram behind `metric` when it is a percentile (`pNN`, with its quantile) or
    /// the `max` of a latency summary; nil otherwise.
    static func latencyFigure(_ metric: String, in document: ReportValue) -> (LatencyHistogram, Double?)? {
        guard let dot = metric.lastIndex(of: ".") else { return nil }
        let key = metric[metric.index(after: dot)...]
        let quantile = percentile(key)
        guard quantile != nil || key == "max",
              let encoding = document.lookup(String(metric[..<dot]))?.objectValue?["histogram"],
              let histogram = LatencyHistogram(exactEncoding: encoding) else { return nil }
        return (histogram, quantile)
    }

    /// The spans of simulated time behind `metric` (`batches.series`, or for the pooled
    /// waits `backend.pooled.batches`) and what to estimate
    /// from them: a percentile or `mean` of a summary with spans, or
    /// `backend.queue.overall.meanWait` (the mean of `backend.queueing`) and
    /// `backend.pooled.meanWait` (of `backend.pooled.queueing`); nil otherwise.
    static func batchedFigure(_ metric: String, in document: ReportValue)
        -> (summary: (spans: [LatencyHistogram], spanSeconds: Int64), statistic: BatchMeans.Statistic)? {
        guard let dot = metric.lastIndex(of: ".") else { return nil }
        let key = metric[metric.index(after: dot)...]
        var of = String(metric[..<dot])
        let statistic: BatchMeans.Statistic
        if metric == "backend.queue.overall.meanWait" || metric == "backend.pooled.meanWait" {
            of = metric == "backend.pooled.meanWait" ? "backend.pooled.queueing" : "backend.queueing"
            statistic = .mean
        } else if key == "mean" {
            statistic = .mean
        } else if let q = percentile(key) {
            statistic = .quantile(q)
        } else {
            return nil
        }
        // A merged report's pooled waits keep their spans beside their figures.
        let pooled = of == "backend.pooled.queueing" ? document.lookup("backend.pooled.batches") : nil
        guard let width = (pooled ?? document.lookup("batches"))?.lookup("bucketSeconds")?.intValue, width > 0,
              let encodings = pooled?.lookup("histograms")?.arrayValue
                ?? document.lookup("batches.series")?.arrayValue?.first(where: { $0.lookup("of")?.stringValue == of })?.lookup("histograms")?.arrayValue
        else { return nil }
        let spans = encodings.compactMap(LatencyHistogram.init(exactEncoding:))
        guard spans.count == encodings.count else { return nil }
        return ((spans, Int64(width)), statistic)
    }

    /// `p95` → 0.95: `p` and a whole number from 1 to 99.
    static func percentile(_ key: Substring) -> Double? {
        guard key.first == "p", let n = Int(key.dropFirst()), n >= 1, n <= 99, key.count <= 3 else { return nil }
        return Double(n) / 100
    }

    // MARK: report.json

    /// The `expect` entry: the keys of earlier versions (`metric`, `min`, `max`,
    /// `minAsWritten`, `maxAsWritten`, `value`, `pass`) and `verdict`, `limit` (the one
    /// bound of a one-sided expectation, in the value's unit; null for two bounds), `n`,
    /// `ciLow`, `ciHigh` (seconds; null where they do not apply, `ciHigh` also when the
    /// interval is open above); `judgedOn` only when another figure was judged (a merged
    /// report's pooled backend).
    public var reportValue: ReportValue {
        var entry: [String: ReportValue] = [
            "metric": .string(metric),
            "min": min.map { .fixed($0, 6) } ?? .null,
            "max": max.map { .fixed($0, 6) } ?? .null,
            "minAsWritten": minText.map { .string($0) } ?? .null,
            "maxAsWritten": maxText.map { .string($0) } ?? .null,
            "limit": (min == nil ? max : max == nil ? min : nil).map { .fixed($0, 6) } ?? .null,
            "value": value.map { .fixed($0, 6) } ?? .null,
            "pass": .bool(passed),
            "verdict": .string(verdict.rawValue),
            "n": samples.map { .count($0) } ?? .null,
            "ciLow": interval.map { .fixed($0.low, 6) } ?? .null,
            "ciHigh": interval?.high.map { .fixed($0, 6) } ?? .null,
            "ciMethod": method.map { .string($0.rawValue) } ?? .null,
            "batches": batches.map { b in
                .object(["status": .string(b.status.rawValue), "count": .count(UInt64(b.batchValues.count)),
                         "seconds": .int(b.batchSeconds), "lag1": b.lag1.map { .fixed($0, 4) } ?? .null,
                         "warmUpSeconds": .int(b.warmUpSeconds), "values": .array(b.batchValues.map { .fixed($0, 6) })])
            } ?? .null,
        ]
        if let judgedOn { entry["judgedOn"] = .string(judgedOn) }
        return .object(entry)
    }

    /// Reads an `expect` entry back. A report of an earlier version (no `verdict`) gives
    /// pass or fail from its `pass`.
    public init(reportEntry e: ReportValue) {
        let low = e.lookup("ciLow")?.doubleValue
        let verdict = e.lookup("verdict")?.stringValue.flatMap(Verdict.init(rawValue:))
            ?? (e.lookup("pass")?.boolValue == true ? .pass : .fail)
        self.init(metric: e.lookup("metric")?.stringValue ?? "?", min: e.lookup("min")?.doubleValue, max: e.lookup("max")?.doubleValue,
                  minText: e.lookup("minAsWritten")?.stringValue, maxText: e.lookup("maxAsWritten")?.stringValue,
                  value: e.lookup("value")?.doubleValue, samples: e.lookup("n")?.intValue.map { UInt64(Swift.max(0, $0)) },
                  interval: low.map { Interval(low: $0, high: e.lookup("ciHigh")?.doubleValue) }, verdict: verdict)
        method = e.lookup("ciMethod")?.stringValue.flatMap(Method.init(rawValue:))
        judgedOn = e.lookup("judgedOn")?.stringValue
        if let b = e.lookup("batches"), let status = b.lookup("status")?.stringValue.flatMap(BatchMeans.Outcome.Status.init(rawValue:)) {
            batches = BatchMeans.Outcome(status: status, centre: nil,
                                         batchValues: (b.lookup("values")?.arrayValue ?? []).compactMap(\.doubleValue),
                                         batchSeconds: Int64(b.lookup("seconds")?.intValue ?? 0), lag1: b.lookup("lag1")?.doubleValue,
                                         warmUpSeconds: Int64(b.lookup("warmUpSeconds")?.intValue ?? 0))
        }
    }

    // MARK: Text

    /// The limit in the value's unit, e.g. `≤ 72.0 h`, `≥ 20.0 %`, `between 1 and 5`, however
    /// the file wrote it (`"72h"`, `0.2`): one unit system for the value and its limit.
    public var limitText: String {
        switch (minShown, maxShown) {
        case let (lo?, hi?): return "between \(lo) and \(hi)"
        case let (lo?, nil): return "≥ \(lo)"
        case let (nil, hi?): return "≤ \(hi)"
        case (nil, nil): return "any value"
        }
    }

    public var valueText: String { MetricText.format(value, path: metric) }

    /// `n = 83; 95 % CI 51.0-91.0 h`, `n = 12` (a `max`), or nil (no samples behind it);
    /// an interval of batch means or replications adds its method (``methodText``) as a
    /// last clause, `n = 1,307; insufficient: too few samples for 10 batches`: the order
    /// statistics' is the default, named in report.md's table. Clauses are separated by
    /// semicolons, never nested in parentheses, so a verdict can wrap them in one pair.
    public var evidenceText: String? { evidence(straddling: false) }

    /// ``evidenceText`` with, for an inconclusive verdict, `straddles <limit>` after the
    /// interval: `n = 83; 95 % CI 51.0-91.0 h straddles 72.0 h; batch means: 32 batches of 5.2 h`.
    public func evidence(straddling: Bool) -> String? {
        guard let samples else { return nil }
        var clauses = ["n = \(HumanUnits.count(samples))"]
        if let interval {
            // Across replications the figure may be any metric (a count): its own unit.
            let range = method == .replications
                ? "\(MetricText.format(interval.low, path: metric))-\(interval.high.map { MetricText.format($0, path: metric) } ?? "∞")"
                : Self.rangeText(interval)
            clauses.append("95 % CI \(range)" + (straddling ? straddled.map { " straddles \($0)" } ?? "" : ""))
        }
        if method != .orderStatistics, let how = methodText { clauses.append(how) }
        return clauses.joined(separator: "; ")
    }

    /// The interval's method in words: `order statistics`, `batch means: 16 batches of
    /// 15 min, warm-up 4 min cut`, `correlated: 10 batches of 2.0 h, lag-1 0.61`,
    /// `insufficient: too few samples for 10 batches`; nil without an interval's method.
    public var methodText: String? {
        guard let method else { return nil }
        guard method == .batchMeans, let b = batches else { return method.rawValue }
        let warm = b.warmUpSeconds > 0 ? ", warm-up \(HumanUnits.duration(seconds: Double(b.warmUpSeconds))) cut" : ""
        let of = "\(b.batchValues.count) batches of \(HumanUnits.duration(seconds: Double(b.batchSeconds)))"
        switch b.status {
        case .ok: return "batch means: \(of)\(warm)"
        case .correlated: return "correlated: \(of), lag-1 \(FixedDecimal.format(b.lag1 ?? 0, digits: 2) ?? "?")"
        case .insufficient: return "insufficient: too few samples for \(BatchMeans.minimumBatches) batches"
        }
    }

    /// `pass`, `FAIL`, or `inconclusive (n = 83; 95 % CI 51.0-91.0 h straddles 72.0 h)`.
    public var verdictText: String {
        switch verdict {
        case .pass: return "pass"
        case .fail: return "FAIL"
        case .inconclusive: return "inconclusive (\(evidence(straddling: true) ?? "no samples"))"
        }
    }

    /// The limits (in the value's unit) that an inconclusive verdict's interval contains: `72h`,
    /// or `1.0 s and 5.0 s`; nil for other verdicts.
    public var straddled: String? {
        guard verdict == .inconclusive, let interval else { return nil }
        let limits = [min.flatMap { interval.low < $0 ? minShown : nil },
                      max.flatMap { m in (interval.high.map { m < $0 } ?? true) ? maxShown : nil }].compactMap { $0 }
        return limits.isEmpty ? nil : limits.joined(separator: " and ")
    }

    /// `51.0-91.0 h`, `45 min-2.1 h`, or `51.0 h to ∞` for an interval open above (in
    /// words: `51.0 h-∞` read as a negative infinity); when
    /// both ends read alike in ``HumanUnits`` (`20 s`), as many more decimals of the upper
    /// end's unit as tell them apart (`19.92-20.00 s`).
    public static func rangeText(_ interval: Interval) -> String {
        let low = HumanUnits.duration(seconds: interval.low)
        guard let highSeconds = interval.high else { return "\(low) to ∞" }
        let high = HumanUnits.duration(seconds: highSeconds)
        if low == high, interval.low != highSeconds, let space = high.lastIndex(of: " ") {
            let unit = high[high.index(after: space)...]
            let scales: [String: Double] = ["µs": 1e-6, "ms": 1e-3, "s": 1, "min": 60, "h": 3_600, "d": 86_400]
            let scale = scales[String(unit)] ?? 1
            for digits in 1...6 {
                let a = FixedDecimal.format(interval.low / scale, digits: digits) ?? low
                let b = FixedDecimal.format(highSeconds / scale, digits: digits) ?? high
                if a != b || digits == 6 { return "\(a)-\(b) \(unit)" }
            }
        }
        let lowUnit = low.split(separator: " ").last, highUnit = high.split(separator: " ").last
        if low != "0 s", lowUnit == highUnit, let space = low.lastIndex(of: " ") { return "\(low[..<space])-\(high)" }
        return "\(low)-\(high)"
    }

    /// The bounds in the value's unit (``MetricText``); `minText`/`maxText` stay in report.json.
    public var minShown: String? { min.map { MetricText.format($0, path: metric) } }
    public var maxShown: String? { max.map { MetricText.format($0, path: metric) } }
}
