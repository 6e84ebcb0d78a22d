import SimKernel
import Reports
import AppLogic
import Scenario

/// The backend's load over time in `report.json` (`backend.load`), with the features'
/// own series (``ReportParts/load``). Every key is present in every report, the endpoints
/// of an opt-in feature no cohort runs aside (``ReportScope``).
extension RunReport {
    /// `backend.load`: per-minute series over the whole run, for capacity planning.
    /// Rates are per second (a bucket's count / `bucketSeconds`); counts (`requests`,
    /// `requestsByCause`, `apiRejected`, `apiUnanswered`) add up exactly to the `backend`
    /// totals; peaks are the largest seen in the bucket (`…UpperBound`: the same in one
    /// world, the sum of the shards' peaks in a merged report). Busy time
    /// (`apiBusyWorkerMicroseconds`) gives utilisation and headroom. `peak` is the busiest
    /// bucket (its start, mean rate, endpoints and causes, busy workers, utilisation and
    /// headroom), `peakSecond` the busiest single second and its causes, and `faults` the
    /// scenario's fault windows; `features`: the features' series, added as they are.
    /// `apiBusyByEndpoint` and `apiBusyByCause` split the busy time, for `peakByWork`
    /// (``CapacityFigures``, which also adds `peak.faults`).
    func loadSection(_ features: [String: ReportValue]) -> ReportValue {
        let l = load, scope = self.scope
        let seconds = load.bucket.seconds
        func rate(_ counts: [UInt32]) -> ReportValue { DerivedFigures.bucketRates(counts, bucketSeconds: seconds) }
        func counts<T: BinaryInteger>(_ counts: [T]) -> ReportValue { DerivedFigures.counts(counts) }
        func byEndpoint(_ f: ([UInt32]) -> ReportValue) -> ReportValue {
            var series: [String: ReportValue] = ["total": f(l.total)]
            for (e, name) in scope.endpoints { series[name] = f(l.requests[e]) }
            return .object(series)
        }
        let utilisation = apiUtilisationSeries()
        let busyPeak = l.apiBusyPeak.filled
        let peak = peakBucket()
        let second = arrivalsPerSecond()
        let mixes = core.metrics.arrivalsPerSecond.busiestSecondMixes()
        let secondMix = mixes.first ?? (0, [UInt32](repeating: 0, count: LoadCause.allCases.count), [UInt32](repeating: 0, count: LoadSeries.endpointNames.count))
        var members: [String: ReportValue] = [
            "bucketSeconds": .count(Int(seconds)),
            "requestsPerSecond": byEndpoint(rate),
            "requests": byEndpoint(counts),
            "requestsByZone": .object(Dictionary(core.timeZones.enumerated().map { ($1, counts(l.byZone[$0])) }) { a, b in a }),
            "requestsByCause": .object(Dictionary(uniqueKeysWithValues: LoadCause.allCases.map { ($0.name, counts(l.byCause[Int($0.rawValue)])) })),
            "apiRejectedPerSecond": rate(l.apiRejected),
            "apiRejected": counts(l.apiRejected),
            "apiUnansweredPerSecond": rate(l.apiUnanswered),
            "apiUnanswered": counts(l.apiUnanswered),
            "apiBusyWorkersPeak": counts(busyPeak),
            "apiBusyWorkersPeakUpperBound": counts(busyPeak),
            "apiBusyWorkerMicroseconds": counts(l.apiBusy),
            "apiBusyByEndpoint": .object(Dictionary(uniqueKeysWithValues: scope.endpoints.map { ($0.name, counts(l.apiBusyByEndpointOverTime[$0.row])) })),
            "apiBusyByCause": .object(Dictionary(uniqueKeysWithValues: LoadCause.allCases.map { ($0.name, counts(l.apiBusyByCause[Int($0.rawValue)])) })),
            "apiUtilisation": DerivedFigures.utilisation(busy: Int64(clamping: l.apiBusy.reduce(0, &+)), capacity: Int64(server.workers),
                                                         microseconds: scenario.duration.microseconds),
            "apiUtilisationOverTime": .numbers(utilisation, digits: 4),
            "apiHeadroom": DerivedFigures.leastHeadroom(utilisation: utilisation, refused: l.apiRejected.map(Int64.init)),
            "apiHeadroomOverTime": DerivedFigures.headroomSeries(utilisation: utilisation, refused: l.apiRejected.map(Int64.init)),
            "peaksAre": "exact",
            "peak": [
                "at": .seconds(Int64(peak.bucket) * load.bucket.microseconds),
                "requests": .count(peak.requests),
                "requestsPerSecond": DerivedFigures.bucketRate(Int64(peak.requests), bucketSeconds: seconds),
                "byEndpoint": scope.byEndpoint(l.requests.map { $0[peak.bucket] }),
                "byCause": Self.mix(LoadCause.names, l.byCause.map { $0[peak.bucket] }),
                "cause": Self.mainCause(l.byCause.map { $0[peak.bucket] }),
                "busyWorkers": .count(busyPeak[peak.bucket]),
                "busyWorkersUpperBound": .count(busyPeak[peak.bucket]),
                "utilisation": .fixed(utilisation[peak.bucket], 4),
                "headroom": DerivedFigures.headroom(utilisation: utilisation[peak.bucket], refused: l.apiRejected[peak.bucket] > 0),
            ],
            "peakSecond": [
                "at": .seconds(Int64(second.peakAt) * 1_000_000), "requests": .count(second.peak),
                "byEndpoint": scope.byEndpoint(secondMix.byEndpoint),
                "byCause": Self.mix(LoadCause.names, secondMix.byCause),
                "cause": Self.mainCause(secondMix.byCause),
                "mixOf": "second",
            ],
            "faults": faultWindows(),
        ]
        for (key, value) in features { members[key] = value }
        if core.metrics.arrivalsPerSecond.keepsSeconds {
            // A shard's busy seconds as `[second, arrivals, …]`, and its busiest seconds'
            // mixes: what merge adds up.
            let (seconds, arrivals) = core.metrics.arrivalsPerSecond.bySecond()
            members["arrivalsBySecond"] = .array(zip(seconds, arrivals).flatMap { [ReportValue.count($0), .count($1)] })
            members["peakSecondMixes"] = .array(mixes.map { m in
                ["at": .seconds(Int64(m.second) * 1_000_000), "byEndpoint": scope.byEndpoint(m.byEndpoint),
                 "byCause": Self.mix(LoadCause.names, m.byCause)]
            })
        }
        return .object(members)
    }

    /// Counts named in order, as an object (`{"appOpen": 412, …}`).
    static func mix(_ names: [String], _ counts: [UInt32]) -> ReportValue {
        .object(Dictionary(uniqueKeysWithValues: zip(names, counts.map { ReportValue.count($0) })))
    }

    static func mainCause(_ counts: [UInt32]) -> ReportValue {
        DerivedFigures.mainCause(Dictionary(uniqueKeysWithValues: zip(LoadCause.names, counts.map { Int64($0) })))
    }

    /// Each bucket's API utilisation: busy-worker time over the workers × the bucket.
    func apiUtilisationSeries() -> [Double] {
        DerivedFigures.utilisationSeries(busy: load.apiBusy.map { Int64(clamping: $0) }, capacity: Int64(server.workers),
                                         bucketSeconds: Int64(load.bucket.seconds), durationMicroseconds: scenario.duration.microseconds)
    }

    /// `backend.queue`: the API as a queueing system, per endpoint and overall: requests
    /// served, busy-worker time and utilisation, mean wait and P(wait > 0) (503s and
    /// requests still queued at the end are not served); the overall percentiles are
    /// `backend.queueing`'s, each endpoint's in its `wait`.
    func queueSection() -> ReportValue {
        let runMicroseconds = scenario.duration.microseconds
        func figures(_ waits: LatencyHistogram, busy: UInt64) -> [String: ReportValue] {
            ["served": .count(waits.count), "busyWorkerMicroseconds": .count(busy),
             "utilisation": DerivedFigures.utilisation(busy: Int64(clamping: busy), capacity: Int64(server.workers), microseconds: runMicroseconds),
             "meanWait": DerivedFigures.meanWait(waits), "pWait": DerivedFigures.pWait(waits)]
        }
        var byEndpoint: [String: ReportValue] = [:]
        for (e, name) in scope.endpoints {
            var f = figures(core.metrics.queueingByEndpoint[e], busy: load.apiBusyByEndpoint[e])
            f["wait"] = core.metrics.queueingByEndpoint[e].latencySummary()
            byEndpoint[name] = .object(f)
        }
        return ["overall": .object(figures(core.metrics.queueingLatency, busy: load.apiBusyByEndpoint.reduce(0, &+))),
                "byEndpoint": .object(byEndpoint)]
    }

    /// Arrivals per second over every second of the run: the busiest and the p99.
    func arrivalsPerSecond() -> (peak: UInt32, peakAt: Int, quantile: Double) {
        core.metrics.arrivalsPerSecond.summary(seconds: Int(scenario.duration.microseconds / 1_000_000), quantile: 0.99)
    }

    /// The busiest minute of the API (all endpoints): its index (the first of equals) and
    /// its requests. `backend.requestsPerSecond.peak` is its mean rate.
    func peakBucket() -> (bucket: Int, requests: UInt32) {
        let total = load.total
        var best = 0
        for b in total.indices where total[b] > total[best] { best = b }
        return (best, total[best])
    }

    /// `backend.load.faults`: each fault that starts within the run, as `{kind, start,
    /// end}` in seconds since the start. A fault without a `duration` lasts to the end
    /// of the run (`appTermination`, `clockSkew`, `timeZoneChange` are never undone),
    /// except the instant `authExpiry` (`end` = `start`).
    func faultWindows() -> ReportValue {
        let runEnd = scenario.duration.microseconds
        return .array(scenario.faults.filter { $0.at.microseconds < runEnd }.map { f in
            let start = f.at.microseconds
            let end: Int64
            if let duration = f.duration { end = min(start + duration.microseconds, runEnd) }
            else if case .authExpiry = f.kind { end = start }
            else { end = runEnd }
            return .object(["kind": .string(f.kind.name), "start": .seconds(start), "end": .seconds(end)])
        })
    }
}
