import Foundation
import Reports
import Simulation

/// `fleetsim whatif`: a run's (or a merge's) recorded requests (`requests.bin`) replayed
/// at other worker counts and push concurrencies (``PooledReplay``), in seconds, without
/// simulating the phones again (docs/scale.md, "What-if without rerunning the phones").
struct Whatif: Command {
    static let help = CommandHelp(
        name: "whatif",
        abstract: "replay a run's recorded requests at other worker counts and push concurrencies",
        arguments: [.init(name: "DIR", text: "the reports of a run with --record-requests, of a shard, or of a merge (its requests.bin)")],
        options: [.valued("workers", "LIST", "API worker counts to replay, comma-separated (e.g. 4,6,8)", default: "the run's"),
                  .valued("push-concurrency", "LIST", "each provider's concurrent sends to replay, comma-separated", default: "the run's"),
                  .valued("queue-limit", "N", "the API's queue places", default: "the run's"),
                  .valued("push-queue-limit", "N", "the push service's queue places per provider", default: "the run's")],
        discussion: """
        Each request keeps its recorded arrival and service time (a push send its
        stream's hold); the replay queues them first come first served through the
        capacity asked for, as a run does, and prints per capacity the API's wait
        p50/p95/p99 and mean, P(wait), 503s, peak queue and headroom, and each push
        provider's peak concurrency, refused sends and headroom. The figures equal a
        full run at that capacity while the arrivals do not depend on the answers: a
        run that saw 503s, client timeouts or refused sends (whose retries are among
        its arrivals), or a row that refuses requests itself, is an open-loop
        estimate, and the output says so. The shard of a sharded run answers for its
        own devices; merge the shards first for the fleet.
        """,
        examples: ["fleetsim run scenarios/capacity.json --scale 0.01 --record-requests --out reports/cap",
                   "fleetsim whatif reports/cap --workers 4,6,8 --push-concurrency 200,500"]
    )

    var directory: String
    var workers: [Int]?
    var pushConcurrency: [Int]?
    var queueLimit: Int?
    var pushQueueLimit: Int?

    init(_ parsed: ParsedArguments) throws(CLIError) {
        try parsed.noExtraPositionals(after: 1)
        directory = try parsed.positional(0, "DIR (the reports of a run with --record-requests)")
        workers = try Self.list(parsed, "workers")
        pushConcurrency = try Self.list(parsed, "push-concurrency")
        queueLimit = try parsed.int("queue-limit")
        pushQueueLimit = try parsed.int("push-queue-limit")
        for (name, value) in [("queue-limit", queueLimit), ("push-queue-limit", pushQueueLimit)] {
            if let value, value < 0 { throw .usage("--\(name) must be 0 or more, found \(value)", command: "whatif") }
        }
    }

    /// A comma-separated list of positive integers, or nil when not given.
    static func list(_ parsed: ParsedArguments, _ name: String) throws(CLIError) -> [Int]? {
        guard let text = parsed.options[name] else { return nil }
        var values: [Int] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let n = Int(item.trimmingCharacters(in: .whitespaces)), n >= 1, n <= 1_000_000 else {
                throw .usage("--\(name) expects comma-separated counts from 1 to 1000000 (e.g. 4,6,8), found '\(text)'", command: "whatif")
            }
            values.append(n)
        }
        return values
    }

    var logPath: String { directory.hasSuffix(".bin") ? directory : directory + "/" + RequestLog.fileName }

    mutating func validate() throws(CLIError) {
        guard RequestLogFiles.exists(logPath) else {
            throw .input("\(logPath): no such file; record one with 'run --record-requests' (a shard and a merge of shards write it too)")
        }
    }

    func run(_ context: Context) throws(CLIError) -> Int32 {
        let (header, unsorted) = try RequestLogFiles.read(logPath)
        let records = RequestLog.sortedForReplay(unsorted)
        let report = OutputDirectory.parent(of: logPath) + "/report.json"
        let timeouts = (try? Merge.readReport(report))?.lookup("backend.clientTimeouts")?.intValue
        let rows = Self.replays(records, header: header, workers: workers ?? [header.workers], pushConcurrency: pushConcurrency ?? [header.streams],
                                queueLimit: queueLimit ?? header.queueLimit, pushQueueLimit: pushQueueLimit ?? header.streamQueueLimit)
        print(Self.text(rows, header: header, path: logPath, clientTimeouts: timeouts.map { Int64($0) }), terminator: "")
        return 0
    }

    /// One replay per worker count (API) and per push concurrency (the providers): the pools are
    /// independent, so each list is replayed on its own.
    static func replays(_ records: [RecordedRequest], header: RequestLog.Header, workers: [Int], pushConcurrency: [Int],
                        queueLimit: Int, pushQueueLimit: Int) -> (api: [PooledReplay.Outcome], providers: [PooledReplay.Outcome]) {
        let api = records.filter { !$0.isSend }, sends = records.filter(\.isSend)
        @Sendable func replay(_ r: [RecordedRequest], _ w: Int, _ c: Int) -> PooledReplay.Outcome {
            PooledReplay.replay(r, capacity: .init(workers: w, queueLimit: queueLimit, streams: c, streamQueueLimit: pushQueueLimit),
                                durationMicroseconds: header.durationMicroseconds)
        }
        return (Parallel.map(workers.count) { replay(api, workers[$0], header.streams) },
                sends.isEmpty ? [] : Parallel.map(pushConcurrency.count) { replay(sends, header.workers, pushConcurrency[$0]) })
    }

    static func text(_ rows: (api: [PooledReplay.Outcome], providers: [PooledReplay.Outcome]), header: RequestLog.Header, path: String,
                     clientTimeouts: Int64?) -> String {
        guard let first = rows.api.first else { return "" }
        func time(_ us: Int64?) -> String { us.map { HumanUnits.duration(seconds: Double($0) / 1e6) } ?? "-" }
        func percent(_ v: ReportValue) -> String { MetricText.format(v.doubleValue, path: "x.pWait") }
        let pushSends = rows.providers.first.map { $0.providers[0].arrivals + $0.providers[1].arrivals } ?? 0
        var out = "What-if of \(path): \(HumanUnits.count(Int64(first.api.arrivals))) API requests and \(HumanUnits.count(Int64(pushSends))) push sends "
            + "over \(HumanUnits.duration(microseconds: header.durationMicroseconds)), recorded against \(RequestLogFiles.describe(header)).\n\n"
        let apiRows = rows.api.map { o -> [String] in
            let pool = o.api
            return [HumanUnits.count(Int64(pool.capacity)), HumanUnits.count(Int64(pool.waits.count)), time(pool.waits.percentile(50)), time(pool.waits.percentile(95)),
                    time(pool.waits.percentile(99)), time(pool.waits.mean.map { Int64($0.rounded()) }), percent(DerivedFigures.pWait(pool.waits)),
                    HumanUnits.count(Int64(pool.rejected)), HumanUnits.count(Int64(pool.peakQueueDepth)), HumanUnits.count(Int64(pool.peakBusy)),
                    percent(.fixed(PooledReport.headroom(pool, o), 4))]
        }
        out += MarkdownTable.render(header: ["workers", "served", "wait p50", "wait p95", "wait p99", "mean wait", "P(wait)", "503s", "peak queue", "peak busy", "headroom"],
                                    rows: apiRows, alignments: Array(repeating: .right, count: 11))
        if !rows.providers.isEmpty {
            out += "\n"
            var providerRows: [[String]] = []
            for o in rows.providers {
                for (p, name) in ["APNs", "FCM"].enumerated() where o.providers[p].arrivals > 0 {
                    let pool = o.providers[p]
                    providerRows.append([HumanUnits.count(Int64(pool.capacity)), name, HumanUnits.count(Int64(pool.arrivals)), time(pool.waits.percentile(99)),
                                     HumanUnits.count(Int64(pool.peakBusy)), HumanUnits.count(Int64(pool.peakQueueDepth)), HumanUnits.count(Int64(pool.rejected)),
                                     percent(.fixed(PooledReport.headroom(pool, o), 4))])
                }
            }
            out += MarkdownTable.render(header: ["push streams", "provider", "sends", "wait p99", "peak concurrent", "peak queue", "refused", "headroom"],
                                        rows: providerRows, alignments: Array(repeating: .right, count: 8))
        }
        let borrowed = first.api.borrowedService
        out += "\nValid while the arrivals do not depend on the answers. The recording saw \(HumanUnits.count(Int64(first.recordedRejected))) 503s, "
            + (clientTimeouts.map { "\(HumanUnits.count($0)) client timeouts" } ?? "an unknown number of client timeouts (no report.json beside it)")
            + ", \(HumanUnits.count(Int64(first.recordedSendsRefused))) refused push sends and \(HumanUnits.count(Int64(first.recordedRetries))) retries"
        let dependent = first.recordedRejected > 0 || first.recordedSendsRefused > 0 || (clientTimeouts ?? 1) > 0
        out += dependent ? ": its arrivals depended on its answers, so every row is an open-loop estimate"
            + (borrowed > 0 ? " (\(HumanUnits.count(Int64(borrowed))) refused requests borrow a served request's service time)" : "") + ".\n"
            : ": its arrivals did not depend on its answers.\n"
        let saturated = rows.api.filter { $0.api.rejected > 0 }.map { HumanUnits.count(Int64($0.api.capacity)) }
            + rows.providers.filter { $0.providers[0].rejected + $0.providers[1].rejected > 0 }.map { "\(HumanUnits.count(Int64($0.capacity.streams))) streams" }
        if !saturated.isEmpty {
            out += "Saturated at \(saturated.joined(separator: ", ")): a run there would see refusals and their retries, which this replay does not send.\n"
        }
        return out
    }
}
