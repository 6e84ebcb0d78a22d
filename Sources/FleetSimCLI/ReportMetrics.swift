import Reports
import Scenario

/// Which numbers of a report.json are metrics (what a run measured) and which say what
/// was run: `compare` and `explore --out` look only at metrics.
enum ReportMetrics {
    /// A run's identity: never compared, but two reports must agree on the last three
    /// (and on their cohorts) to be comparable at all.
    static let identity = ["scenario", "seed", "fleetsimVersion", "modelVersion", "simulated.devices", "simulated.duration", "simulated.start"]

    /// Whether `path` (dotted) is a metric. Not metrics: the identity fields, every
    /// `simulated.*` key, and the configuration a report repeats (backend capacity,
    /// the provider concurrency limits, battery capacity and budget, the load series' and
    /// the latencies' and the batches' bucket widths), when the load peaked (`backend.load.peak.at`: a time, not a size),
    /// and the numbers inside a `histogram` or `distribution`.
    static func isMetric(_ path: String) -> Bool {
        if identity.contains(path) || path.hasPrefix("simulated.") || path.hasPrefix("backend.capacity.") || path == "backend.load.bucketSeconds"
            || path == "latencyOverTime.bucketSeconds" || path == "batches.bucketSeconds" {
            return false
        }
        if path.hasPrefix("backend.load."), path.hasSuffix(".at") { return false }
        let parts = path.split(separator: ".")
        // A histogram's or distribution's own numbers (bucket counts, microseconds,
        // digits) are the data behind the percentiles beside them, not user-facing
        // metrics: `latency.x.histogram.max` is in microseconds, `latency.x.max` in seconds.
        if parts.contains("histogram") || parts.contains("distribution") { return false }
        if path.hasPrefix("battery."), parts.last == "capacityMah" || parts.contains("budget") { return false }
        if path.hasPrefix("backend.pushes."), parts.last == "concurrency" { return false }
        return true
    }

    /// The numeric leaves (numbers and nulls) of a report, by dotted path, sorted;
    /// arrays (samples, series, `expect`) are not metrics and are skipped.
    static func leaves(of value: ReportValue) -> [(path: String, value: ReportValue)] {
        var out: [(String, ReportValue)] = []
        func walk(_ v: ReportValue, _ prefix: String) {
            switch v {
            case .object(let members):
                for key in members.keys.sorted() { walk(members[key]!, prefix.isEmpty ? key : "\(prefix).\(key)") }
            case .int, .number, .null:
                if isMetric(prefix) { out.append((prefix, v)) }
            default: break
            }
        }
        walk(value, "")
        return out
    }

    /// The numeric leaves of a parsed report.json (nil for `null`), metrics only.
    static func leaves(of value: JSONValue) -> [String: Double?] {
        var out: [String: Double?] = [:]
        func walk(_ v: JSONValue, _ prefix: String) {
            switch v {
            case .object(let members): for m in members { walk(m.value, prefix.isEmpty ? m.key : "\(prefix).\(m.key)") }
            case .number(let x, _): if isMetric(prefix) { out[prefix] = x }
            case .null: if isMetric(prefix) { out[prefix] = .some(nil) }
            default: break
            }
        }
        walk(value, "")
        return out
    }

    /// The cohorts a report describes (the keys of `battery`), sorted.
    static func cohorts(of value: JSONValue) -> [String] {
        guard case .object(let members)? = value["battery"] else { return [] }
        return members.map(\.key).sorted()
    }
}
