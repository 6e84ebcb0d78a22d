/// Combines the `report.json` documents of the shards of one run (`fleetsim merge`)
/// into one document with the same keys, by one rule per key (``rules``).
///
/// Order-independent: the inputs are put in shard order first, so every sum of
/// fractional numbers is taken in the same order whatever order the files came in.
public enum ReportMerge {
    /// How one key of `report.json` combines across shards.
    public enum Rule: Equatable, Sendable {
        /// Configuration or identity: must be equal in every input (else refused).
        case identical
        /// `simulated.shard`: checked as a complete plan, then dropped.
        case shardPlan
        /// Counters, capacities (each shard holds its part), per-second means: summed.
        case sum
        /// Peaks and maxima: the largest.
        case max
        /// A latency object (`count`, percentiles, `histogram`): the histograms'
        /// buckets are merged and the summary recomputed from the merged histogram.
        case latency
        /// A series over time (one value per bucket): summed per bucket.
        case seriesSum
        /// A peak series: the largest per bucket.
        case seriesMax
        /// `invariants.samples`: merged in (time, device) order, cut to the sample limit.
        case samples
        /// `expect`: re-evaluated on the merged values.
        case expectations
        /// `1 - peak / capacity` from the merged peak and capacity (keys given).
        case headroom(peak: String, capacity: String)
        /// A copy of another merged key (e.g. a p95 shown twice).
        case copy(String)
        /// Not recoverable from the shards' reports yet (a percentile or a ratio of
        /// per-device values without its distribution): `null` in a merged report.
        case unavailable
        /// 64-bit hashes written as 16 hex digits (a list: element by element), added
        /// with wrapping: the event-stream hashes of devices, which sum over devices.
        case hashSum
        /// The total event hash: the merged `devices` sum plus the `fleet` chain, which
        /// every shard computes alike (fleet-wide events run in every shard).
        case hashTotal
    }

    /// The one table of rules: a path pattern (`*` one key, `**` the rest) and its
    /// rule; the first pattern that matches a key's path wins. Every key of a report
    /// must match one (ReportMergeTests checks it on the default scenario's report).
    public static let rules: [(pattern: String, rule: Rule)] = [
        ("scenario", .identical), ("seed", .identical), ("fleetsimVersion", .identical),
        ("simulated.duration", .identical), ("simulated.start", .identical), ("simulated.shard.*", .shardPlan),
        ("simulated.devices", .sum), ("simulated.events", .sum),
        ("expect", .expectations),
        ("invariants.samples", .samples), ("invariants.**", .sum),
        ("latency.**", .latency),
        ("backend.queueing", .latency), ("backend.pushes.*.latency", .latency),
        ("backend.load.bucketSeconds", .identical),
        ("backend.load.apiHeadroom", .headroom(peak: "backend.load.apiBusyWorkersPeak", capacity: "backend.capacity.workers")),
        ("backend.load.apiBusyWorkersPeak", .seriesMax), ("backend.load.pushConcurrentPeak.*", .seriesMax),
        ("backend.load.pushQueueDepthPeak.*", .seriesMax), ("backend.load.**", .seriesSum),
        ("backend.peakQueueDepth", .max),
        ("backend.pushes.*.peakConcurrent", .max), ("backend.pushes.*.peakQueueDepth", .max),
        ("backend.pushes.apns.headroom", .headroom(peak: "backend.pushes.apns.peakConcurrent", capacity: "backend.pushes.apns.concurrency")),
        ("backend.pushes.fcm.headroom", .headroom(peak: "backend.pushes.fcm.peakConcurrent", capacity: "backend.pushes.fcm.concurrency")),
        ("backend.requestsPerSecond.mean", .sum), ("backend.requestsPerSecond.peak", .max),
        ("backend.requestsPerSecond.p99", .unavailable),
        ("backend.**", .sum),
        ("battery.*.budget.perRefreshPercent", .identical), ("battery.*.capacityMah", .identical),
        ("battery.*.devicesOverBudget", .sum), ("battery.*.*.count", .sum),
        ("battery.**.max", .max), ("battery.**", .unavailable),
        ("push.providerLatencyP95.apns", .copy("backend.pushes.apns.latency.p95")),
        ("push.providerLatencyP95.fcm", .copy("backend.pushes.fcm.latency.p95")),
        ("push.timeToOpen", .latency),
        ("push.deliveryRate", .unavailable), ("push.failureRate", .unavailable), ("push.openRate", .unavailable),
        ("push.tokens.expirationRatePerWeek", .unavailable),
        ("push.**", .sum),
        ("scheduling.alarms.dozeDelay", .latency), ("scheduling.dozeDeferral", .latency),
        ("scheduling.fcm.dozeDelay", .latency), ("scheduling.workManagerDelay", .latency),
        ("scheduling.launchesPerDeviceDay.**", .unavailable),
        ("scheduling.**", .sum),
        ("events.hash.function", .identical), ("events.hash.fleet", .identical),
        ("events.hash.devices", .hashSum), ("events.hash.byCohort", .hashSum), ("events.hash.byBucket", .hashSum),
        ("events.hash.total", .hashTotal), ("events.hash.delivered", .unavailable),
        ("analytics.**", .sum), ("continuation.**", .sum), ("notifications.**", .sum),
        ("users.**", .sum), ("stepSync.**", .sum),
    ]

    /// How many violation samples a report keeps (the oracle's limit).
    public static let sampleLimit = 20

    /// The rule of a key path, or nil when no pattern matches.
    public static func rule(for path: [String]) -> Rule? {
        rules.first { matches($0.pattern.split(separator: ".").map(String.init), path) }?.rule
    }

    static func matches(_ pattern: [String], _ path: [String]) -> Bool {
        guard let head = pattern.first else { return path.isEmpty }
        if head == "**" {
            let rest = Array(pattern.dropFirst())
            return (1...Swift.max(1, path.count)).contains { k in k <= path.count && matches(rest, Array(path.dropFirst(k))) }
        }
        guard let first = path.first, head == "*" || head == first else { return false }
        return matches(Array(pattern.dropFirst()), Array(path.dropFirst()))
    }

    /// Why reports cannot be merged: the message names the files and what differs.
    public struct Refusal: Error, Equatable, Sendable {
        public var message: String
    }

    /// Every leaf key path of a report as the rules see it: a latency object (one with
    /// `histogram`), a list, or a scalar is a leaf.
    public static func leafPaths(_ value: ReportValue, _ prefix: [String] = []) -> [[String]] {
        guard case .object(let members) = value, members["histogram"] == nil || prefix.isEmpty else { return [prefix] }
        return members.keys.sorted().flatMap { leafPaths(members[$0]!, prefix + [$0]) }
    }

    /// Merges `reports` (name, document): the complete set of shards `0..<N` of one run.
    public static func merge(_ reports: [(name: String, report: ReportValue)]) throws(Refusal) -> ReportValue {
        guard let first = reports.first else { throw Refusal(message: "merge needs at least one report") }
        let ordered = try shardOrder(reports)
        var merged: [String: ReportValue] = [:]
        for path in leafPaths(first.report) {
            guard let rule = rule(for: path) else {
                throw Refusal(message: "\(first.name): key \(path.joined(separator: ".")) has no merge rule in this build")
            }
            let values = ordered.map { $0.report.at(path) }
            if let value = try combine(rule, path: path, values: values, names: ordered.map(\.name)) {
                set(&merged, path, value)
            }
        }
        var document = ReportValue.object(merged)
        for path in leafPaths(first.report) {
            switch rule(for: path) {
            case .headroom(let peak, let capacity)?:
                let found = document.at(peak.split(separator: ".").map(String.init))
                let p = found?.arrayValue.map { $0.compactMap(\.doubleValue).max() ?? 0 } ?? found?.doubleValue ?? 0
                let c = document.at(capacity.split(separator: ".").map(String.init))?.doubleValue ?? 0
                set(&merged, path, .fixed(c > 0 ? 1 - p / c : 1, 4))
            case .hashTotal?:
                let devices = document.at(["events", "hash", "devices"])?.stringValue.flatMap { UInt64($0, radix: 16) } ?? 0
                let fleet = document.at(["events", "hash", "fleet"])?.stringValue.flatMap { UInt64($0, radix: 16) } ?? 0
                set(&merged, path, .string(HashText.hex(devices &+ fleet)))
            case .copy(let source)?:
                set(&merged, path, document.at(source.split(separator: ".").map(String.init)) ?? .null)
            default: break
            }
        }
        document = .object(merged)
        if first.report.at(["expect"]) != nil {
            set(&merged, ["expect"], reevaluate(first.report.at(["expect"]) ?? .array([]), on: document))
            document = .object(merged)
        }
        return document
    }

    /// Checks identity and the shard plan; returns the reports in shard order.
    static func shardOrder(_ reports: [(name: String, report: ReportValue)]) throws(Refusal) -> [(name: String, report: ReportValue)] {
        let first = reports[0]
        for key in ["scenario", "seed", "fleetsimVersion", "simulated.duration", "simulated.start"] {
            let path = key.split(separator: ".").map(String.init)
            for other in reports.dropFirst() where other.report.at(path) != first.report.at(path) {
                let what = key == "seed" ? " (merging seed reports into cross-seed figures is not available yet: merge the shards of one seed)" : ""
                throw Refusal(message: "\(first.name) and \(other.name) are not shards of one run: \(key) differs "
                              + "(\(describe(first.report.at(path))) vs \(describe(other.report.at(path))))\(what)")
            }
        }
        var plans: [(index: Int64, count: Int64, item: (name: String, report: ReportValue))] = []
        for item in reports {
            guard let index = item.report.at(["simulated", "shard", "index"])?.intValue,
                  let count = item.report.at(["simulated", "shard", "count"])?.intValue else {
                throw Refusal(message: "\(item.name) has no simulated.shard: it is not the report of a 'fleetsim run --shard K/N'")
            }
            plans.append((index, count, item))
        }
        let n = plans[0].count
        if let other = plans.first(where: { $0.count != n }) {
            throw Refusal(message: "\(plans[0].item.name) is shard \(plans[0].index)/\(n) but \(other.item.name) is shard \(other.index)/\(other.count): different shard plans")
        }
        plans.sort { $0.index < $1.index }
        for (a, b) in zip(plans, plans.dropFirst()) where a.index == b.index {
            throw Refusal(message: "\(a.item.name) and \(b.item.name) are both shard \(a.index)/\(n)")
        }
        let missing = (0..<n).filter { k in !plans.contains { $0.index == k } }
        if !missing.isEmpty {
            throw Refusal(message: "shard\(missing.count == 1 ? "" : "s") \(missing.map { "\($0)/\(n)" }.joined(separator: ", ")) missing: "
                          + "merge needs all \(n) shards of the run, found \(plans.map { "\($0.index)/\(n) (\($0.item.name))" }.joined(separator: ", "))")
        }
        return plans.map(\.item)
    }

    static func describe(_ value: ReportValue?) -> String {
        switch value {
        case .string(let s)?: return "\"\(s)\""
        case .int(let n)?: return String(n)
        case .number(let x, _)?: return String(x)
        default: return "missing"
        }
    }

    static func combine(_ rule: Rule, path: [String], values: [ReportValue?], names: [String]) throws(Refusal) -> ReportValue? {
        let key = path.joined(separator: ".")
        switch rule {
        case .identical:
            for (k, v) in values.enumerated() where v != values[0] {
                throw Refusal(message: "\(names[0]) and \(names[k]) are not shards of one run: \(key) differs (\(describe(values[0])) vs \(describe(v)))")
            }
            return values[0]
        case .shardPlan, .expectations, .headroom, .copy, .hashTotal:
            return nil
        case .hashSum:
            func sum(_ texts: [String?]) throws(Refusal) -> ReportValue {
                var total: UInt64 = 0
                for (k, text) in texts.enumerated() {
                    guard let text, let h = UInt64(text, radix: 16) else {
                        throw Refusal(message: "\(names[k]): \(key): expected a hash of 16 hex digits, found \(text ?? "none")")
                    }
                    total &+= h
                }
                return .string(HashText.hex(total))
            }
            if let lists = values.first??.arrayValue {
                var out: [ReportValue] = []
                for i in lists.indices { out.append(try sum(values.map { $0?.arrayValue?[safe: i]?.stringValue })) }
                return .array(out)
            }
            return try sum(values.map { $0?.stringValue })
        case .unavailable:
            return .null
        case .sum:
            return fold(values, +)
        case .max:
            return fold(values, Swift.max)
        case .latency:
            var merged = LatencyHistogram()
            for (k, v) in values.enumerated() {
                guard let encoding = v?.at(["histogram"]), let h = LatencyHistogram(exactEncoding: encoding) else {
                    throw Refusal(message: "\(names[k]): \(key).histogram: expected a latency histogram (\(LatencyHistogram.layoutName)), found none or a malformed one")
                }
                merged.merge(h)
            }
            return merged.latencySummary()
        case .seriesSum, .seriesMax:
            let lists = values.map { $0?.arrayValue ?? [] }
            let length = lists.map(\.count).max() ?? 0
            return .array((0..<length).map { i in
                fold(lists.map { i < $0.count ? $0[i] : nil }, rule == .seriesSum ? (+) : Swift.max) ?? .null
            })
        case .samples:
            var all = values.flatMap { $0?.arrayValue ?? [] }
            all.sort { a, b in
                let ta = a.at(["time"])?.doubleValue ?? 0, tb = b.at(["time"])?.doubleValue ?? 0
                if ta != tb { return ta < tb }
                return (a.at(["device"])?.intValue ?? 0) < (b.at(["device"])?.intValue ?? 0)
            }
            return .array(Array(all.prefix(sampleLimit)))
        }
    }

    /// Folds numbers: integers stay integers; fractional numbers keep the most digits
    /// any input had. Nulls (no data in a shard) are skipped.
    static func fold(_ values: [ReportValue?], _ f: (Double, Double) -> Double) -> ReportValue? {
        var ints: [Int64] = [], doubles: [Double] = [], digits = 0
        for v in values {
            switch v {
            case .int(let n)?: ints.append(n)
            case .number(let x, let d)?: doubles.append(x); digits = Swift.max(digits, d)
            default: break
            }
        }
        if doubles.isEmpty {
            guard let firstInt = ints.first else { return .null }
            return .int(Int64(ints.dropFirst().reduce(Double(firstInt)) { f($0, Double($1)) }))
        }
        let all = ints.map(Double.init) + doubles
        return .number(all.dropFirst().reduce(all[0], f), digits: digits)
    }

    /// `expect` re-evaluated: each metric looked up in the merged document.
    static func reevaluate(_ expect: ReportValue, on document: ReportValue) -> ReportValue {
        .array((expect.arrayValue ?? []).map { e in
            let metric = e.at(["metric"])?.stringValue ?? ""
            let value = document.at(metric.split(separator: ".").map(String.init))?.doubleValue
            let min = e.at(["min"])?.doubleValue, max = e.at(["max"])?.doubleValue
            let pass = value.map { v in (min.map { v >= $0 } ?? true) && (max.map { v <= $0 } ?? true) } ?? false
            return .object([
                "metric": .string(metric),
                "min": min.map { .fixed($0, 6) } ?? .null,
                "max": max.map { .fixed($0, 6) } ?? .null,
                "value": value.map { .fixed($0, 6) } ?? .null,
                "pass": .bool(pass),
            ])
        })
    }

    static func set(_ object: inout [String: ReportValue], _ path: [String], _ value: ReportValue) {
        guard let head = path.first else { return }
        if path.count == 1 { object[head] = value; return }
        var inner = object[head]?.objectValue ?? [:]
        set(&inner, Array(path.dropFirst()), value)
        object[head] = .object(inner)
    }
}

extension ReportValue {
    /// The value at a key path (keys may contain dots, e.g. an endpoint), or nil.
    func at(_ path: [String]) -> ReportValue? {
        var value = self
        for key in path {
            guard let next = value.objectValue?[key] else { return nil }
            value = next
        }
        return value
    }
}

extension Array {
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
