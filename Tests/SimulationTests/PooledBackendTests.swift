import Testing
import Scenario
import Reports
@testable import Simulation

/// One pooled backend behind a sharded fleet (docs/scale.md, "One pooled backend"): the
/// shards' recorded requests replayed through the whole capacity give the plain run's
/// queue, where the shards' own (each with its part of the workers) queue; a run's
/// recorded requests replayed at other worker counts give the full runs' figures while
/// nothing saturates (`fleetsim whatif`).
@Suite struct PooledBackendTests {
    /// The bytes a recorder hands over.
    final class Sink { var bytes: [UInt8] = [] }

    /// The capacity scenario's 200,000 phones scaled to 1,000, with `workers` and the
    /// backend's changes.
    static func capacity(workers: Int, change: (inout Scenario) -> Void = { _ in }) throws -> Scenario {
        var s = try Fixtures.scenario("scenarios/capacity.json").scaled(by: 0.005)
        s.backend.workers = workers
        change(&s)
        return s
    }

    /// A run of `scenario` (or its shard), its report and its recorded requests.
    static func run(_ scenario: Scenario, shard: ShardPlan = .whole) throws -> (report: ReportValue, records: [RecordedRequest], header: RequestLog.Header) {
        var world = World(scenario: scenario, shard: shard)
        let sink = Sink()
        let b = scenario.backend
        let header = RequestLog.Header(durationMicroseconds: scenario.duration.microseconds, workers: b.workers, queueLimit: b.queueLimit,
                                       streams: b.push.concurrency, streamQueueLimit: b.push.queueLimit)
        world.requestRecorder = RequestRecorder(header: header, shard: shard.index) { sink.bytes += $0 }
        world.runToEnd()
        world.requestRecorder?.finish()
        let decoded = try RequestLog.decode(sink.bytes)
        #expect(decoded.header == header)
        return (try world.report().report, decoded.records, header)
    }

    static func replay(_ records: [RecordedRequest], _ header: RequestLog.Header, workers: Int? = nil) -> PooledReplay.Outcome {
        var capacity = PooledReplay.Capacity(header)
        if let workers { capacity.workers = workers }
        return PooledReplay.replay(RequestLog.sortedForReplay(records), capacity: capacity, durationMicroseconds: header.durationMicroseconds)
    }

    static func number(_ r: ReportValue, _ path: String) -> Double { r.lookup(path)?.reportedDouble ?? .nan }

    /// Within 5 % of `expected`, or both 0.
    static func close(_ value: Double, _ expected: Double, _ what: String) {
        #expect(value == expected || abs(value - expected) <= 0.05 * abs(expected), "\(what): \(value) against \(expected)")
    }

    @Test func fourShardsReplayedThroughTheWholeBackendHaveThePlainRunsQueue() throws {
        let scenario = try Self.capacity(workers: 8)
        let plain = try Self.run(scenario)
        #expect(Self.number(plain.report, "backend.queueing.max") == 0, "the plain run never queues")
        let shards = try (0..<4).map { try Self.run(scenario, shard: ShardPlan(index: $0, count: 4)) }
        // The shards, with 2 workers of the 8 each, queue (none long enough to time out:
        // the arrivals are the plain run's, and the pooled figures say so).
        #expect(shards.contains { Self.number($0.report, "backend.queueing.max") > 1 })
        #expect(shards.allSatisfy { $0.report.lookup("backend.clientTimeouts")?.intValue == 0 })
        #expect(shards.allSatisfy { $0.header == plain.header }, "every log names the whole capacity")
        let pooled = Self.replay(shards.flatMap(\.records), plain.header)
        let section = PooledReport.section(pooled, .init(clientTimeouts: 0, longestWait: 0))
        #expect(section.lookup("arrivals")?.stringValue?.hasPrefix("exact") == true)
        // 0 queue, 0 wait, as the plain run.
        #expect(pooled.api.peakQueueDepth == 0 && pooled.api.waits.max == 0 && pooled.api.rejected == 0)
        #expect(section.lookup("pWait") == plain.report.lookup("backend.queue.overall.pWait"))
        #expect(section.lookup("meanWait") == plain.report.lookup("backend.queue.overall.meanWait"))
        // Where not 0, within 5 % of the plain run: the requests, the utilisation, the
        // busiest minute's workers, the headroom, each provider's peak concurrency.
        Self.close(Double(pooled.api.waits.count), Self.number(plain.report, "backend.queueing.count"), "served")
        Self.close(Self.number(section, "utilisation"), Self.number(plain.report, "backend.queue.overall.utilisation"), "utilisation")
        Self.close(Double(pooled.api.peakBusy), Double(plain.report.lookup("backend.load.apiBusyWorkersPeak")?.arrayValue?.compactMap(\.intValue).max() ?? -1), "busy peak")
        Self.close(Self.number(section, "headroom"), Self.number(plain.report, "backend.load.apiHeadroom"), "headroom")
        for provider in ["apns", "fcm"] {
            let peak = Self.number(plain.report, "backend.pushes.\(provider).peakConcurrent")
            #expect(peak > 0)
            Self.close(Self.number(section, "providers.\(provider).peakConcurrent"), peak, "\(provider) peak concurrent")
            Self.close(Self.number(section, "providers.\(provider).sends"), Self.number(plain.report, "backend.pushes.\(provider).sends"), "\(provider) sends")
        }
    }

    /// The plain run's own requests replayed at its own capacity give its figures exactly:
    /// the replay and the run share one queue discipline.
    @Test func aRunsRequestsReplayedAtItsCapacityGiveItsFigures() throws {
        let plain = try Self.run(try Self.capacity(workers: 1) { $0.backend.requestTimeout = .minutes(30) })
        #expect(Self.number(plain.report, "backend.queue.overall.pWait") > 0.02, "a queue worth checking")
        let section = PooledReport.section(Self.replay(plain.records, plain.header), .init(clientTimeouts: 0, longestWait: 0))
        for (mine, theirs) in [("queueing", "backend.queueing"), ("meanWait", "backend.queue.overall.meanWait"), ("pWait", "backend.queue.overall.pWait"),
                               ("utilisation", "backend.queue.overall.utilisation"), ("headroom", "backend.load.apiHeadroom"),
                               ("peakQueueDepth", "backend.peakQueueDepth"), ("rejected", "backend.rejected"),
                               ("providers.apns.peakConcurrent", "backend.pushes.apns.peakConcurrent")] {
            #expect(section.lookup(mine) == plain.report.lookup(theirs), "\(mine)")
        }
    }

    /// 1 worker and 2 queue places for the fleet (1 and 1 a shard), 2 push streams: the
    /// shards answer 503 and refuse sends, so the pooled figures are an open-loop
    /// estimate, with what the shards saw counted.
    @Test func aSaturatedShardsPooledFiguresAreAnOpenLoopEstimate() throws {
        let scenario = try Self.capacity(workers: 1) { s in
            s.backend.queueLimit = 2
            s.backend.push.concurrency = 2
            s.backend.push.queueLimit = 2
        }
        let shards = try (0..<4).map { try Self.run(scenario, shard: ShardPlan(index: $0, count: 4)) }
        let merged = try ReportMerge.merge(shards.enumerated().map { ("s\($0.offset)", $0.element.report) }, rules: World.mergeRules)
        let timeouts = Int64(merged.lookup("backend.clientTimeouts")?.intValue ?? 0)
        let pooled = Self.replay(shards.flatMap(\.records), shards[0].header)
        let section = PooledReport.section(pooled, .init(clientTimeouts: timeouts, longestWait: 1))
        #expect(section.lookup("arrivals")?.stringValue?.hasPrefix("open-loop estimate") == true)
        #expect(section.lookup("shardsSaw.rejected") == merged.lookup("backend.rejected"))
        #expect((merged.lookup("backend.rejected")?.intValue ?? 0) > 0)
        let refused = ["apns", "fcm"].reduce(0) { $0 + (merged.lookup("backend.pushes.\($1).rejectedByQueue")?.intValue ?? 0) }
        #expect(refused > 0 && section.lookup("shardsSaw.sendsRefused")?.intValue == refused)
        let retries = ["retryAfterFailure", "retryBackoff"].reduce(0) {
            $0 + (merged.lookup("backend.load.requestsByCause.\($1)")?.arrayValue?.compactMap(\.intValue).reduce(0, +) ?? 0)
        }
        // This fleet's app never retries (no step sync): the count is the retries' causes' 0.
        #expect(section.lookup("shardsSaw.retries")?.intValue == retries)
        // The refused requests borrow a served one's service time in the replay.
        #expect(pooled.api.borrowedService > 0)
        // Rendered, each pooled push figure reads as an open-loop estimate, beside the
        // shards' own instant peak, a bound, in the table and on merge's console line.
        guard case .object(var document) = merged, case .object(var backend)? = document["backend"] else { Issue.record("no backend"); return }
        backend["pooled"] = section
        document["backend"] = .object(backend)
        let report = ReportValue.object(document)
        let lines = MarkdownReport.render(report).split(separator: "\n")
        let peak = try #require(lines.first { $0.hasPrefix("| APNs push service: most streams open at once (instant) ") })
        let own = try #require(lines.first { $0.hasPrefix("| APNs push service: most streams open at once, the shards' own") })
        let refusedRow = try #require(lines.first { $0.hasPrefix("| APNs push service: sends / refused") })
        #expect(peak.hasSuffix(" open-loop estimate |") && refusedRow.hasSuffix(" open-loop estimate |"), "\(peak)\n\(refusedRow)")
        #expect(own.contains("(sharded: bound)") && own.hasSuffix(" bound (sharded) |"), "\(own)")
        let line = ReportSections.pooledLine(report)
        #expect(line.contains("; APNs push: most streams open at once ") && line.contains(", sharded: bound), ")
                && line.contains("; the pooled figures are an open-loop estimate ("), "\(line)")
    }

    /// The default scenario over its first 3 days (its backend outage on day 3) in 4 shards,
    /// with `workers` and `queueLimit`: its step sync retries after a failed request.
    static func pooledDefault(workers: Int, queueLimit: Int) throws -> (section: ReportValue, merged: ReportValue) {
        var scenario = try Fixtures.scenario("scenarios/default.json").scaled(by: 0.01)
        scenario.duration = .days(3)
        scenario.backend.workers = workers
        scenario.backend.queueLimit = queueLimit
        let shards = try (0..<4).map { try Self.run(scenario, shard: ShardPlan(index: $0, count: 4)) }
        let merged = try ReportMerge.merge(shards.enumerated().map { ("s\($0.offset)", $0.element.report) }, rules: World.mergeRules)
        let answers = PooledReport.ShardAnswers(clientTimeouts: Int64(merged.lookup("backend.clientTimeouts")?.intValue ?? 0),
                                                longestWait: Int64((Self.number(merged, "backend.queueing.max") * 1e6).rounded()))
        return (PooledReport.section(Self.replay(shards.flatMap(\.records), shards[0].header), answers), merged)
    }

    /// The default's outage makes client timeouts and retries in every shard, but no
    /// request of a shard waited for a worker: a backend of the whole capacity would have
    /// seen the same arrivals, and the pooled figures say exact.
    @Test func timeoutsOfAnOutageLeaveThePooledFiguresExact() throws {
        let (section, merged) = try Self.pooledDefault(workers: 96, queueLimit: 400)
        #expect((merged.lookup("backend.clientTimeouts")?.intValue ?? 0) > 0 && (merged.lookup("backend.unanswered")?.intValue ?? 0) > 0)
        #expect(Self.number(merged, "backend.queueing.max") == 0)
        let text = section.lookup("arrivals")?.stringValue ?? ""
        #expect(text.hasPrefix("exact") && text.contains("client timeouts came without any wait"), "\(text)")
        #expect(section.lookup("shardsSaw.clientTimeouts") == merged.lookup("backend.clientTimeouts"))
    }

    /// 1 worker and 1 queue place a shard: the shards answer 503, the step sync retries,
    /// and the pooled figures are an open-loop estimate that counts both.
    @Test func retriesAfterTheShards503sMakeThePooledFiguresAnEstimate() throws {
        let (section, merged) = try Self.pooledDefault(workers: 4, queueLimit: 4)
        let retries = section.lookup("shardsSaw.retries")?.intValue ?? 0
        let rejected = merged.lookup("backend.rejected")?.intValue ?? 0
        #expect(retries > 0 && rejected > 0, "retries \(retries), 503s \(rejected)")
        let text = section.lookup("arrivals")?.stringValue ?? ""
        #expect(text.hasPrefix("open-loop estimate") && text.contains("\(rejected) 503s") && text.contains("\(retries) retries"), "\(text)")
    }

    /// `whatif`: one run's requests (5 workers) replayed at 3, 4 and 5 workers against full
    /// runs at each: every figure within 5 % (or both 0) while nothing saturates.
    @Test func aWhatIfAtThreeWorkerCountsEqualsFullRuns() throws {
        func scenario(_ workers: Int) throws -> Scenario {
            try Self.capacity(workers: workers) { s in
                s.backend.serviceTime = .lognormal(median: 3e6, p99: 20e6)
                s.backend.requestTimeout = .minutes(30)
            }
        }
        let recorded = try Self.run(try scenario(5))
        var waited = false
        for workers in [3, 4, 5] {
            let full = workers == 5 ? recorded.report : try Self.run(try scenario(workers)).report
            #expect(full.lookup("backend.rejected")?.intValue == 0 && full.lookup("backend.clientTimeouts")?.intValue == 0, "nothing saturates")
            let section = PooledReport.section(Self.replay(recorded.records, recorded.header, workers: workers), .init(clientTimeouts: 0, longestWait: 0))
            for (mine, theirs) in [("queueing.p50", "backend.queueing.p50"), ("queueing.p95", "backend.queueing.p95"), ("queueing.p99", "backend.queueing.p99"),
                                   ("meanWait", "backend.queue.overall.meanWait"), ("pWait", "backend.queue.overall.pWait"),
                                   ("rejected", "backend.rejected"), ("headroom", "backend.load.apiHeadroom")] {
                Self.close(Self.number(section, mine), Self.number(full, theirs), "\(workers) workers: \(mine)")
            }
            if Self.number(full, "backend.queueing.p99") > 1 { waited = true }
        }
        #expect(waited, "a worker count at which the p99 wait is over a second")
    }
}
