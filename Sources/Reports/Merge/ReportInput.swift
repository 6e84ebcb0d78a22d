/// A report read from a file is untrusted: `fleetsim merge` checks every key it
/// combines before it combines anything (``ReportMerge/merge(_:partial:)``), as the
/// scenario decoder checks a scenario, so a damaged or hand-edited report is refused
/// with its file, JSON path, what was expected and what was found, never a trap, a
/// huge allocation or a silently wrong sum.
///
/// Rules (docs/scale.md, "What merge refuses"):
/// - Identity: `scenario`, `fleetsimVersion` and `simulated.start` strings, `seed` a
///   non-negative integer, `simulated.duration` seconds in (0, ``maximumDurationSeconds``]
///   (read back at 6 digits, so a re-serialised `43200` equals `43200.000000`).
/// - The shard plan: `count` an integer in 1...``maximumShards``, `index` in
///   0..<count; a merged part's `covered` distinct shards of its plan; the run's
///   `fingerprint` 16 hex digits and its `identity` typed.
/// - Every key merged by `.sum`, `.max`, `.seriesSum`, `.seriesMax` and
///   `.deliveredEvents` is a count (and so is `events.hash.fleetDelivered`, which the
///   latter subtracts): a non-negative integer up to ``maximumCount``
///   (null, no data, is allowed); a series has at most one entry per bucket of the run.
///   A merged sum above ``maximumCount`` is refused too.
/// - `backend.load.bucketSeconds` and `latencyOverTime.bucketSeconds` whole numbers of
///   seconds in 1...duration; `latencyOverTime.series` at most ``maximumLatencySeries``
///   entries, each `of` a distinct string with at most one histogram a second of the run;
///   `backend.load.arrivalsBySecond` ascending distinct seconds of the run with counts.
/// - `invariants.samples` objects with a string `kind`, at most
///   ``ReportMerge/samplesPerKind`` of each, a finite `time` and a non-negative integer
///   `device`; `expect` at most
///   ``maximumExpectations`` objects with a string `metric`.
/// Latency histograms, distributions and hashes are checked where they are decoded
/// (``ReportMerge/combine(_:path:values:names:reports:)``); derived keys are never read.
public enum ReportInput {
    /// The largest count a report may hold: 2⁵³ − 1, the largest integer a `Double`
    /// (what expectations and `compare` read) holds exactly.
    public static let maximumCount: Int64 = (1 << 53) - 1
    /// The most shards of one run: one device per shard at the largest fleet.
    public static let maximumShards: Int64 = 10_000_000
    /// The longest run a scenario may ask for: 366 days.
    public static let maximumDurationSeconds: Int64 = 366 * 86_400
    /// The most expectations a report may list.
    public static let maximumExpectations = 10_000
    /// Names in one of a busiest second's mixes (endpoints or causes; FleetSim writes fewer than 20).
    public static let maximumMixNames = 64
    /// Latencies in `latencyOverTime.series` (FleetSim writes one per latency summary, about 10).
    public static let maximumLatencySeries = 1_000

    /// `report` checked, each leaf by its rule in `rules`, and normalised
    /// (`simulated.duration` at 6 digits); `name` is the file, as messages name it.
    public static func checked(_ report: ReportValue, name: String, rules: ReportMerge.Rules) throws(ReportMerge.Refusal) -> ReportValue {
        guard case .object = report else { throw refusal(name, [], "a report (a JSON object)", report) }
        var document = report
        for key in ["scenario", "fleetsimVersion", "simulated.start"] {
            let path = split(key)
            guard let text = report.at(path)?.stringValue, text.utf8.count <= 1_000 else {
                throw refusal(name, path, "a string of at most 1000 bytes", report.at(path))
            }
        }
        _ = try count(report, ["seed"], name, limit: Int64.max)
        // Absent from the reports of builds before model versions; compare names it "none".
        if report.at(["modelVersion"]) != nil { _ = try count(report, ["modelVersion"], name, limit: Int64(Int32.max)) }
        let durationPath = ["simulated", "duration"]
        guard let duration = report.at(durationPath)?.doubleValue, duration > 0,
              duration <= Double(maximumDurationSeconds) else {
            throw refusal(name, durationPath, "the run's length in seconds, above 0 and at most \(maximumDurationSeconds) (366 days)", report.at(durationPath))
        }
        let microseconds = Int64((duration * 1_000_000).rounded())
        ReportMerge.set(&document.objects, durationPath, .seconds(microseconds))
        let seconds = (microseconds + 999_999) / 1_000_000
        try checkPlan(report, name)
        // `.identical` in every shard, but subtracted from `events.hash.delivered`.
        let fleetDelivered = ["events", "hash", "fleetDelivered"]
        if report.at(fleetDelivered) != nil { try count(report, fleetDelivered, name) }
        let bucketPath = ["backend", "load", "bucketSeconds"]
        var buckets: Int64 = seconds + 1
        if let bucket = report.at(bucketPath) {
            guard let b = bucket.intValue, b >= 1, b <= Swift.max(seconds, 1) else {
                throw refusal(name, bucketPath, "the load series' bucket width: a whole number of seconds from 1 to the run's \(seconds)", bucket)
            }
            buckets = seconds / b + 1
        }
        let timeBucketPath = ["latencyOverTime", "bucketSeconds"]
        if let bucket = report.at(timeBucketPath) {
            guard let b = bucket.intValue, b >= 1, b <= Swift.max(seconds, 1) else {
                throw refusal(name, timeBucketPath, "the latency buckets' width: a whole number of seconds from 1 to the run's \(seconds)", bucket)
            }
        }
        for path in ReportMerge.leafPaths(report) {
            guard let rule = rules.rule(for: path), let value = report.at(path) else { continue }
            try checkLeaf(rule, path, value, name, buckets: buckets, seconds: seconds)
        }
        if let schema = rules.schema { try ReportConsistency.check(document, name: name, schema: schema) }
        return document
    }

    /// One leaf by its merge rule (inputs, and a merged sum before it is written).
    static func checkLeaf(_ rule: ReportMerge.Rule, _ path: [String], _ value: ReportValue, _ name: String,
                          buckets: Int64, seconds: Int64) throws(ReportMerge.Refusal) {
        switch rule {
        case .sum, .max, .deliveredEvents:
            if value != .null && value != .object([:]) { _ = try count(value, [], name, at: path) }
        case .seriesSum, .seriesMax:
            // A feature the fleet does not run writes its series per provider as `{}`.
            if value == .object([:]) { return }
            guard let items = value.arrayValue, items.count <= buckets else {
                throw refusal(name, path, "a series of at most \(buckets) counts (one per bucket of the run)", value)
            }
            for (i, item) in items.enumerated() where item != .null { _ = try count(item, [], name, at: path + ["[\(i)]"]) }
        case .bySecond:
            let expected = "[second, arrivals, …] pairs: ascending distinct seconds from 0 to \(seconds), counts"
            guard let flat = value.arrayValue, flat.count % 2 == 0, flat.count / 2 <= seconds + 1 else {
                throw refusal(name, path, expected, value)
            }
            var previous: Int64 = -1
            for i in stride(from: 0, to: flat.count, by: 2) {
                guard let second = flat[i].intValue, second > previous, second <= seconds else {
                    throw refusal(name, path + ["[\(i)]"], expected, flat[i])
                }
                _ = try count(flat[i + 1], [], name, at: path + ["[\(i + 1)]"])
                previous = second
            }
        case .secondMixes:
            let expected = "[{at, byEndpoint, byCause}]: at most one entry a second of the run, at in whole seconds from 0 to \(seconds), counts by name"
            guard let items = value.arrayValue, items.count <= seconds + 1 else { throw refusal(name, path, expected, value) }
            for (i, item) in items.enumerated() {
                let at = path + ["[\(i)]"]
                guard let t = item.at(["at"])?.doubleValue, t >= 0, t <= Double(seconds), t.rounded() == t else {
                    throw refusal(name, at + ["at"], expected, item.at(["at"]))
                }
                for part in ["byEndpoint", "byCause"] {
                    guard let counts = item.at([part])?.objectValue, counts.count <= maximumMixNames else {
                        throw refusal(name, at + [part], "counts by name (at most \(maximumMixNames))", item.at([part]))
                    }
                    for key in counts.keys.sorted() { _ = try count(item, [part, key], name, at: at) }
                }
            }
        case .latencySeries:
            let expected = "[{of, histograms}]: at most \(maximumLatencySeries) latencies, each named once (of: a string of at most "
                + "1000 bytes) with at most one histogram a second of the run (\(seconds + 1))"
            guard let items = value.arrayValue, items.count <= maximumLatencySeries else { throw refusal(name, path, expected, value) }
            var names = Set<String>()
            for (i, item) in items.enumerated() {
                guard let of = item.at(["of"])?.stringValue, of.utf8.count <= 1_000, names.insert(of).inserted else {
                    throw refusal(name, path + ["[\(i)]", "of"], expected, item.at(["of"]))
                }
                guard let histograms = item.at(["histograms"])?.arrayValue, histograms.count <= seconds + 1 else {
                    throw refusal(name, path + ["[\(i)]", "histograms"], expected, item.at(["histograms"]))
                }
            }
        case .samples:
            guard let items = value.arrayValue else { throw refusal(name, path, "a list of violation samples", value) }
            var perKind: [String: Int] = [:]
            for (i, item) in items.enumerated() {
                let at = path + ["[\(i)]"]
                guard let kind = item.at(["kind"])?.stringValue else { throw refusal(name, at + ["kind"], "a violation kind (a string)", item.at(["kind"])) }
                perKind[kind, default: 0] += 1
                guard perKind[kind]! <= ReportMerge.samplesPerKind else {
                    throw refusal(name, at + ["kind"], "at most \(ReportMerge.samplesPerKind) violation samples of each kind (this is sample \(perKind[kind]!) of it)", item.at(["kind"]))
                }
                guard let time = item.at(["time"])?.doubleValue, time.isFinite else {
                    throw refusal(name, at + ["time"], "seconds since the start (a finite number)", item.at(["time"]))
                }
                _ = try count(item, ["device"], name, limit: maximumCount, at: at)
            }
        case .expectations:
            guard let items = value.arrayValue, items.count <= maximumExpectations,
                  items.allSatisfy({ $0.at(["metric"])?.stringValue != nil }) else {
                throw refusal(name, path, "at most \(maximumExpectations) expectations, each with a string metric", value)
            }
        case .identical, .shardPlan, .latency, .distribution, .hashSum, .derived, .replayed:
            break
        }
    }

    /// `simulated.shard` or `simulated.shards`, when present, with the run's identity.
    static func checkPlan(_ report: ReportValue, _ name: String) throws(ReportMerge.Refusal) {
        for key in ["shard", "shards"] where report.at(["simulated", key]) != nil {
            let path = ["simulated", key, "fingerprint"]
            guard let text = report.at(path)?.stringValue, text.utf8.count == 16, UInt64(text, radix: 16) != nil else {
                throw refusal(name, path, "the run's fingerprint, 16 hex digits (a report of an older build has none: run the shards again)", report.at(path))
            }
            let identity = ["simulated", key, "identity"]
            for member in ["scenarioContent", "scale"] {
                guard let text = report.at(identity + [member])?.stringValue, text.utf8.count <= 64 else {
                    throw refusal(name, identity + [member], "a string of at most 64 bytes", report.at(identity + [member]))
                }
            }
            guard let variants = report.at(identity + ["variants"])?.arrayValue, variants.count <= 100,
                  variants.allSatisfy({ ($0.stringValue?.utf8.count ?? .max) <= 100 }) else {
                throw refusal(name, identity + ["variants"], "the variants run: at most 100 names", report.at(identity + ["variants"]))
            }
            guard report.at(identity + ["swarm"])?.boolValue != nil else {
                throw refusal(name, identity + ["swarm"], "true or false", report.at(identity + ["swarm"]))
            }
        }
        if report.at(["simulated", "shard"]) != nil {
            let n = try count(report, ["simulated", "shard", "count"], name, limit: maximumShards, minimum: 1)
            _ = try count(report, ["simulated", "shard", "index"], name, limit: n - 1)
        }
        if report.at(["simulated", "shards"]) != nil {
            let n = try count(report, ["simulated", "shards", "count"], name, limit: maximumShards, minimum: 1)
            let path = ["simulated", "shards", "covered"]
            guard let covered = report.at(path)?.arrayValue, !covered.isEmpty, covered.count <= n else {
                throw refusal(name, path, "the list of shards this part covers (1 to \(n) of them)", report.at(path))
            }
            var seen = Set<Int64>()
            for (i, item) in covered.enumerated() {
                let k = try count(item, [], name, limit: n - 1, at: path + ["[\(i)]"])
                guard seen.insert(k).inserted else { throw refusal(name, path + ["[\(i)]"], "distinct shards", item) }
            }
        }
    }

    /// The count at `path` under `value`: an integer in `minimum...limit`.
    @discardableResult
    /// `prefix` is built only for a refusal: a series of a day's seconds is checked
    /// element by element, and building each element's path cost a sixth of a merge.
    static func count(_ value: ReportValue, _ path: [String], _ name: String, limit: Int64 = maximumCount,
                      minimum: Int64 = 0, at prefix: @autoclosure () -> [String] = []) throws(ReportMerge.Refusal) -> Int64 {
        let found = path.isEmpty ? value : value.at(path)
        guard let n = found?.intValue, n >= minimum, n <= limit else {
            throw refusal(name, prefix() + path, "an integer from \(minimum) to \(limit)", found)
        }
        return n
    }

    /// `a + b`, or ``maximumCount`` + 1 past it, so that a merged sum that overflows is
    /// refused by ``checkLeaf(_:_:_:_:buckets:seconds:)`` instead of wrapping or trapping.
    static func add(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow || sum > maximumCount ? maximumCount + 1 : sum
    }

    static func refusal(_ name: String, _ path: [String], _ expected: String, _ found: ReportValue?) -> ReportMerge.Refusal {
        ReportMerge.Refusal(message: "\(name): \(jsonPath(path)): expected \(expected), found \(ReportMerge.describe(found))")
    }

    /// `$.a.b[3]` (list indices are passed as `[3]`); a key of more than 60 bytes is
    /// cut, with its length, so that a message stays short whatever a file's keys.
    static func jsonPath(_ path: [String]) -> String {
        path.reduce("$") { path, key in
            let shown = key.utf8.count <= 60 ? key : "\(key.prefix(60))…(\(key.utf8.count) bytes)"
            return key.hasPrefix("[") ? path + shown : path + "." + shown
        }
    }

    static func split(_ dotted: String) -> [String] {
        dotted.split(separator: ".").map(String.init)
    }
}

extension ReportValue {
    /// The members of an object, settable (a non-object becomes an empty object).
    var objects: [String: ReportValue] {
        get { objectValue ?? [:] }
        set { self = .object(newValue) }
    }
}
