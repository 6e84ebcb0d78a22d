/// What a report of this build holds and how its figures agree with each other
/// (``ReportConsistency``): the keys it may have, those it must have, its totals and
/// their parts, and the physical bounds of its counts. The simulation supplies it
/// (the features' keys are its own); docs/scale.md, "What merge refuses", lists the rules.
public struct ReportSchema: Sendable {
    /// A leaf key pattern: `*` is one key of an object; `optional` when a report may lack it.
    struct Key: Sendable {
        let pattern: [String]
        let optional: Bool
    }

    /// A total and its parts. In `parts`, the first `*`s take the keys the total's `*`s
    /// matched (`a.*.sends` against `a.*.accepted`: one member
    /// at a time); any further `*` is summed over, and a list is summed over its
    /// entries. A `*` never matches a key named `total` (a total is not its own part).
    /// `perBucket`: the total and its parts are series, equal bucket by bucket.
    public struct Relation: Sendable {
        let total: [String]
        let parts: [[String]]
        let perBucket: Bool

        public init(_ total: String, _ parts: [String], perBucket: Bool = false) {
            self.total = ReportInput.split(total)
            self.parts = parts.map(ReportInput.split)
            self.perBucket = perBucket
        }
    }

    /// A physical bound of a count.
    public enum Bound: Sendable {
        /// Every entry of the series (or the value) at `path` is at most the count at `limit`
        /// (`*` in `path` binds the first `*` of `limit`).
        case atMost(String, limit: String)
        /// Busy time per bucket: every entry of the series at `path` (microseconds) is at
        /// most the count at `workers` times the bucket's width (`backend.load.bucketSeconds`).
        case busyTime(String, workers: String)
        /// Every number at `path` is at most `limit` (a per-device-day figure of seconds).
        case atMostValue(String, Double)
        /// Every element of the list at `path` has a string `member` among the closed set
        /// of names at `names` (a violation sample's kind among `invariants.byKind`'s).
        case memberNames(String, member: String, names: String)
        /// Every list at `path` is a series with one entry per bucket of the run
        /// (`bucketSeconds` the path of the bucket's width), a key in `except` aside.
        case fullSeries(String, bucketSeconds: String, except: Set<String>)
    }

    let keys: [Key]
    /// The names a `*` may match, by the pattern up to that `*` (`invariants.byKind`):
    /// a closed set. Elsewhere a name is at most ``ReportSchema/maximumNameBytes``.
    let names: [String: Set<String>]
    let relations: [Relation]
    let bounds: [Bound]

    /// The longest key name a `*` matches outside the closed sets (endpoints, cohorts).
    public static let maximumNameBytes = 64

    /// `keys`: one pattern a line; a trailing `?` marks a key a report may lack.
    public init(keys: String, names: [String: Set<String>], relations: [Relation], bounds: [Bound]) {
        self.keys = keys.split(separator: "\n").compactMap { line in
            let text = line.filter { $0 != " " }
            guard !text.isEmpty else { return nil }
            let optional = text.hasSuffix("?")
            return Key(pattern: ReportInput.split(String(optional ? text.dropLast() : text[...])), optional: optional)
        }
        self.names = names
        self.relations = relations
        self.bounds = bounds
    }
}

/// Refuses a report that disagrees with itself (`fleetsim merge` and `compare` read
/// reports from files): every key one this build writes, every required key present,
/// every total the sum of its parts, every bounded count within its bound. The first
/// disagreement is named: file, JSON path, what was expected, what was found.
public enum ReportConsistency {
    /// Checks `report` (already checked by ``ReportInput``: its counts are integers) by
    /// `schema`; `name` is the file, as messages name it.
    public static func check(_ report: ReportValue, name: String, schema: ReportSchema) throws(ReportMerge.Refusal) {
        try checkKeys(report, name, schema)
        for key in schema.keys where !key.optional {
            if let missing = firstMissing(key.pattern[...], report, []) {
                throw ReportInput.refusal(name, missing, "the key \(key.pattern.joined(separator: ".")) (every report of this build has it)", report.at(missing))
            }
        }
        for bound in schema.bounds { try check(bound, report, name, schema) }
        for relation in schema.relations { try check(relation, report, name) }
    }

    /// Every leaf is a key of the schema, each name at a `*` of its closed set or short.
    static func checkKeys(_ report: ReportValue, _ name: String, _ schema: ReportSchema) throws(ReportMerge.Refusal) {
        for path in ReportMerge.leafPaths(report) where !path.isEmpty {
            // An empty object is a leaf: it is known when some key lies under it.
            let empty = report.at(path) == .object([:])
            guard let key = schema.keys.first(where: { empty ? prefixMatches($0.pattern, path) : ReportMerge.matches($0.pattern, path) }) else {
                if let inner = schema.keys.first(where: { prefixMatches($0.pattern, path) }) {
                    throw ReportInput.refusal(name, path, "an object (with \(inner.pattern[path.count]) and the like)", report.at(path))
                }
                let parent = Array(path.dropLast())
                var siblings: [String] = []
                for key in schema.keys where key.pattern.count >= path.count && ReportMerge.matches(Array(key.pattern.prefix(parent.count)), parent) {
                    let sibling = key.pattern[parent.count]
                    if sibling != "*" && !siblings.contains(sibling) { siblings.append(sibling) }
                }
                let hint = siblings.isEmpty ? "" : " (keys here: \(siblings.prefix(12).joined(separator: ", "))\(siblings.count > 12 ? ", …" : ""))"
                throw ReportInput.refusal(name, path, "no such key: this build writes none\(hint)", .string(path.last ?? ""))
            }
            for (i, segment) in key.pattern.enumerated() where segment == "*" && i < path.count {
                let prefix = key.pattern[..<i].joined(separator: ".")
                if let closed = schema.names[prefix] {
                    guard closed.contains(path[i]) else {
                        throw ReportInput.refusal(name, Array(path[...i]), "one of the \(closed.count) names this build writes at \(prefix)", .string(path[i]))
                    }
                } else if path[i].utf8.count > ReportSchema.maximumNameBytes || path[i].isEmpty {
                    throw ReportInput.refusal(name, Array(path[...i]), "a name of 1 to \(ReportSchema.maximumNameBytes) bytes", .string(path[i]))
                }
            }
        }
    }

    /// Whether `path` is a proper prefix of what `pattern` matches.
    static func prefixMatches(_ pattern: [String], _ path: [String]) -> Bool {
        pattern.count > path.count && ReportMerge.matches(Array(pattern.prefix(path.count)), path)
    }

    /// The first path a required pattern lacks: each literal key present, every key of an
    /// object at a `*` followed.
    static func firstMissing(_ pattern: ArraySlice<String>, _ node: ReportValue, _ at: [String]) -> [String]? {
        guard let head = pattern.first else { return nil }
        guard case .object(let members) = node else { return at }
        if head == "*" {
            for key in members.keys.sorted() {
                if let missing = firstMissing(pattern.dropFirst(), members[key]!, at + [key]) { return missing }
            }
            return nil
        }
        guard let child = members[head] else { return at + [head] }
        return firstMissing(pattern.dropFirst(), child, at + [head])
    }

    /// The values matching `pattern` under `node`, with the keys each `*` matched (in
    /// key order); a `*` skips a key named `total`.
    static func matches(_ pattern: ArraySlice<String>, _ node: ReportValue, _ at: [String] = [], _ bound: [String] = [],
                        totals: Bool = false) -> [(path: [String], stars: [String], value: ReportValue)] {
        guard let head = pattern.first else { return [(at, bound, node)] }
        guard case .object(let members) = node else { return [] }
        if head == "*" {
            return members.keys.sorted().filter { totals || $0 != "total" }
                .flatMap { matches(pattern.dropFirst(), members[$0]!, at + [$0], bound + [$0], totals: totals) }
        }
        guard let child = members[head] else { return [] }
        return matches(pattern.dropFirst(), child, at + [head], bound, totals: totals)
    }

    /// `pattern` with its first `*`s replaced by `stars`.
    static func binding(_ pattern: [String], _ stars: [String]) -> [String] {
        var remaining = stars[...]
        return pattern.map { segment in
            guard segment == "*", let star = remaining.first else { return segment }
            remaining = remaining.dropFirst()
            return star
        }
    }

    static func check(_ relation: ReportSchema.Relation, _ report: ReportValue, _ name: String) throws(ReportMerge.Refusal) {
        for total in matches(relation.total[...], report) {
            let parts = relation.parts.map { binding($0, total.stars) }
            let partsText = parts.map { $0.joined(separator: ".") }.joined(separator: " + ")
            let values = parts.flatMap { matches($0[...], report) }
            if relation.perBucket {
                guard let series = total.value.arrayValue else { continue }
                var sums = [Int64](repeating: 0, count: series.count)
                for part in values {
                    guard let items = part.value.arrayValue, items.count == series.count else {
                        throw ReportInput.refusal(name, part.path, "a series of \(series.count) counts, as \(jsonPath(total.path)) has", part.value)
                    }
                    for (b, item) in items.enumerated() { sums[b] = ReportInput.add(sums[b], item.intValue ?? 0) }
                }
                for (b, item) in series.enumerated() where (item.intValue ?? 0) != sums[b] {
                    throw ReportInput.refusal(name, total.path + ["[\(b)]"], "\(sums[b]), the sum of \(partsText) in bucket \(b)", item)
                }
            } else {
                var sum: Int64 = 0
                for part in values { sum = ReportInput.add(sum, Self.sum(part.value)) }
                guard Self.sum(total.value) == sum else {
                    throw ReportInput.refusal(name, total.path, "\(sum), the sum of \(partsText)", total.value)
                }
            }
        }
    }

    /// A count, or the sum of a list of counts (a null is none).
    static func sum(_ value: ReportValue) -> Int64 {
        if let items = value.arrayValue { return items.reduce(0) { ReportInput.add($0, $1.intValue ?? 0) } }
        return value.intValue ?? 0
    }

    static func check(_ bound: ReportSchema.Bound, _ report: ReportValue, _ name: String, _ schema: ReportSchema) throws(ReportMerge.Refusal) {
        switch bound {
        case .memberNames(let path, let member, let names):
            guard let closed = schema.names[names] else { return }
            for (i, item) in (report.at(ReportInput.split(path))?.arrayValue ?? []).enumerated() {
                guard let text = item.at([member])?.stringValue, closed.contains(text) else {
                    throw ReportInput.refusal(name, ReportInput.split(path) + ["[\(i)]", member], "one of the \(closed.count) names this build writes at \(names)", item.at([member]))
                }
            }
        case .atMost(let path, let limit):
            for item in matches(ReportInput.split(path)[...], report) {
                let at = binding(ReportInput.split(limit), item.stars)
                guard let cap = report.at(at)?.intValue else { continue }
                try within(item, cap, "at most \(at.joined(separator: "."))", name)
            }
        case .busyTime(let path, let workers):
            guard let width = report.at(["backend", "load", "bucketSeconds"])?.intValue else { return }
            for item in matches(ReportInput.split(path)[...], report) {
                let at = binding(ReportInput.split(workers), item.stars)
                guard let n = report.at(at)?.intValue else { continue }
                let (cap, overflow) = n.multipliedReportingOverflow(by: width * 1_000_000)
                try within(item, overflow ? .max : cap, "at most \(at.joined(separator: ".")) x \(width) s (the bucket) of busy time", name)
            }
        case .atMostValue(let path, let limit):
            for item in matches(ReportInput.split(path)[...], report) {
                if let x = item.value.doubleValue, !(x <= limit) {
                    throw ReportInput.refusal(name, item.path, "at most \(Int(limit))", item.value)
                }
            }
        case .fullSeries(let path, let widthPath, let except):
            guard let width = report.at(ReportInput.split(widthPath))?.intValue, width > 0,
                  let duration = report.at(["simulated", "duration"])?.doubleValue else { return }
            let microseconds = Int64((duration * 1_000_000).rounded())
            let buckets = Swift.max(1, (microseconds + width * 1_000_000 - 1) / (width * 1_000_000))
            for item in matches(ReportInput.split(path)[...], report, totals: true)
            where item.value.arrayValue != nil && !except.contains(item.path.last ?? "") {
                guard let items = item.value.arrayValue, items.count == buckets else {
                    throw ReportInput.refusal(name, item.path, "a series of \(buckets) entries (one per \(width) s of the run)", item.value)
                }
            }
        }
    }

    /// A count or every entry of a series at most `cap`.
    static func within(_ item: (path: [String], stars: [String], value: ReportValue), _ cap: Int64, _ what: String, _ name: String) throws(ReportMerge.Refusal) {
        if let items = item.value.arrayValue {
            for (b, entry) in items.enumerated() where (entry.intValue ?? 0) > cap {
                throw ReportInput.refusal(name, item.path + ["[\(b)]"], "\(what) (\(cap))", entry)
            }
        } else if let n = item.value.intValue, n > cap {
            throw ReportInput.refusal(name, item.path, "\(what) (\(cap))", item.value)
        }
    }

    static func jsonPath(_ path: [String]) -> String { ReportInput.jsonPath(path) }
}
