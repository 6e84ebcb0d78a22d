import SimKernel
import Reports
import AppLogic
import Scenario

/// The backend's load over time in `report.json` (`backend.load`). Every key is present
/// in every report; without a `push` cohort the push series are empty.
extension World {
    /// `backend.load`: per-minute series over the whole run, for capacity planning.
    /// Rates are per second (a bucket's count / `bucketSeconds`); counts (`requests`,
    /// `apiRejected`, `apiUnanswered`) add up exactly to the `backend` totals; peaks are
    /// the largest seen in the bucket. `peak` is the busiest bucket (its start, mean rate,
    /// busy workers and headroom), `peakSecond` the busiest single second, and `faults`
    /// the scenario's fault windows.
    func loadSection() -> ReportValue {
        let l = load
        let seconds = LoadSeries.bucket.seconds
        func rate(_ counts: [UInt32]) -> ReportValue { .array(counts.map { DerivedFigures.bucketRate(Int64($0), bucketSeconds: seconds) }) }
        func counts(_ counts: [UInt32]) -> ReportValue { .array(counts.map { .count($0) }) }
        func byEndpoint(_ f: ([UInt32]) -> ReportValue) -> ReportValue {
            var series: [String: ReportValue] = ["total": f(l.total)]
            for (e, name) in LoadSeries.endpointNames.enumerated() { series[name] = f(l.requests[e]) }
            return .object(series)
        }
        let hasPush = push.active
        let p = push.load
        func pushSeries(_ series: [[UInt32]], _ f: ([UInt32]) -> ReportValue) -> ReportValue {
            hasPush ? ["apns": f(series[0]), "fcm": f(series[1])] : .object([:])
        }
        func headroom(_ busy: UInt32) -> ReportValue { DerivedFigures.headroom(busy: Int64(busy), capacity: Int64(server.workers)) }
        let apiPeak = l.apiBusyPeak.max() ?? 0
        let peak = peakBucket()
        let second = arrivalsPerSecond()
        var section: ReportValue = [
            "bucketSeconds": .count(Int(seconds)),
            "requestsPerSecond": byEndpoint(rate),
            "requests": byEndpoint(counts),
            "apiRejectedPerSecond": rate(l.apiRejected),
            "apiRejected": counts(l.apiRejected),
            "apiUnansweredPerSecond": rate(l.apiUnanswered),
            "apiUnanswered": counts(l.apiUnanswered),
            "apiBusyWorkersPeak": counts(l.apiBusyPeak),
            "apiHeadroom": headroom(apiPeak),
            "apiHeadroomOverTime": .array(l.apiBusyPeak.map(headroom)),
            "peak": [
                "at": .seconds(Int64(peak.bucket) * LoadSeries.bucket.microseconds),
                "requests": .count(peak.requests),
                "requestsPerSecond": DerivedFigures.bucketRate(Int64(peak.requests), bucketSeconds: seconds),
                "busyWorkers": .count(l.apiBusyPeak[peak.bucket]),
                "headroom": headroom(l.apiBusyPeak[peak.bucket]),
            ],
            "peakSecond": ["at": .seconds(Int64(second.peakAt) * 1_000_000), "requests": .count(second.peak)],
            "faults": faultWindows(),
            "pushesPerSecond": pushSeries(p.sends, rate),
            "pushRejectedPerSecond": pushSeries(p.rejected, rate),
            "pushQueueDepthPeak": pushSeries(p.queuePeak, counts),
            "pushConcurrentPeak": pushSeries(p.streamingPeak, counts),
            "pushes": pushSeries(p.sends, counts),
            "pushRejected": pushSeries(p.rejected, counts),
        ]
        if core.metrics.arrivalsPerSecond.keepsSeconds, case .object(var members) = section {
            // A shard's busy seconds as `[second, arrivals, …]`: what merge adds up.
            let (seconds, arrivals) = core.metrics.arrivalsPerSecond.bySecond()
            members["arrivalsBySecond"] = .array(zip(seconds, arrivals).flatMap { [ReportValue.count($0), .count($1)] })
            section = .object(members)
        }
        return section
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

extension Fault.Kind {
    /// The kind as a scenario file spells it (`"backendOutage"`).
    var name: String {
        switch self {
        case .backendOutage: return "backendOutage"
        case .backendSlowdown: return "backendSlowdown"
        case .networkOutage: return "networkOutage"
        case .networkLatency: return "networkLatency"
        case .pushProviderErrors: return "pushProviderErrors"
        case .pushProviderOutage: return "pushProviderOutage"
        case .clockSkew: return "clockSkew"
        case .timeZoneChange: return "timeZoneChange"
        case .appTermination: return "appTermination"
        case .authExpiry: return "authExpiry"
        case .lowPowerMode: return "lowPowerMode"
        }
    }
}
