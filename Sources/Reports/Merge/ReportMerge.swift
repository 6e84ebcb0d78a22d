/// Combines the `report.json` documents of the shards of one run (`fleetsim merge`)
/// into one document with the same keys, by one rule per key (``Rules``: the features'
/// rules, which the simulation supplies, then the core's, ``coreRules``).
///
/// Order-independent and associative: the inputs are put in shard order first, every
/// sum is of integers, and every figure derived from others (rates, percentiles,
/// peaks, headroom) is derived again from the merged counts, histograms and series,
/// never combined from the inputs' own. So merging parts of the shards and then the
/// parts gives the bytes of merging all the shards at once.
public enum ReportMerge {
    /// How one key of `report.json` combines across shards.
    public enum Rule: Equatable, Sendable {
        /// Configuration or identity: must be equal in every input (else refused).
        case identical
        /// `simulated.shard` and `simulated.shards`: checked as a plan and for one run
        /// (`identity`, `fingerprint`), then written as `simulated.shards` only when the
        /// merge covers part of the shards.
        case shardPlan
        /// Counters and capacities (each shard holds its part): summed.
        case sum
        /// Peaks and maxima: the largest.
        case max
        /// A latency object (`count`, percentiles, `histogram`): the histograms'
        /// buckets are merged and the summary recomputed from the merged histogram.
        case latency
        /// A per-device or per-event figure (`mean`, `p50`, `p95`, `max`,
        /// `distribution`): the distributions merged and the figures recomputed.
        case distribution
        /// `latencyOverTime.series` (`[{of, histograms}]`, ``LatencyTimeline``): the
        /// entries of one `of` merged bucket by bucket (equal bucket counts), every `of`
        /// of any input kept, in `of` order.
        case latencySeries
        /// A series over time (one count per bucket): summed per bucket.
        case seriesSum
        /// A peak series: the largest per bucket.
        case seriesMax
        /// `backend.load.arrivalsBySecond` (`[second, arrivals, …]`): summed per second;
        /// not written when the merge covers every shard (the plain run has no such key).
        case bySecond
        /// `backend.load.peakSecondMixes` (`[{at, byEndpoint, byCause}]`, each shard's
        /// busiest second): the mixes of one second summed, in time order; not written
        /// when the merge covers every shard.
        case secondMixes
        /// `invariants.samples`: merged in (time, device, kind, detail) order, keeping
        /// the first ``ReportMerge/samplesPerKind`` of each kind (the oracle's rule, so the
        /// merge keeps the plain run's).
        case samples
        /// `expect`: re-evaluated on the merged values.
        case expectations
        /// 64-bit hashes written as 16 hex digits (a list: element by element), added
        /// with wrapping: the event-stream hashes of devices, which sum over devices.
        case hashSum
        /// `events.hash.delivered`: summed, less the fleet-wide events (`fleetDelivered`,
        /// equal in every input) that every input but one counts again.
        case deliveredEvents
        /// Derived again from merged keys once every other key is merged.
        case derived(Derived)
        /// `backend.pooled`: written by merge from its own replay of the shards' recorded
        /// requests (docs/scale.md, "One pooled backend"), never combined from the inputs'
        /// figures; an input's own (a merged report read again, as `compare` reads one) is
        /// left out.
        case replayed
    }

    /// What one key's rule gives before the derived figures: a value, a figure to derive
    /// once every other key is merged, or nothing (a key written elsewhere: the shard
    /// plan, the expectations).
    enum Leaf: Sendable {
        case value(ReportValue)
        case derived(Derived)
        case none
    }

    /// The figures derived from other merged keys (``DerivedFigures`` holds the
    /// formulas the run uses too).
    public enum Derived: Equatable, Sendable {
        /// `1 − utilisation` of the busiest bucket of a busy-time series over a capacity, 0
        /// where the count (per bucket, or of the run) of refused work at `refused` is not.
        case headroom(busy: String, capacity: String, refused: String)
        /// `1 − utilisation` per bucket of a busy-time series (0 where work was refused).
        case headroomSeries(busy: String, capacity: String, refused: String)
        /// Utilisation per bucket of a busy-time series.
        case utilisationSeries(busy: String, capacity: String)
        /// Utilisation over the run: a busy time (a series: its sum) over a capacity.
        case utilisation(busy: String, capacity: String)
        /// `backend.queue.*.utilisation`: the sibling `busyWorkerMicroseconds` over the workers.
        case queueUtilisation
        /// `backend.queue.*.meanWait` and `pWait`, from the queueing histogram: each
        /// endpoint's `wait`, overall `backend.queueing`.
        case meanWait, pWait
        /// A pool saturated: the count at the path (503s, refused sends) is not 0.
        case saturated(rejected: String)
        /// `backend.load.peaksAre`: a merged report's peaks are bounds.
        case peaksAre
        /// Per-second rates of a count series: the key's last component names the
        /// counts' (`backend.load.requestsPerSecond.total` from `backend.load.requests.total`).
        case bucketRates(counts: String)
        /// The busiest bucket of `backend.load.requests.total`: `backend.load.peak.*`
        /// and `backend.requestsPerSecond.peak`.
        case busiestMinute
        /// The busiest second of `backend.load.arrivalsBySecond`:
        /// `backend.load.peakSecond.*` and `backend.requestsPerSecond.peakSecond`.
        case busiestSecond
        /// A nearest-rank quantile of the per-second arrivals over every second of the run.
        case secondsQuantile(Double)
        /// `backend.requests.total` over the run's seconds.
        case meanRate
        /// `scheduling.launchesPerDeviceDay.<platform>.<key>` from
        /// `scheduling.launchesByPlatform`.
        case launchesPerDeviceDay
        /// A ratio of merged counts, `of / (over − less)`: each a sum of the counts at its
        /// paths, a path to an object counting the integers directly under it.
        case ratio(of: [String], over: [String], less: [String] = [])
        /// Expired per week over active (``DerivedFigures/expirationRatePerWeek(expired:active:durationSeconds:)``),
        /// from the counts at two paths.
        case expirationRatePerWeek(expired: String, active: String)
        /// The total event hash: the merged `devices` sum plus the `fleet` chain, which
        /// every shard computes alike (fleet-wide events run in every shard).
        case hashTotal
        /// A copy of another merged key (a p95 shown twice).
        case copy(String)
        /// ``CapacityFigures``: per resource, the binding one, the minute of the most work,
        /// the fault windows of the peaks.
        case capacity
    }

    /// A table of rules: a path pattern (`*` one key, `**` the rest) and its rule; the
    /// first pattern that matches a key's path wins. Every key of a report must match
    /// one (ShardTests checks it on the default scenario's report).
    public struct Rules: Sendable {
        /// Each pattern split into its components once.
        let compiled: [(pattern: [String], rule: Rule)]
        /// What a report of this build holds and how its figures agree (``ReportConsistency``),
        /// checked in every input once its counts are; nil checks only the counts.
        let schema: ReportSchema?

        public init(_ rules: [(pattern: String, rule: Rule)], schema: ReportSchema? = nil) {
            compiled = rules.map { (pattern: $0.pattern.split(separator: ".").map(String.init), rule: $0.rule) }
            self.schema = schema
        }

        /// The rule of a key path, or nil when no pattern matches.
        public func rule(for path: [String]) -> Rule? {
            compiled.first { ReportMerge.matches($0.pattern, path) }?.rule
        }
    }

    /// The core's rules: identity, the run, the invariants, the backend and its load,
    /// battery, scheduling, the event hashes, notifications and users. A feature's keys
    /// take the rules the feature supplies, checked before these.
    public static let coreRules: [(pattern: String, rule: Rule)] = [
        ("scenario", .identical), ("seed", .identical), ("fleetsimVersion", .identical), ("modelVersion", .identical),
        ("simulated.duration", .identical), ("simulated.start", .identical),
        ("simulated.shard.**", .shardPlan), ("simulated.shards.**", .shardPlan),
        ("simulated.devices", .sum), ("simulated.events", .sum),
        ("expect", .expectations),
        ("invariants.samples", .samples), ("invariants.**", .sum),
        ("latency.**", .latency),
        ("latencyOverTime.bucketSeconds", .identical), ("latencyOverTime.series", .latencySeries),
        ("batches.bucketSeconds", .identical), ("batches.series", .latencySeries),
        ("backend.queueing", .latency),
        ("backend.load.bucketSeconds", .identical), ("backend.load.faults", .identical),
        ("backend.load.arrivalsBySecond", .bySecond), ("backend.load.peakSecondMixes", .secondMixes),
        ("backend.load.apiHeadroom", .derived(.headroom(busy: "backend.load.apiBusyWorkerMicroseconds", capacity: "backend.capacity.workers",
                                                          refused: "backend.load.apiRejected"))),
        ("backend.load.apiHeadroomOverTime", .derived(.headroomSeries(busy: "backend.load.apiBusyWorkerMicroseconds", capacity: "backend.capacity.workers",
                                                                      refused: "backend.load.apiRejected"))),
        ("backend.load.apiUtilisation", .derived(.utilisation(busy: "backend.load.apiBusyWorkerMicroseconds", capacity: "backend.capacity.workers"))),
        ("backend.load.apiUtilisationOverTime", .derived(.utilisationSeries(busy: "backend.load.apiBusyWorkerMicroseconds", capacity: "backend.capacity.workers"))),
        ("backend.load.peaksAre", .derived(.peaksAre)),
        ("backend.load.apiBusyWorkersPeak", .seriesMax),
        ("backend.load.requestsPerSecond.*", .derived(.bucketRates(counts: "backend.load.requests"))),
        ("backend.load.apiRejectedPerSecond", .derived(.bucketRates(counts: "backend.load.apiRejected"))),
        ("backend.load.apiUnansweredPerSecond", .derived(.bucketRates(counts: "backend.load.apiUnanswered"))),
        ("backend.load.peak.faults", .derived(.capacity)), ("backend.load.peak.zone", .derived(.capacity)), ("backend.load.peak.localTime", .derived(.capacity)), ("backend.load.peakByWork.**", .derived(.capacity)),
        ("backend.resources.**", .derived(.capacity)), ("backend.binding", .derived(.capacity)),
        ("backend.load.peak.**", .derived(.busiestMinute)), ("backend.load.peakSecond.**", .derived(.busiestSecond)),
        ("backend.load.**", .seriesSum),
        ("backend.peakQueueDepth", .max),
        ("backend.saturated", .derived(.saturated(rejected: "backend.rejected"))),
        ("backend.queue.*.utilisation", .derived(.queueUtilisation)), ("backend.queue.byEndpoint.*.utilisation", .derived(.queueUtilisation)),
        ("backend.queue.*.meanWait", .derived(.meanWait)), ("backend.queue.byEndpoint.*.meanWait", .derived(.meanWait)),
        ("backend.queue.*.pWait", .derived(.pWait)), ("backend.queue.byEndpoint.*.pWait", .derived(.pWait)),
        ("backend.queue.byEndpoint.*.wait", .latency),
        ("backend.requestsPerSecond.mean", .derived(.meanRate)), ("backend.requestsPerSecond.peak", .derived(.busiestMinute)),
        ("backend.requestsPerSecond.peakSecond", .derived(.busiestSecond)),
        ("backend.requestsPerSecond.p99", .derived(.secondsQuantile(0.99))),
        ("backend.pooled.**", .replayed),
        ("backend.**", .sum),
        ("battery.*.capacityMah", .identical), ("battery.*.*.count", .sum),
        ("battery.**", .distribution),
        ("scheduling.alarms.dozeDelay", .latency), ("scheduling.dozeDeferral", .latency),
        ("scheduling.fcm.dozeDelay", .latency), ("scheduling.workManagerDelay", .latency),
        ("scheduling.launchesPerDeviceDay.*.*", .derived(.launchesPerDeviceDay)),
        ("scheduling.**", .sum),
        ("events.hash.function", .identical), ("events.hash.fleet", .identical), ("events.hash.fleetDelivered", .identical),
        ("events.hash.devices", .hashSum), ("events.hash.byCohort", .hashSum), ("events.hash.byBucket", .hashSum),
        ("events.hash.total", .derived(.hashTotal)), ("events.hash.delivered", .deliveredEvents),
        ("notifications.**", .sum), ("users.**", .sum),
    ]

    /// How many violation samples of each kind a report keeps (the oracle's limit).
    public static let samplesPerKind = 3

    /// Whether a key path matches a pattern's components (`*` one key, `**` the rest).
    public static func matches(_ pattern: [String], _ path: [String]) -> Bool {
        matches(pattern[...], path[...])
    }

    static func matches(_ pattern: ArraySlice<String>, _ path: ArraySlice<String>) -> Bool {
        guard let head = pattern.first else { return path.isEmpty }
        if head == "**" {
            let rest = pattern.dropFirst()
            return (1...Swift.max(1, path.count)).contains { k in k <= path.count && matches(rest, path.dropFirst(k)) }
        }
        guard let first = path.first, head == "*" || head == first else { return false }
        return matches(pattern.dropFirst(), path.dropFirst())
    }

    /// Why reports cannot be merged: the message names the files and what differs.
    public struct Refusal: Error, Equatable, Sendable {
        public var message: String
    }

    /// Every leaf key path of a report as the rules see it: a latency object (one with
    /// `histogram`), a per-device figure (one with `distribution`), an empty object, a
    /// list, or a scalar is a leaf.
    public static func leafPaths(_ value: ReportValue, _ prefix: [String] = []) -> [[String]] {
        guard case .object(let members) = value, !members.isEmpty || prefix.isEmpty,
              prefix.isEmpty || (members["histogram"] == nil && members["distribution"] == nil) else { return [prefix] }
        return members.keys.sorted().flatMap { leafPaths(members[$0]!, prefix + [$0]) }
    }

    /// Merges `reports` (name, document) by `rules`: shard reports (`run --shard K/N`) or
    /// merged parts, covering every shard `0..<N` once, or (with `partial`) some of them once.
    public static func merge(_ reports: [(name: String, report: ReportValue)], rules: Rules, partial: Bool = false,
                             runner: String = "fleetsim") throws(Refusal) -> ReportValue {
        guard !reports.isEmpty else { throw Refusal(message: "merge needs at least one report") }
        // Each input checked, and then each key combined, on the machine's cores
        // (``Parallel``: in index order, the first failure as a loop finds it).
        let inputs = try Parallel.map(reports.count) { k throws(Refusal) in
            (name: reports[k].name, report: try ReportInput.checked(reports[k].report, name: reports[k].name, rules: rules))
        }
        let (ordered, plan) = try shardOrder(inputs, partial: partial, runner: runner)
        let names = ordered.map(\.name)
        var paths = Set<[String]>()
        for item in ordered { paths.formUnion(leafPaths(item.report)) }
        // An empty object that is a leaf in one report and has members in another is not a leaf.
        let inner = Set(paths.flatMap { p in (0..<p.count).map { Array(p.prefix($0)) } })
        let leaves = paths.filter { !inner.contains($0) }
            .sorted { $0.lexicographicallyPrecedes($1) }
        let combined = try Parallel.map(leaves.count) { k throws(Refusal) -> Leaf in
            let path = leaves[k]
            guard let rule = rules.rule(for: path) else {
                throw Refusal(message: "\(names[0]): key \(path.joined(separator: ".")) has no merge rule in this build")
            }
            let values = ordered.map { $0.report.at(path) }
            if values.allSatisfy({ $0 == nil || $0 == .object([:]) }) { return .value(.object([:])) }
            if case .derived(let how) = rule { return .derived(how) }
            guard let value = try combine(rule, path: path, values: values, names: names, reports: ordered.map(\.report)) else { return .none }
            try ReportInput.checkLeaf(rule, path, value, "the merged report", buckets: Int64.max, seconds: Int64.max - 1)
            return .value(value)
        }
        var merged: [String: ReportValue] = [:]
        var derived: [([String], Derived)] = []
        for (path, leaf) in zip(leaves, combined) {
            switch leaf {
            case .value(let value): set(&merged, path, value)
            case .derived(let how): derived.append((path, how))
            case .none: break
            }
        }
        let document = ReportValue.object(merged)
        for (path, how) in derived {
            do { set(&merged, path, try derive(how, path: path, in: document)) } catch {
                throw Refusal(message: "\(names.joined(separator: ", ")): \(error.message)")
            }
        }
        if ordered[0].report.at(["expect"]) != nil {
            set(&merged, ["expect"], reevaluate(ordered[0].report.at(["expect"]) ?? .array([]), on: document))
        }
        if plan.covered.count == Int(plan.count) {
            if case .object(var load)? = merged["backend"]?.at(["load"]) {
                load["arrivalsBySecond"] = nil
                load["peakSecondMixes"] = nil
                set(&merged, ["backend", "load"], .object(load))
            }
        } else {
            let run = runIdentity(ordered[0].report)
            set(&merged, ["simulated", "shards"], ["count": .count(plan.count), "covered": .array(plan.covered.map { .count($0) }),
                                                   "identity": run.identity ?? .null, "fingerprint": run.fingerprint ?? .null])
        }
        return .object(merged)
    }

    /// The shards one report covers: `simulated.shard` of a shard, `simulated.shards`
    /// of a merged part.
    static func coverage(_ item: (name: String, report: ReportValue), runner: String) throws(Refusal) -> (count: Int64, covered: [Int64]) {
        if let index = item.report.at(["simulated", "shard", "index"])?.intValue,
           let count = item.report.at(["simulated", "shard", "count"])?.intValue {
            return (count, [index])
        }
        if let count = item.report.at(["simulated", "shards", "count"])?.intValue,
           let covered = item.report.at(["simulated", "shards", "covered"])?.arrayValue?.compactMap(\.intValue), !covered.isEmpty {
            return (count, covered.sorted())
        }
        throw Refusal(message: "\(item.name) has no simulated.shard: it is not the report of a '\(runner) run --shard K/N' "
                      + "(nor of a '\(runner) merge --partial')")
    }

    /// Checks identity and the shard plan; returns the reports in shard order (by the
    /// first shard each covers) and the shards they cover together.
    static func shardOrder(_ reports: [(name: String, report: ReportValue)], partial: Bool, runner: String) throws(Refusal)
        -> ([(name: String, report: ReportValue)], (count: Int64, covered: [Int64])) {
        let first = reports[0]
        for key in ["scenario", "seed", "fleetsimVersion", "modelVersion", "simulated.duration", "simulated.start"] {
            let path = key.split(separator: ".").map(String.init)
            for other in reports.dropFirst() where other.report.at(path) != first.report.at(path) {
                let what = key == "seed"
                    ? " (merge joins the shards of one seed; for figures across seeds run '\(runner) explore SCENARIO --seeds N --out DIR', "
                      + "and '\(runner) compare --seeds' to compare two such directories)"
                    : ""
                throw Refusal(message: "\(first.name) and \(other.name) are not shards of one run: \(key) differs "
                              + "(\(describe(first.report.at(path))) vs \(describe(other.report.at(path))))\(what)")
            }
        }
        var plans: [(count: Int64, covered: [Int64], item: (name: String, report: ReportValue))] = []
        for item in reports {
            let c = try coverage(item, runner: runner)
            plans.append((c.count, c.covered, item))
        }
        let n = plans[0].count
        if let other = plans.first(where: { $0.count != n }) {
            throw Refusal(message: "\(plans[0].item.name) is \(shardList(plans[0].covered, n)) but \(other.item.name) is "
                          + "\(shardList(other.covered, other.count)): different shard plans")
        }
        try checkRunIdentity(plans.map(\.item))
        plans.sort { $0.covered[0] < $1.covered[0] }
        var holder: [Int64: String] = [:]
        for plan in plans {
            for k in plan.covered {
                if let earlier = holder[k] {
                    throw Refusal(message: "\(earlier) and \(plan.item.name) are both shard \(k)/\(n)")
                }
                holder[k] = plan.item.name
            }
        }
        // The first few missing shards, found without listing all n (n may be large).
        let absent = n - Int64(holder.count)
        var missing: [Int64] = [], next: Int64 = 0
        for k in holder.keys.sorted() + [n] {
            while next < k && missing.count < 10 { missing.append(next); next += 1 }
            next = k + 1
        }
        if absent > 0 && !partial {
            let more = absent > Int64(missing.count) ? " and \(absent - Int64(missing.count)) more" : ""
            throw Refusal(message: "shard\(absent == 1 ? "" : "s") \(missing.map { "\($0)/\(n)" }.joined(separator: ", "))\(more) missing: "
                          + "merge needs all \(n) shards of the run, found "
                          + plans.map { "\(shardList($0.covered, n)) (\($0.item.name))" }.joined(separator: ", ")
                          + " (--partial merges some of them into a part that merges again later)")
        }
        return (plans.map(\.item), (n, holder.keys.sorted()))
    }

    /// `identity` and `fingerprint` of a shard (`simulated.shard`) or a part (`simulated.shards`).
    static func runIdentity(_ report: ReportValue) -> (identity: ReportValue?, fingerprint: ReportValue?) {
        let plan = report.at(["simulated", "shard"]) ?? report.at(["simulated", "shards"])
        return (plan?.at(["identity"]), plan?.at(["fingerprint"]))
    }

    /// What the identities of shard reports name, as a refusal says it.
    static let identityMembers = [("scenarioContent", "the scenario file's content (its hash)"), ("scale", "--scale"),
                                  ("variants", "the variants run (--variants or the file's logic.variants)"), ("swarm", "--swarm")]

    /// Refuses shards of different runs: the first member of `identity` that differs,
    /// else the fingerprint (which also covers seed, version and shard count).
    static func checkRunIdentity(_ items: [(name: String, report: ReportValue)]) throws(Refusal) {
        let first = runIdentity(items[0].report)
        for other in items.dropFirst() {
            let run = runIdentity(other.report)
            for (key, what) in identityMembers where first.identity?.at([key]) != run.identity?.at([key]) {
                throw Refusal(message: "\(items[0].name) and \(other.name) are not shards of one run: \(what) differs "
                              + "(\(describe(first.identity?.at([key]), listed: true)) vs \(describe(run.identity?.at([key]), listed: true)))")
            }
            if first.fingerprint != run.fingerprint {
                throw Refusal(message: "\(items[0].name) and \(other.name) are not shards of one run: their fingerprints differ "
                              + "(\(describe(first.fingerprint)) vs \(describe(run.fingerprint)))")
            }
        }
    }

    static func shardList(_ covered: [Int64], _ n: Int64) -> String {
        (covered.count == 1 ? "shard " : "shards ") + covered.map { "\($0)/\(n)" }.joined(separator: ", ")
    }

    /// A value as a message shows it, never longer than about 80 characters: a string
    /// quoted (cut with its length), a number as written, a list or object by its size
    /// (`listed`: a short list of strings by its elements).
    static func describe(_ value: ReportValue?, listed: Bool = false) -> String {
        if listed, let items = value?.arrayValue, items.count <= 20, items.allSatisfy({ $0.stringValue != nil }) {
            return items.isEmpty ? "none" : items.map { describe($0) }.joined(separator: ", ")
        }
        switch value {
        case .string(let s)?:
            return s.count <= 60 ? "\"\(s)\"" : "\"\(s.prefix(60))…\" (\(s.utf8.count) bytes)"
        case .int(let n)?: return String(n)
        case .number(let x, let digits)?: return x.isFinite && x.magnitude < 1e15 ? FixedDecimal.format(x, digits: Swift.min(digits, 9)) ?? String(x) : String(x)
        case .bool(let b)?: return String(b)
        case .null?: return "null"
        case .array?, .integers?, .numbers?: return value?.arrayCount == 0 ? "[]" : "a list of \(value?.arrayCount ?? 0)"
        case .object(let members)?: return members.isEmpty ? "{}" : "an object with \(members.count) keys"
        case nil: return "missing"
        }
    }

    static func combine(_ rule: Rule, path: [String], values: [ReportValue?], names: [String], reports: [ReportValue]) throws(Refusal) -> ReportValue? {
        let key = path.joined(separator: ".")
        switch rule {
        case .identical:
            for (k, v) in values.enumerated() {
                guard let d = ValueDifference.first(values[0], v) else { continue }
                throw Refusal(message: "\(names[0]) and \(names[k]) are not shards of one run: \(String(ReportInput.jsonPath(path + d.path).dropFirst(2))) differs "
                              + "(\(describe(d.a)) vs \(describe(d.b)))")
            }
            return values[0]
        case .shardPlan, .expectations, .derived, .replayed:
            return nil
        case .deliveredEvents:
            let fleet = path.dropLast() + ["fleetDelivered"]
            var total: Int64 = 0
            for (k, v) in values.enumerated() {
                guard let n = v?.intValue, let once = reports[k].at(Array(fleet))?.intValue else {
                    throw Refusal(message: "\(names[k]): \(key) needs events.hash.fleetDelivered, which this report lacks "
                                  + "(a report of an older build: run the shards again)")
                }
                total = ReportInput.add(total, k == 0 ? n : Swift.max(n - once, 0))
            }
            return .int(total)
        case .hashSum:
            func sum(_ texts: [String?]) throws(Refusal) -> ReportValue {
                var total: UInt64 = 0
                for (k, text) in texts.enumerated() {
                    guard let text, let h = UInt64(text, radix: 16) else {
                        throw Refusal(message: "\(names[k]): \(key): expected a hash of 16 hex digits, found \(text.map { describe(.string($0)) } ?? "none")")
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
        case .sum:
            return fold(values, ReportInput.add, +)
        case .max:
            return fold(values, Swift.max, Swift.max)
        case .latency:
            var merged = LatencyHistogram()
            for (k, v) in values.enumerated() where v != nil {
                guard let encoding = v?.at(["histogram"]), let h = LatencyHistogram(exactEncoding: encoding) else {
                    throw Refusal(message: "\(names[k]): \(key).histogram: expected a latency histogram (\(LatencyHistogram.layoutName)), found none or a malformed one")
                }
                merged.merge(h)
            }
            return merged.latencySummary()
        case .distribution:
            var parts: [ValueDistribution] = []
            for (k, v) in values.enumerated() where v != nil {
                guard let encoding = v?.at(["distribution"]), let d = ValueDistribution(exactEncoding: encoding),
                      parts.first.map({ $0.digits == d.digits }) ?? true else {
                    throw Refusal(message: "\(names[k]): \(key).distribution: expected a distribution (\(ValueDistribution.layoutName)) "
                                  + "with the digits of the other reports, found none or a malformed one")
                }
                parts.append(d)
            }
            return ValueDistribution.merged(parts)?.summary() ?? .null
        case .latencySeries:
            // Series by name, then bucket by bucket: one full histogram in memory at a time.
            var byName: [String: [(input: Int, histograms: [ReportValue])]] = [:]
            for (k, v) in values.enumerated() {
                for (i, entry) in (v?.arrayValue ?? []).enumerated() {
                    guard let of = entry.at(["of"])?.stringValue, let histograms = entry.at(["histograms"])?.arrayValue else {
                        throw Refusal(message: "\(names[k]): \(key)[\(i)]: expected {of, histograms}, found \(describe(entry))")
                    }
                    if let first = byName[of]?.first, first.histograms.count != histograms.count {
                        throw Refusal(message: "\(names[first.input]) and \(names[k]) are not shards of one run: \(key) \(of) has "
                                      + "\(first.histograms.count) buckets in one and \(histograms.count) in the other")
                    }
                    byName[of, default: []].append((k, histograms))
                }
            }
            var series: [ReportValue] = []
            for of in byName.keys.sorted() {
                let parts = byName[of]!
                var buckets: [ReportValue] = []
                buckets.reserveCapacity(parts[0].histograms.count)
                for j in parts[0].histograms.indices {
                    // Sparse: a bucket of time holds a few non-empty buckets of latency (SparseLatencyHistogram).
                    var histograms: [SparseLatencyHistogram] = []
                    histograms.reserveCapacity(parts.count)
                    for part in parts {
                        guard let h = SparseLatencyHistogram(exactEncoding: part.histograms[j]) else {
                            throw Refusal(message: "\(names[part.input]): \(key) \(of) bucket \(j): expected a latency histogram "
                                          + "(\(LatencyHistogram.layoutName)), found a malformed one")
                        }
                        histograms.append(h)
                    }
                    buckets.append(SparseLatencyHistogram.merged(histograms).exactEncoding)
                }
                series.append(.object(["of": .string(of), "histograms": .array(buckets)]))
            }
            return .array(series)
        case .seriesSum, .seriesMax:
            let lists = values.map { $0?.arrayValue ?? [] }
            let length = lists.map(\.count).max() ?? 0
            return .array((0..<length).map { i in
                let column = lists.map { i < $0.count ? $0[i] : nil }
                return (rule == .seriesSum ? fold(column, ReportInput.add, +) : fold(column, Swift.max, Swift.max)) ?? .null
            })
        case .bySecond:
            // Each input's seconds ascend (ReportInput checks it): merged as sorted lists.
            var lists: [[(second: Int64, count: Int64)]] = []
            for (k, v) in values.enumerated() {
                let flat = v?.arrayValue ?? []
                guard flat.count % 2 == 0 else {
                    throw Refusal(message: "\(names[k]): \(key): expected [second, arrivals, …] pairs")
                }
                var list: [(second: Int64, count: Int64)] = []
                list.reserveCapacity(flat.count / 2)
                for i in stride(from: 0, to: flat.count, by: 2) {
                    guard let second = flat[i].intValue, let n = flat[i + 1].intValue else {
                        throw Refusal(message: "\(names[k]): \(key): expected [second, arrivals, …] pairs")
                    }
                    list.append((second, n))
                }
                lists.append(list)
            }
            let sums = sumBySecond(lists)
            var flat: [ReportValue] = []
            flat.reserveCapacity(sums.count * 2)
            for s in sums { flat.append(.int(s.second)); flat.append(.int(s.count)) }
            return .array(flat)
        case .secondMixes:
            var sums: [Int64: [String: [String: Int64]]] = [:]
            for (k, v) in values.enumerated() {
                for entry in v?.arrayValue ?? [] {
                    guard let at = entry.at(["at"])?.doubleValue, at >= 0, at.rounded() == at else {
                        throw Refusal(message: "\(names[k]): \(key): expected [{at, byEndpoint, byCause}] with at in whole seconds")
                    }
                    for part in ["byEndpoint", "byCause"] {
                        for (name, n) in entry.at([part])?.objectValue ?? [:] {
                            sums[Int64(at), default: [:]][part, default: [:]][name] = ReportInput.add(sums[Int64(at)]?[part]?[name] ?? 0, n.intValue ?? 0)
                        }
                    }
                }
            }
            return .array(sums.keys.sorted().map { at in
                .object(["at": .seconds(at * 1_000_000)].merging(sums[at]!.mapValues { .object($0.mapValues(ReportValue.int)) }) { a, _ in a })
            })
        case .samples:
            var all = values.flatMap { $0?.arrayValue ?? [] }
            all.sort { a, b in
                let ta = a.at(["time"])?.doubleValue ?? 0, tb = b.at(["time"])?.doubleValue ?? 0
                if ta != tb { return ta < tb }
                let da = a.at(["device"])?.intValue ?? 0, db = b.at(["device"])?.intValue ?? 0
                if da != db { return da < db }
                let ka = a.at(["kind"])?.stringValue ?? "", kb = b.at(["kind"])?.stringValue ?? ""
                if ka != kb { return ka < kb }
                return (a.at(["detail"])?.stringValue ?? "") < (b.at(["detail"])?.stringValue ?? "")
            }
            var kept: [String: Int] = [:]
            return .array(all.filter { s in
                let kind = s.at(["kind"])?.stringValue ?? ""
                kept[kind, default: 0] += 1
                return kept[kind]! <= samplesPerKind
            })
        }
    }

    /// Lists of (second, count), each ascending by second, summed per second
    /// (``ReportInput/add(_:_:)``): merged two by two in rounds, O(n log k) for k lists of
    /// n entries in all.
    static func sumBySecond(_ lists: [[(second: Int64, count: Int64)]]) -> [(second: Int64, count: Int64)] {
        var round = lists
        while round.count > 1 {
            var next: [[(second: Int64, count: Int64)]] = []
            var k = 0
            while k + 1 < round.count {
                let a = round[k], b = round[k + 1]
                var out: [(second: Int64, count: Int64)] = []
                out.reserveCapacity(a.count + b.count)
                var i = 0, j = 0
                while i < a.count || j < b.count {
                    if j == b.count || (i < a.count && a[i].second < b[j].second) {
                        out.append(a[i]); i += 1
                    } else if i == a.count || b[j].second < a[i].second {
                        out.append(b[j]); j += 1
                    } else {
                        out.append((a[i].second, ReportInput.add(a[i].count, b[j].count))); i += 1; j += 1
                    }
                }
                next.append(out)
                k += 2
            }
            if k < round.count { next.append(round[k]) }
            round = next
        }
        return round.first ?? []
    }

    /// Folds numbers: integers with `ints` (exact), and as soon as one is fractional,
    /// all as `Double`s with `doubles`, keeping the most digits any input had. Nulls
    /// (no data in a shard) are skipped; all null gives null.
    static func fold(_ values: [ReportValue?], _ ints: (Int64, Int64) -> Int64, _ doubles: (Double, Double) -> Double) -> ReportValue? {
        var integers: [Int64] = [], fractions: [Double] = [], digits = 0
        for v in values {
            switch v {
            case .int(let n)?: integers.append(n)
            case .number(let x, let d)?: fractions.append(x); digits = Swift.max(digits, d)
            default: break
            }
        }
        if fractions.isEmpty {
            guard let firstInt = integers.first else { return .null }
            return .int(integers.dropFirst().reduce(firstInt, ints))
        }
        let all = integers.map(Double.init) + fractions
        return .number(all.dropFirst().reduce(all[0], doubles), digits: digits)
    }

    // MARK: Derived figures

    static func int(_ document: ReportValue, _ path: String) -> Int64 {
        document.at(path.split(separator: ".").map(String.init))?.intValue ?? 0
    }

    static func ints(_ document: ReportValue, _ path: String) -> [Int64] {
        ints(document, path.split(separator: ".").map(String.init))
    }

    static func ints(_ document: ReportValue, _ path: [String]) -> [Int64] {
        document.at(path)?.integersValue ?? []
    }

    /// The integer at `path`, or the sum of the integers directly under the object there
    /// (a count by reason), or 0.
    static func counted(_ document: ReportValue, _ path: String) -> Int64 {
        let value = document.at(path.split(separator: ".").map(String.init))
        if let members = value?.objectValue { return members.values.reduce(0) { $0 &+ ($1.intValue ?? 0) } }
        return value?.intValue ?? 0
    }

    /// The run's length in microseconds, from `simulated.duration` (seconds, 6 digits).
    static func durationMicroseconds(_ document: ReportValue) -> Int64 {
        Int64(((document.at(["simulated", "duration"])?.doubleValue ?? 0) * 1_000_000).rounded())
    }

    static func derive(_ how: Derived, path: [String], in document: ReportValue) throws(Refusal) -> ReportValue {
        let microseconds = durationMicroseconds(document)
        let seconds = Double(microseconds) / 1_000_000
        let bucketSeconds = int(document, "backend.load.bucketSeconds")
        switch how {
        case .headroom(let busy, let capacity, let refused):
            let utilisation = utilisationSeries(document, busy: busy, capacity: capacity)
            let found = document.at(refused.split(separator: ".").map(String.init))
            if let perBucket = found?.arrayValue {
                return DerivedFigures.leastHeadroom(utilisation: utilisation, refused: perBucket.map { $0.intValue ?? 0 })
            }
            return DerivedFigures.headroom(utilisation: utilisation.max() ?? 0, refused: (found?.intValue ?? 0) > 0)
        case .headroomSeries(let busy, let capacity, let refused):
            return DerivedFigures.headroomSeries(utilisation: utilisationSeries(document, busy: busy, capacity: capacity),
                                                 refused: ints(document, refused))
        case .utilisationSeries(let busy, let capacity):
            return .numbers(utilisationSeries(document, busy: busy, capacity: capacity), digits: 4)
        case .utilisation(let busy, let capacity):
            let found = document.at(busy.split(separator: ".").map(String.init))
            let total = found?.arrayValue.map { $0.reduce(Int64(0)) { $0 &+ ($1.intValue ?? 0) } } ?? found?.intValue ?? 0
            return DerivedFigures.utilisation(busy: total, capacity: int(document, capacity), microseconds: microseconds)
        case .queueUtilisation:
            return DerivedFigures.utilisation(busy: document.at(path.dropLast() + ["busyWorkerMicroseconds"])?.intValue ?? 0,
                                              capacity: int(document, "backend.capacity.workers"), microseconds: microseconds)
        case .meanWait, .pWait:
            let source = path.contains("byEndpoint") ? Array(path.dropLast()) + ["wait", "histogram"] : ["backend", "queueing", "histogram"]
            let waits = document.at(source).flatMap(LatencyHistogram.init(exactEncoding:)) ?? LatencyHistogram()
            return how == .meanWait ? DerivedFigures.meanWait(waits) : DerivedFigures.pWait(waits)
        case .saturated(let rejected):
            // A `*` in the count's path stands for the saturated key's own component there
            // (`a.*.rejectedByQueue` for `a.b.saturated` is `a.b.rejectedByQueue`).
            var source = rejected.contains(".") ? rejected.split(separator: ".").map(String.init) : Array(path.dropLast()) + [rejected]
            for i in source.indices where source[i] == "*" && i < path.count { source[i] = path[i] }
            return .bool((document.at(source)?.intValue ?? 0) > 0)
        case .peaksAre:
            return .string("sharded: bound")
        case .bucketRates(let counts):
            let prefix = counts.split(separator: ".").map(String.init)
            let countsPath = prefix + path.dropFirst(prefix.count)
            return DerivedFigures.bucketRates(ints(document, countsPath), bucketSeconds: Double(bucketSeconds))
        case .busiestMinute:
            let total = ints(document, "backend.load.requests.total")
            guard !total.isEmpty else { return .null }
            var best = 0
            for b in total.indices where total[b] > total[best] { best = b }
            let busy = ints(document, "backend.load.apiBusyWorkersPeak")[safe: best] ?? 0
            let utilisation = utilisationSeries(document, busy: "backend.load.apiBusyWorkerMicroseconds", capacity: "backend.capacity.workers")[safe: best] ?? 0
            switch (path[path.count - 2], path.last) {
            case ("byEndpoint", let name?): return .int(ints(document, ["backend", "load", "requests", name])[safe: best] ?? 0)
            case ("byCause", let name?): return .int(ints(document, ["backend", "load", "requestsByCause", name])[safe: best] ?? 0)
            default: break
            }
            switch path.last {
            case "at": return .seconds(Int64(best) * bucketSeconds * 1_000_000)
            case "requests": return .int(total[best])
            case "busyWorkers": return .int(busy)
            case "busyWorkersUpperBound": return .int(ints(document, "backend.load.apiBusyWorkersPeakUpperBound")[safe: best] ?? 0)
            case "utilisation": return .fixed(utilisation, 4)
            case "headroom": return DerivedFigures.headroom(utilisation: utilisation, refused: (ints(document, "backend.load.apiRejected")[safe: best] ?? 0) > 0)
            case "cause": return DerivedFigures.mainCause(causes(document) { $0[safe: best] ?? 0 })
            default: return DerivedFigures.bucketRate(total[best], bucketSeconds: Double(bucketSeconds))
            }
        case .busiestSecond, .secondsQuantile:
            guard let flat = document.at(["backend", "load", "arrivalsBySecond"])?.arrayValue else {
                throw Refusal(message: "\(path.joined(separator: ".")) needs backend.load.arrivalsBySecond, which these reports lack "
                              + "(reports of an older build: run the shards again)")
            }
            let bySecond = stride(from: 0, to: flat.count - 1, by: 2).map { (second: flat[$0].intValue ?? 0, count: flat[$0 + 1].intValue ?? 0) }
            if case .secondsQuantile(let q) = how {
                return .fixed(Double(quantile(bySecond, seconds: microseconds / 1_000_000, q)), 1)
            }
            var peak = (second: Int64(0), count: Int64(0))
            for s in bySecond where s.count > peak.count { peak = s }
            if path.starts(with: ["backend", "load", "peakSecond"]), path.count > 3, path.last != "at", path.last != "requests" {
                return secondMix(document, path: path, peak: peak, bucketSeconds: bucketSeconds)
            }
            switch path.last {
            case "at": return .seconds(peak.second * 1_000_000)
            case "requests": return .int(peak.count)
            default: return .fixed(Double(peak.count), 1)
            }
        case .meanRate:
            return DerivedFigures.meanRate(int(document, "backend.requests.total"), durationSeconds: seconds)
        case .launchesPerDeviceDay:
            let platform = "scheduling.launchesByPlatform.\(path[path.count - 2])"
            let key = path[path.count - 1]
            let count = key == "all" ? int(document, "\(platform).launches") : int(document, "\(platform).byBucket.\(key)")
            return DerivedFigures.perDeviceDay(count, devices: int(document, "\(platform).devices"), durationSeconds: seconds)
        case .ratio(let of, let over, let less):
            func sum(_ paths: [String]) -> Int64 { paths.reduce(0) { $0 &+ counted(document, $1) } }
            return DerivedFigures.ratio(sum(of), sum(over) - sum(less))
        case .expirationRatePerWeek(let expired, let active):
            return DerivedFigures.expirationRatePerWeek(expired: int(document, expired), active: int(document, active), durationSeconds: seconds)
        case .hashTotal:
            let devices = document.at(["events", "hash", "devices"])?.stringValue.flatMap { UInt64($0, radix: 16) } ?? 0
            let fleet = document.at(["events", "hash", "fleet"])?.stringValue.flatMap { UInt64($0, radix: 16) } ?? 0
            return .string(HashText.hex(devices &+ fleet))
        case .copy(let source):
            return document.at(source.split(separator: ".").map(String.init)) ?? .null
        case .capacity:
            return CapacityFigures.value(at: path, in: document)
        }
    }

    /// Per-bucket utilisation of the busy-time series at `busy` over the capacity at `capacity`.
    static func utilisationSeries(_ document: ReportValue, busy: String, capacity: String) -> [Double] {
        DerivedFigures.utilisationSeries(busy: ints(document, busy), capacity: int(document, capacity),
                                         bucketSeconds: int(document, "backend.load.bucketSeconds"),
                                         durationMicroseconds: durationMicroseconds(document))
    }

    /// Each cause of `backend.load.requestsByCause`, its series reduced by `pick`.
    static func causes(_ document: ReportValue, _ pick: ([Int64]) -> Int64) -> [String: Int64] {
        (document.at(["backend", "load", "requestsByCause"])?.objectValue ?? [:]).mapValues { pick(($0.arrayValue ?? []).map { $0.intValue ?? 0 }) }
    }

    /// `backend.load.peakSecond.byEndpoint`, `byCause`, `cause` and `mixOf`: the merged
    /// mix of the busiest second when the shards' recorded mixes of that second account
    /// for all its requests (each shard records its own busiest second's); else the mix
    /// of its minute, which every shard records (`mixOf`: "minute").
    static func secondMix(_ document: ReportValue, path: [String], peak: (second: Int64, count: Int64), bucketSeconds: Int64) -> ReportValue {
        let recorded = (document.at(["backend", "load", "peakSecondMixes"])?.arrayValue ?? [])
            .first { $0.at(["at"])?.doubleValue == Double(peak.second) }
        let recordedCauses = (recorded?.at(["byCause"])?.objectValue ?? [:]).mapValues { $0.intValue ?? 0 }
        let exact = peak.count > 0 && recordedCauses.values.reduce(0, +) == peak.count
        let minute = Int(peak.second / Swift.max(bucketSeconds, 1))
        let byCause = exact ? recordedCauses : causes(document) { $0[safe: minute] ?? 0 }
        switch (path[path.count - 2], path.last) {
        case ("byEndpoint", let name?):
            if exact { return .int(recorded?.at(["byEndpoint", name])?.intValue ?? 0) }
            return .int(ints(document, ["backend", "load", "requests", name])[safe: minute] ?? 0)
        case ("byCause", let name?): return .int(byCause[name] ?? 0)
        default: break
        }
        if path.last == "mixOf" { return .string(exact ? "second" : "minute") }
        return DerivedFigures.mainCause(byCause)
    }

    /// The nearest-rank quantile `q` of the arrivals in each of the run's seconds, quiet
    /// ones (absent from `bySecond`) counting 0: as the run computes it over every second.
    static func quantile(_ bySecond: [(second: Int64, count: Int64)], seconds: Int64, _ q: Double) -> Int64 {
        let busy = Int64(bySecond.count)
        let total = Swift.max(seconds, (bySecond.last?.second ?? -1) + 1, busy)
        guard total > 0 else { return 0 }
        let rank = Swift.max(1, Int64((q * Double(total)).rounded(.up)))
        let quiet = total - busy
        guard rank > quiet else { return 0 }
        return bySecond.map(\.count).sorted()[Int(Swift.min(rank - quiet, busy)) - 1]
    }

    /// `expect` judged again (``ExpectationJudgement``) on the merged document, from the
    /// merged histograms; the bounds as written are the inputs' (equal in every shard of
    /// one scenario).
    static func reevaluate(_ expect: ReportValue, on document: ReportValue) -> ReportValue {
        .array((expect.arrayValue ?? []).map { e in
            ExpectationJudgement.judge(metric: e.at(["metric"])?.stringValue ?? "", min: e.at(["min"])?.doubleValue,
                                       max: e.at(["max"])?.doubleValue, minText: e.at(["minAsWritten"])?.stringValue,
                                       maxText: e.at(["maxAsWritten"])?.stringValue, in: document).reportValue
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
    public func at(_ path: [String]) -> ReportValue? {
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
