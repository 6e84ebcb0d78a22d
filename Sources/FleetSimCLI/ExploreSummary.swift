import Foundation
import Reports
import Scenario
import Simulation

/// What `explore --out` writes: summary.json (deterministic: seed order, sorted keys,
/// fixed digits, no wall time) and junit.xml (one testcase per seed).
struct ExploreSummary {
    /// The format's name and version, checked by `compare --seeds`.
    static let format = "fleetsim-explore-summary/1"

    /// How the intervals are computed; written into summary.json and the help.
    static let method = "per metric over the n seeds with data: mean and 95 % confidence interval of the mean, "
        + "the Student t interval mean ± t(0.975, n-1)·s/√n with s the sample standard deviation (null for n < 2)"

    struct KindSummary {
        var kind: String
        var violations: Int64
        var seeds: Int
        var firstSeed: UInt64
    }

    /// A variant of the run's logic: the kind that names its bug, and the seeds with a
    /// violation of that kind (none: the variant was not caught).
    struct VariantSummary {
        var name: String
        var kind: String
        var caught: [UInt64]
    }

    var scenario: Scenario
    /// The violation kind that names each variant's bug (``LogicSet/variantKinds``): a
    /// seed "caught" the variant when it has at least one violation of that kind.
    var variantKinds: [String: String]
    var file: String
    var options: [String]
    var first: UInt64
    var seeds: [Explore.SeedResult]
    /// With `--replications`: each expectation judged across the seeds (report.json's
    /// `expect` entries, `ciMethod` `replications`); summary.json's `replications`.
    var replications: [ExpectationResult]? = nil

    /// Violation kinds that at least one seed hit, by name.
    var kinds: [KindSummary] {
        var out: [String: KindSummary] = [:]
        for r in seeds {
            for k in r.byKind where k.count > 0 {
                var s = out[k.kind] ?? KindSummary(kind: k.kind, violations: 0, seeds: 0, firstSeed: r.seed)
                s.violations += k.count
                s.seeds += 1
                out[k.kind] = s
            }
        }
        return out.keys.sorted().map { out[$0]! }
    }

    /// The run's variants that name a bug, in the scenario's order.
    var variants: [VariantSummary] {
        scenario.logic.variants.compactMap { name in
            variantKinds[name].map { kind in
                VariantSummary(name: name, kind: kind, caught: seeds.filter { r in r.byKind.contains { $0.kind == kind && $0.count > 0 } }.map(\.seed))
            }
        }
    }

    /// The machine-independent replay command of a seed (as in report.json: the runner's
    /// name, `fleetsim`, not a path).
    func replay(_ r: Explore.SeedResult) -> String? {
        guard let device = r.firstDevice, let time = r.firstTime else { return nil }
        return ReplayCommand.text(executable: scenario.runner, scenario: file, seed: r.seed, device: device, timeSeconds: time, options: options)
    }

    var document: ReportValue {
        let failed = seeds.filter { !$0.passed }.count
        let kindSummaries = kinds
        var variants: [String: ReportValue] = [:]
        for v in self.variants {
            variants[v.name] = ["kind": .string(v.kind), "seedsCaught": .count(v.caught.count), "firstSeed": v.caught.first.map { .count($0) } ?? .null]
        }
        var document: ReportValue = [
            "format": .string(Self.format),
            "fleetsimVersion": .string(fleetsimVersion),
            "modelVersion": .count(modelVersion),
            "scenario": .string(scenario.name),
            "file": .string(file),
            "options": .array(options.map { .string($0) }),
            "simulated": [
                "devices": .count(scenario.fleet.reduce(0) { $0 + $1.count }),
                "duration": .seconds(scenario.duration.microseconds),
                "startUnixSeconds": .count(scenario.startUnixSeconds),
            ],
            "seeds": ["first": .count(first), "count": .count(seeds.count), "passed": .count(seeds.count - failed), "failed": .count(failed)],
            "perSeed": .array(seeds.map(perSeed)),
            "violationKinds": .object(Dictionary(uniqueKeysWithValues: kindSummaries.map {
                ($0.kind, ["violations": .count($0.violations), "seedsCaught": .count($0.seeds), "firstSeed": .count($0.firstSeed)] as ReportValue)
            })),
            "variants": .object(variants),
            "method": .string(Self.method),
            "metrics": .object(metrics),
        ]
        if let replications, case .object(var members) = document {
            members["replications"] = .array(replications.map(\.reportValue))
            document = .object(members)
        }
        return document
    }

    private func perSeed(_ r: Explore.SeedResult) -> ReportValue {
        var kinds: [String: ReportValue] = [:]
        for k in r.byKind where k.count > 0 { kinds[k.kind] = .count(k.count) }
        return [
            "seed": .count(r.seed),
            "passed": .bool(r.passed),
            "violations": .count(r.violations),
            "byKind": .object(kinds),
            "failedExpectations": .array(r.failedExpectations.map(Self.expectation)),
            "inconclusiveExpectations": .array(r.inconclusiveExpectations.map(Self.expectation)),
            "replay": replay(r).map { .string($0) } ?? .null,
        ]
    }

    /// A seed's failed or inconclusive expectation: metric, value, bounds, verdict, n and
    /// the confidence interval (report.json's keys; docs/report.md).
    static func expectation(_ e: ExpectationResult) -> ReportValue {
        ["metric": .string(e.metric), "value": e.value.map { .number($0, digits: 6) } ?? .null,
         "min": e.min.map { .number($0, digits: 6) } ?? .null, "max": e.max.map { .number($0, digits: 6) } ?? .null,
         "verdict": .string(e.verdict.rawValue), "n": e.samples.map { .count($0) } ?? .null,
         "ciLow": e.interval.map { .number($0.low, digits: 6) } ?? .null,
         "ciHigh": e.interval?.high.map { .number($0, digits: 6) } ?? .null]
    }

    /// Per metric: the per-seed values (null where a seed had no data), n, mean and
    /// the 95 % interval, with three more digits than the report gives the metric.
    var metrics: [String: ReportValue] {
        var values: [String: [ReportValue]] = [:]
        for (i, r) in seeds.enumerated() {
            for m in r.metrics {
                if values[m.path] == nil { values[m.path] = Array(repeating: .null, count: seeds.count) }
                values[m.path]![i] = m.value
            }
        }
        var out: [String: ReportValue] = [:]
        for (path, list) in values {
            let numbers = list.compactMap(\.doubleValue)
            let digits = min(9, 3 + list.map { v -> Int in if case .number(_, let d) = v { return d } else { return 0 } }.max()!)
            let interval = Statistics.confidenceInterval95(numbers)
            out[path] = [
                "n": .count(numbers.count),
                "mean": numbers.isEmpty ? .null : .number(Statistics.mean(numbers), digits: digits),
                "ci95": interval.map { [.number($0.low, digits: digits), .number($0.high, digits: digits)] } ?? .null,
                "values": .array(list),
            ]
        }
        return out
    }

    /// One testcase per seed, its time the seed's wall time; a failing seed's failure
    /// names its kinds and failed expectations (value and limit) and carries the replay
    /// command; a passing seed with inconclusive expectations lists them in its
    /// `system-out`. The suite's time is the sum of the seeds' (as one job would spend
    /// it), from `startedAt` (UTC, the explore's wall-clock start), and its properties say
    /// so and give the simulated start and duration (as run's junit.xml).
    func junit(startedAt: String, replay command: (Explore.SeedResult) -> String?) -> String {
        let failed = seeds.filter { !$0.passed }.count
        let total = seeds.reduce(0) { $0 + $1.wallSeconds }
        let properties = [("wallTime", "the sum of the wall times of the \(seeds.count) seeds' runs"),
                          ("simulated.start", UTCTimestamp.format(scenario.startUnixSeconds)),
                          ("simulated.duration", Self.time(Double(scenario.duration.microseconds) / 1e6))]
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"fleetsim explore\" tests=\"\(seeds.count)\" failures=\"\(failed)\" time=\"\(Self.time(total))\">\n"
        out += "  <testsuite name=\"\(XMLText.escape("explore \(scenario.name)"))\" tests=\"\(seeds.count)\" failures=\"\(failed)\" timestamp=\"\(XMLText.escape(startedAt))\" time=\"\(Self.time(total))\">\n"
        out += "    <properties>" + properties.map { "<property name=\"\($0.0)\" value=\"\(XMLText.escape($0.1))\"/>" }.joined() + "</properties>\n"
        for r in seeds {
            out += "    <testcase classname=\"\(XMLText.escape("explore.\(scenario.name)"))\" name=\"seed \(r.seed)\" time=\"\(Self.time(r.wallSeconds))\""
            if r.passed, !r.inconclusiveExpectations.isEmpty {
                let lines = r.inconclusiveExpectations.map { Run.verdictLine($0, file: file) }.joined(separator: "\n")
                out += ">\n      <system-out>\(XMLText.escape(lines + "\n(not a failure without --strict)"))</system-out>\n    </testcase>\n"
                continue
            }
            guard !r.passed else { out += "/>\n"; continue }
            let kinds = r.byKind.filter { $0.count > 0 }.map { "\($0.kind) x\($0.count)" } + r.failedExpectations.map { "expect \($0.metric)" }
            var body = kinds.joined(separator: "\n")
            for e in r.failedExpectations { body += "\n" + Run.verdictLine(e, file: file) }
            if let c = command(r) { body += "\nreplay: " + c }
            out += ">\n      <failure message=\"\(XMLText.escape(kinds.joined(separator: ", ")))\" type=\"\(r.violations > 0 ? "invariant" : "expectation")\">\(XMLText.escape(body))</failure>\n    </testcase>\n"
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    static func time(_ seconds: Double) -> String { String(format: "%.3f", seconds) }
}
