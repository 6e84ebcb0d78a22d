import Platform
import Backend
import SimKernel
import Scenario
import Reports

/// FleetSim's version, written into every report.
public let fleetsimVersion = "0.2.0"

/// The version of the model, written into every report beside ``fleetsimVersion``:
/// raised by every change that moves simulated numbers (the OS, network, backend or
/// user models, the reference logic, the draws), so a team's committed baseline says
/// which model made it and `compare` refuses a baseline of another model
/// (docs/harness.md, "The model version"). reports/baselines/model-versions.txt
/// records it with the golden report's digest; a golden report that changes without it
/// fails GoldenReportTests.
public let modelVersion = 3

/// What a finished run produced: `report.json`'s document and the verdicts that set
/// the exit code.
public struct RunOutcome: Sendable {
    public var report: ReportValue
    public var violations: UInt64
    public var expectations: [ExpectationResult]
    /// Exit code 0 when nothing was violated and no expectation failed (nor, with
    /// `strict`, was inconclusive), else 1.
    public func passed(strict: Bool) -> Bool { violations == 0 && !expectations.contains { $0.isFailure(strict: strict) } }
}

/// An `expect` judged on the run's report (pass, fail or inconclusive).
public typealias ExpectationResult = ExpectationJudgement

/// report.json's document, a read-only function of a finished world (``World/report()``):
/// the core's sections from the core's metrics, and what the features add
/// (``ReportParts``, gathered by the list of features, and each device's wakeups they
/// caused). It is not generic over the logic set: the world hands it what it read, so the
/// report's code is compiled once, here, whatever runner specialises the world
/// (docs/harness.md, "Your runner's speed").
struct RunReport {
    let core: WorldCore
    let load: LoadSeries
    let server: APIServerModel
    let eventHashes: EventHashes
    let eventsProcessed: UInt64
    /// The features' parts of the report (``World/featureReport()``).
    let parts: ReportParts
    /// Per device, the wakeups the features caused besides its task launches.
    let featureWakeups: [UInt32]

    var scenario: Scenario { _read { yield core.scenario } }
    var shard: ShardPlan { _read { yield core.shard } }
    /// The endpoint rows and rules this run's report lists (an idle opt-in feature's left out).
    var scope: ReportScope { ReportScope(cohorts: core.cohorts) }

    /// Builds the report. Fails (as a scenario error) only when an `expect` names a
    /// metric that `report.json` does not have.
    ///
    /// A shard (N > 1) records its plan as `simulated.shard: {index, count}`; a plain run
    /// has no such key, so its bytes are what they were before sharding existed.
    func outcome() throws(ScenarioError) -> RunOutcome {
        var document: [String: ReportValue] = [
            "scenario": .string(scenario.name),
            "seed": .count(scenario.seed),
            "fleetsimVersion": .string(fleetsimVersion),
            "modelVersion": .count(modelVersion),
            "simulated": [
                "devices": .count(core.devices.count),
                "duration": .seconds(scenario.duration.microseconds),
                "events": .count(eventsProcessed),
                "start": .string(Trace.utc(core.startUnixSeconds * 1_000_000)),
            ],
            "events": ["hash": eventHashSection()],
            "latency": .object(parts.latency),
            "latencyOverTime": LatencyTimeline.section(parts.latencyOverTime, bucketSeconds: TimedLatency.bucketSeconds(durationMicroseconds: scenario.duration.microseconds)),
            // The API's waits by span of simulated time: what their intervals rest on (BatchMeans).
            "batches": LatencyTimeline.section([("backend.queueing", core.metrics.queueingBatches)],
                                               bucketSeconds: core.metrics.queueingBatches.bucketSeconds),
            "battery": batterySection(parts.battery),
            "backend": backendSection(parts),
            "scheduling": schedulingSection(parts.scheduling),
            "notifications": [
                "posted": .count(parts.notificationsPosted),
                "notShownWithoutPermission": .count(core.metrics.notificationsSuppressed),
            ],
            "users": [
                "appOpens": .count(core.metrics.appOpens),
                "testsStarted": .count(core.metrics.testsTaken),
            ],
            "invariants": invariantsSection(),
        ]
        for (key, section) in parts.sections { document[key] = section }
        // Only a run with a judge switched off has the section, so the others' bytes stay.
        if !core.oracle.offReasons.isEmpty {
            document["judges"] = ["off": .object(Dictionary(uniqueKeysWithValues: core.oracle.offReasons.map { ($0.kind.rawValue, .string($0.reason)) }))]
        }
        if !shard.isWhole, case .object(var simulated)? = document["simulated"] {
            simulated["shard"] = shardSection()
            document["simulated"] = .object(simulated)
        }
        // The capacity figures read the report's own series, as merge reads the merged ones.
        guard case .object(var withCapacity) = CapacityFigures.adding(to: .object(document)) else { preconditionFailure("an object stays one") }
        let results = try evaluate(ReportValue.object(withCapacity))
        withCapacity["expect"] = .array(results.map(\.reportValue))
        return RunOutcome(report: .object(withCapacity), violations: core.oracle.violations, expectations: results)
    }

    /// `events.hash`: the delivered event stream's hashes (Core/EventHashes), as 16 hex digits.
    func eventHashSection() -> ReportValue {
        var byCohort = Array(repeating: UInt64(0), count: core.cohorts.count)
        for d in core.devices.indices { byCohort[Int(core.devices[d].cohort)] &+= core.devices[d].eventHash }
        let chains = EventHashes.chains(core.devices), deviceSum = EventHashes.sum(chains)
        return [
            "function": .string("splitmix64"),
            "delivered": .count(eventHashes.delivered),
            "fleetDelivered": .count(eventHashes.fleetDelivered),
            "total": .string(EventHashes.hex(deviceSum &+ eventHashes.fleet)),
            "devices": .string(EventHashes.hex(deviceSum)),
            "fleet": .string(EventHashes.hex(eventHashes.fleet)),
            "byCohort": .array(byCohort.map { .string(EventHashes.hex($0)) }),
            "byBucket": .array(EventHashes.bucketSums(chains, globalID: core.globalID).map { .string(EventHashes.hex($0)) }),
        ]
    }

    private func evaluate(_ document: ReportValue) throws(ScenarioError) -> [ExpectationResult] {
        var results: [ExpectationResult] = []
        for (index, e) in scenario.expect.enumerated() {
            guard let found = document.lookup(e.metric), found.arrayCount == nil, found.objectValue == nil, found.stringValue == nil else {
                throw ScenarioError(file: scenario.sourcePath, path: "$.expect[\(index)].metric",
                                    expected: "a number in report.json, such as \"invariants.violations\" or \"latency.testAvailableToNotified.p95\"",
                                    found: "\"\(e.metric)\"")
            }
            results.append(ExpectationJudgement.judge(metric: e.metric, min: e.min, max: e.max, minText: e.minText,
                                                      maxText: e.maxText, in: document))
        }
        return results
    }

    var simulatedDays: Double { max(scenario.duration.seconds / 86_400, 1e-9) }

    /// `battery`: per cohort, the app's energy, wakeups (task launches and what the
    /// features add) and radio time per device-day, with the features' entries (`features`,
    /// in cohort order).
    private func batterySection(_ features: [[String: ReportValue]]) -> ReportValue {
        var section: [String: ReportValue] = [:]
        for (c, cohort) in core.cohorts.enumerated() {
            let range = cohort.firstDevice ..< cohort.firstDevice + cohort.count
            let capacity = cohort.capacityMah
            var perDay: [Double] = [], wakeups: [Double] = [], radioSeconds: [Double] = []
            for d in range {
                let joules = core.devices[d].ledger.appJoules
                perDay.append(DeviceEnergyModel.milliampHours(joules: joules) / simulatedDays)
                wakeups.append(Double(core.devices[d].launches + featureWakeups[d]) / simulatedDays)
                radioSeconds.append(core.devices[d].radio.activeSeconds / simulatedDays)
            }
            var entries: [String: ReportValue] = [
                "capacityMah": .fixed(capacity, 1),
                "appEnergyPerDeviceDay": [
                    "mAh": ValueDistribution(perDay, digits: 4).summary(),
                    "percentOfCapacity": ValueDistribution(perDay.map { $0 / capacity * 100 }, digits: 5).summary(),
                ],
                "wakeupsPerDeviceDay": ValueDistribution(wakeups, digits: 3).summary(),
                "radioActiveSecondsPerDeviceDay": ValueDistribution(radioSeconds, digits: 3).summary(),
            ]
            for (key, value) in features[c] { entries[key] = value }
            section[cohort.name] = .object(entries)
        }
        return .object(section)
    }

    private func backendSection(_ parts: ReportParts) -> ReportValue {
        // Every second of the run counts, quiet ones included.
        let perSecond = arrivalsPerSecond()
        let peak = peakBucket()
        // Every arrival is in one bucket of its endpoint's series (the last bucket takes any
        // at the end), so the series' sums are the run's request counts.
        let byEndpoint = load.requests.map { $0.reduce(UInt64(0)) { $0 + UInt64($1) } }
        let total = byEndpoint.reduce(0, +)
        var section: [String: ReportValue] = [
            "requests": [
                "total": .count(total),
                "byEndpoint": .object(Dictionary(uniqueKeysWithValues: scope.endpoints.map { ($0.name, ReportValue.count(byEndpoint[$0.row])) })),
            ],
            // `peak` is the busiest minute's mean rate (the peak of `backend.load`, whose
            // `peak` says when); `peakSecond` and `p99` are over single seconds.
            "requestsPerSecond": [
                "mean": DerivedFigures.meanRate(Int64(total), durationSeconds: scenario.duration.seconds),
                "p99": .fixed(perSecond.quantile, 1),
                "peak": DerivedFigures.bucketRate(Int64(peak.requests), bucketSeconds: load.bucket.seconds),
                "peakSecond": .fixed(Double(perSecond.peak), 1),
            ],
            "queueing": core.metrics.queueingLatency.latencySummary(),
            "queue": queueSection(),
            "capacity": ["workers": .count(server.workers), "queueLimit": .count(server.queueLimit)],
            // Some request found every worker busy and the queue full (answered 503).
            "saturated": .bool(core.metrics.rejected > 0),
            "peakQueueDepth": .count(server.peakQueueDepth),
            "rejected": .count(core.metrics.rejected),
            "unanswered": .count(core.metrics.unanswered),
            "unauthorized": .count(core.metrics.unauthorized),
            "clientTimeouts": .count(core.metrics.timeouts),
            "lostInTransit": .count(core.metrics.transportFailures),
            "load": loadSection(parts.load),
        ]
        for (key, value) in parts.backend { section[key] = value }
        return .object(section)
    }

    private func schedulingSection(_ features: [String: ReportValue]) -> ReportValue {
        var perPlatform: [String: ReportValue] = [:], basis: [String: ReportValue] = [:]
        let seconds = scenario.duration.seconds
        for platform in ["ios", "android"] {
            let members = core.cohorts.filter { $0.platform.rawValue == platform }
            let deviceCount = Int64(members.reduce(0) { $0 + $1.count })
            guard deviceCount > 0 else { continue }
            let launches = Int64(members.reduce(0) { acc, c in
                acc + (c.firstDevice ..< c.firstDevice + c.count).reduce(0) { $0 + Int(core.devices[$1].launches) }
            })
            var rates: [String: ReportValue] = ["all": DerivedFigures.perDeviceDay(launches, devices: deviceCount, durationSeconds: seconds)]
            var counts: [String: ReportValue] = ["devices": .count(deviceCount), "launches": .count(launches)]
            if platform == "android" {
                var byBucket: [String: ReportValue] = [:]
                for bucket in StandbyBucket.allCases {
                    let n = Int64(core.metrics.platform.androidLaunchesByBucket[bucket.rawValue])
                    rates[bucket.reportName] = DerivedFigures.perDeviceDay(n, devices: deviceCount, durationSeconds: seconds)
                    byBucket[bucket.reportName] = .count(n)
                }
                counts["byBucket"] = .object(byBucket)
            }
            perPlatform[platform] = .object(rates)
            basis[platform] = .object(counts)
        }
        var section: [String: ReportValue] = [
            "launchesPerDeviceDay": .object(perPlatform),
            // What `launchesPerDeviceDay` is derived from (and what `fleetsim merge` sums).
            "launchesByPlatform": .object(basis),
            "launches": .count(core.metrics.launches),
            "expirations": .count(core.metrics.expirations),
            "earlyExpirations": .count(core.metrics.earlyExpirations),
            "watchdogKills": .count(core.metrics.watchdogKills),
            "submitUnavailable": .count(core.metrics.submitUnavailable),
            "heldBackByLowPowerMode": .count(core.metrics.launchesHeldBack),
            "jetsamKills": .count(core.metrics.jetsamKills),
            "dozeDeferrals": .count(core.metrics.platform.dozeDeferrals),
        ]
        for (key, value) in platformSchedulingEntries() { section[key] = value }
        for (key, value) in features { section[key] = value }
        return .object(section)
    }

    private func invariantsSection() -> ReportValue {
        var byKind: [String: ReportValue] = [:]
        for (k, kind) in scope.rules { byKind[kind.rawValue] = .count(core.oracle.counts[k]) }
        return [
            "checked": .count(core.oracle.checked),
            "violations": .count(core.oracle.violations),
            "byKind": .object(byKind),
            "samples": .array(core.oracle.sampleList.map { v in
                .object([
                    "kind": .string(v.kind.rawValue),
                    "device": .count(core.globalID(v.device)),
                    "time": .seconds(v.time.microseconds),
                    "detail": .string(v.detail),
                    "replay": .string(replayCommand(device: Int(core.globalID(v.device)), at: v.time)),
                ])
            }),
        ]
    }

    /// The command that shows the story of `device` around `time`, every word quoted for
    /// the shell (a scenario file named `y$(touch x).json` must not run `touch` when the
    /// command is pasted; docs/report.md, "report.json").
    func replayCommand(device: Int, at time: SimTime) -> String {
        let from = max(0, time.microseconds / 1_000_000 - 300)
        let options = scenario.replayOptions.isEmpty ? "" : " \(scenario.replayOptions)"
        return Shell.command([scenario.runner, "replay", scenario.sourcePath, "--seed", String(scenario.seed), "--device", String(device),
                              "--from", "\(from)s", "--to", "\(time.microseconds / 1_000_000 + 60)s"]) + options
    }
}
