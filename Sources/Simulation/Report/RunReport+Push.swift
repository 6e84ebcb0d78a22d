import SimKernel
import Reports
import AppLogic
import Scenario

/// The push pipeline's part of `report.json` (seed `001`'s "Aggregated Push Metrics")
/// and the backend's load over time. Every key is present in every report; without
/// a `push` cohort the push figures are zeros and their series empty.
extension World {
    var pushMetrics: PushMetrics { push.active ? push.metrics : PushMetrics() }

    /// `latency.pushCreatedToDelivered.<priority>`: creation to the first arrival on a device.
    func pushLatencies() -> [(String, ReportValue)] {
        let m = pushMetrics
        return PushMetrics.priorityNames.enumerated().map { ("pushCreatedToDelivered.\($1)", m.createdToDelivered[$0].latencySummary()) }
    }

    /// `backend.pushes`: sends by provider and how the provider (or the push service's
    /// own queue) answered.
    func pushesByProvider() -> ReportValue {
        let m = pushMetrics
        var section: [String: ReportValue] = [:]
        for (p, name) in ["apns", "fcm"].enumerated() {
            var byStatus: [String: ReportValue] = [:]
            for (k, status) in PushMetrics.statuses.enumerated() { byStatus["\(status)"] = .count(m.byStatus[p][k]) }
            let dispatcher = push.active ? push.dispatchers[p] : PushDispatcher()
            let concurrency = push.active ? push.concurrency : 0
            section[name] = [
                "sends": .count(m.sends[p]),
                "accepted": .count(m.accepted[p]),
                "rejectedByStatus": .object(byStatus),
                "timedOut": .count(m.unanswered[p]),
                "rejectedByQueue": .count(m.rejectedByQueue[p]),
                "peakQueueDepth": .count(dispatcher.peakQueue),
                "peakConcurrent": .count(dispatcher.peakStreaming),
                "concurrency": .count(concurrency),
                // 1 - peak use of the configured streams: 0 means the queue was in use.
                "headroom": DerivedFigures.headroom(busy: Int64(dispatcher.peakStreaming), capacity: Int64(concurrency)),
                "latency": m.providerLatency[p].latencySummary(),
            ]
        }
        return .object(section)
    }

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
            "pushesPerSecond": pushSeries(l.pushSends, rate),
            "pushRejectedPerSecond": pushSeries(l.pushRejected, rate),
            "pushQueueDepthPeak": pushSeries(l.pushQueuePeak, counts),
            "pushConcurrentPeak": pushSeries(l.pushStreamingPeak, counts),
            "pushes": pushSeries(l.pushSends, counts),
            "pushRejected": pushSeries(l.pushRejected, counts),
        ]
        if metrics.arrivalsPerSecond.keepsSeconds, case .object(var members) = section {
            // A shard's busy seconds as `[second, arrivals, …]`: what merge adds up.
            let (seconds, arrivals) = metrics.arrivalsPerSecond.bySecond()
            members["arrivalsBySecond"] = .array(zip(seconds, arrivals).flatMap { [ReportValue.count($0), .count($1)] })
            section = .object(members)
        }
        return section
    }

    /// Arrivals per second over every second of the run: the busiest and the p99.
    func arrivalsPerSecond() -> (peak: UInt32, peakAt: Int, quantile: Double) {
        metrics.arrivalsPerSecond.summary(seconds: Int(scenario.duration.microseconds / 1_000_000), quantile: 0.99)
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

    /// `push`: seed `001`'s aggregated metrics and the accounting of every notification.
    func pushSection() -> ReportValue {
        let m = pushMetrics
        func named(_ names: [String], _ counts: [UInt64]) -> ReportValue {
            .object(Dictionary(uniqueKeysWithValues: zip(names, counts.map { ReportValue.count($0) })))
        }
        func rate(_ a: UInt64, _ b: UInt64) -> ReportValue { DerivedFigures.ratio(Int64(a), Int64(b)) }
        let created = m.createdBySource.reduce(0, +)
        var outcomes: [String: ReportValue] = [:]
        for outcome in PushOutcome.allCases where outcome != .pending {
            outcomes["\(outcome)"] = .count(m.outcomes[Int(outcome.rawValue)])
        }
        outcomes["inFlight"] = .count(m.inFlightAtEnd)
        outcomes["lost"] = .count(m.lost)
        let accounted = m.outcomes.reduce(0, +) + m.inFlightAtEnd + m.lost
        let sends = m.sends.reduce(0, +)
        let delivered = m.outcomes[Int(PushOutcome.delivered.rawValue)]
        let sent = created - m.outcomes[Int(PushOutcome.suppressed.rawValue)]
        let failures = m.failuresByReason.reduce(0, +)
        let activeTokens = UInt64(push.truth.filter { $0.registryStatus == .active }.count)
        let displayed = m.shown + m.shownQuietly
        return [
            "users": .count(push.users.count),
            "created": [
                "total": .count(created),
                "bySource": named(PushMetrics.sourceNames, m.createdBySource),
                "byPriority": named(PushMetrics.priorityNames, m.createdByPriority),
            ],
            // Every created notification is in exactly one of these (`accounted` = `created.total`).
            "outcomes": .object(outcomes),
            "accounted": .count(accounted),
            "suppressedByReason": named(PushMetrics.suppressionNames, m.suppressedByReason),
            "heldForQuietHours": .count(m.held),
            "summaries": .count(m.summaries),
            "sends": .count(sends),
            "retries": .count(m.retries),
            "failuresByReason": named(PushMetrics.failureNames, m.failuresByReason),
            "emailFallbacks": named(["allDevicesFailed", "highPriorityDelayed"], m.emailFallbacks),
            // Seed `001`: delivered / sent (notifications given a push), failed sends / sends.
            "deliveryRate": rate(delivered, sent),
            "failureRate": rate(failures, sends),
            "tokens": [
                "registrations": .count(m.registrations),
                "rotations": .count(m.rotations),
                "uninstalls": .count(m.uninstalls),
                "reinstalls": .count(m.reinstalls),
                "marked": named(PushMetrics.tokenNames, m.tokens),
                "purged": .count(m.purged),
                "purgeNoticeEmails": .count(m.purgeNotices),
                "activeAtEnd": .count(activeTokens),
                // Seed `001`: expired tokens / active tokens, per week (target < 1 %).
                "expirationRatePerWeek": DerivedFigures.expirationRatePerWeek(
                    expired: Int64(m.tokens[PushMetrics.index(PushTokenStatus.expired)]), active: Int64(activeTokens),
                    durationSeconds: scenario.duration.seconds),
            ],
            "display": [
                "shown": .count(m.shown),
                "shownQuietly": .count(m.shownQuietly),
                "notShownWithoutPermission": .count(m.notShownWithoutPermission),
                "replacedByCollapseId": .count(m.collapsedInPlace),
                "silent": named(PushMetrics.silentNames, m.silent),
            ],
            "opened": .count(m.opened),
            "dismissed": .count(m.dismissed),
            "openRate": rate(m.opened, displayed),
            "timeToOpen": m.timeToOpen.latencySummary(),
            "providerLatencyP95": [
                "apns": .seconds(m.providerLatency[0].percentile(95)),
                "fcm": .seconds(m.providerLatency[1].percentile(95)),
            ],
        ]
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
