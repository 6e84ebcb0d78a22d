import SimKernel
import Reports
import AppLogic

/// The push pipeline's part of `report.json` (seed `001`'s "Aggregated Push Metrics").
/// Every key is present in every report; without a `push` cohort the figures are zeros.
extension PushHost {
    var reportedMetrics: PushMetrics { active ? metrics : PushMetrics(duration: .zero) }

    /// Its section (`push`), its latencies, the providers' figures (`backend.pushes`) and
    /// its per-minute series (`backend.load`) over a run of `duration`.
    func report(into parts: inout ReportParts, duration: SimDuration) {
        parts.sections["push"] = section(duration: duration)
        // `latency.pushCreatedToDelivered.<priority>`: creation to the first arrival on a device.
        let m = reportedMetrics
        for (p, name) in PushMetrics.priorityNames.enumerated() { parts.addLatency("pushCreatedToDelivered.\(name)", m.createdToDelivered[p]) }
        parts.backend["pushes"] = byProvider(duration: duration)
        for (name, value) in load.reportSeries(active: active) { parts.load[name] = value }
    }

    /// `backend.pushes`: sends by provider and how the provider (or the push service's
    /// own queue) answered; the streams' peak, utilisation (open-stream time over the
    /// concurrency × the run) and headroom (1 − the busiest minute's utilisation).
    func byProvider(duration: SimDuration) -> ReportValue {
        let m = reportedMetrics
        var section: [String: ReportValue] = [:]
        for (p, name) in ["apns", "fcm"].enumerated() {
            var byStatus: [String: ReportValue] = [:]
            for (k, status) in PushMetrics.statuses.enumerated() { byStatus["\(status)"] = .count(m.byStatus[p][k]) }
            let dispatcher = active ? dispatchers[p] : PushDispatcher()
            let capacity = active ? concurrency : 0
            let busy = active ? load.streamBusy[p].map { Int64(clamping: $0) } : []
            let utilisation = DerivedFigures.utilisationSeries(busy: busy, capacity: Int64(capacity), bucketSeconds: Int64(load.bucket.seconds),
                                                               durationMicroseconds: duration.microseconds)
            section[name] = [
                "sends": .count(m.sends[p]),
                "accepted": .count(m.accepted[p]),
                "rejectedByStatus": .object(byStatus),
                "timedOut": .count(m.unanswered[p]),
                "rejectedByQueue": .count(m.rejectedByQueue[p]),
                "peakQueueDepth": .count(dispatcher.peakQueue),
                "peakConcurrent": .count(dispatcher.peakStreaming),
                "peakConcurrentUpperBound": .count(dispatcher.peakStreaming),
                "concurrency": .count(capacity),
                "utilisation": DerivedFigures.utilisation(busy: Int64(clamping: busy.reduce(0, +)), capacity: Int64(capacity),
                                                          microseconds: duration.microseconds),
                "headroom": DerivedFigures.headroom(utilisation: utilisation.max() ?? 0, refused: m.rejectedByQueue[p] > 0),
                // The push service's own queue was full: a send was refused.
                "saturated": .bool(m.rejectedByQueue[p] > 0),
                "latency": m.providerLatency[p].latencySummary(),
            ]
        }
        return .object(section)
    }

    /// `push`: seed `001`'s aggregated metrics and the accounting of every notification.
    func section(duration: SimDuration) -> ReportValue {
        let m = reportedMetrics
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
        let activeTokens = UInt64(truth.filter { $0.registryStatus == .active }.count)
        let displayed = m.shown + m.shownQuietly
        return [
            "users": .count(users.count),
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
                    durationSeconds: duration.seconds),
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

/// The push pipeline's merge rules for `fleetsim merge` (Features/Features.swift lists
/// them): latencies by histogram, the streams' and the queue's peaks as maxima, rates,
/// utilisation and headroom derived again from the merged counts and series, and its
/// counters summed.
extension PushFeature {
    static let mergeRules: [(pattern: String, rule: ReportMerge.Rule)] = [
        ("backend.pushes.*.latency", .latency),
        ("backend.load.pushConcurrentPeak.*", .seriesMax), ("backend.load.pushQueueDepthPeak.*", .seriesMax),
        ("backend.load.pushesPerSecond.*", .derived(.bucketRates(counts: "backend.load.pushes"))),
        ("backend.load.pushRejectedPerSecond.*", .derived(.bucketRates(counts: "backend.load.pushRejected"))),
        ("backend.pushes.*.peakConcurrent", .max), ("backend.pushes.*.peakQueueDepth", .max),
        ("backend.pushes.apns.headroom", .derived(.headroom(busy: "backend.load.pushStreamMicroseconds.apns", capacity: "backend.pushes.apns.concurrency",
                                                                refused: "backend.pushes.apns.rejectedByQueue"))),
        ("backend.pushes.fcm.headroom", .derived(.headroom(busy: "backend.load.pushStreamMicroseconds.fcm", capacity: "backend.pushes.fcm.concurrency",
                                                               refused: "backend.pushes.fcm.rejectedByQueue"))),
        ("backend.pushes.apns.utilisation", .derived(.utilisation(busy: "backend.load.pushStreamMicroseconds.apns", capacity: "backend.pushes.apns.concurrency"))),
        ("backend.pushes.fcm.utilisation", .derived(.utilisation(busy: "backend.load.pushStreamMicroseconds.fcm", capacity: "backend.pushes.fcm.concurrency"))),
        ("backend.pushes.*.saturated", .derived(.saturated(rejected: "backend.pushes.*.rejectedByQueue"))),
        ("push.providerLatencyP95.apns", .derived(.copy("backend.pushes.apns.latency.p95"))),
        ("push.providerLatencyP95.fcm", .derived(.copy("backend.pushes.fcm.latency.p95"))),
        ("push.timeToOpen", .latency),
        // Seed `001`: delivered / sent (notifications given a push), failed sends / sends,
        // opened / displayed, expired tokens / active tokens per week.
        ("push.deliveryRate", .derived(.ratio(of: ["push.outcomes.delivered"], over: ["push.created.total"], less: ["push.outcomes.suppressed"]))),
        ("push.failureRate", .derived(.ratio(of: ["push.failuresByReason"], over: ["push.sends"]))),
        ("push.openRate", .derived(.ratio(of: ["push.opened"], over: ["push.display.shown", "push.display.shownQuietly"]))),
        ("push.tokens.expirationRatePerWeek", .derived(.expirationRatePerWeek(expired: "push.tokens.marked.expired", active: "push.tokens.activeAtEnd"))),
        ("push.**", .sum),
    ]
}

/// Its part of what a report of this build holds, for `fleetsim merge` and `compare`
/// (``CoreReportSchema`` has the rules; Features/Features.swift joins them).
extension PushFeature {
    static let reportKeys = """
        backend.pushes.*.accepted
        backend.pushes.*.concurrency
        backend.pushes.*.headroom
        backend.pushes.*.latency
        backend.pushes.*.peakConcurrent
        backend.pushes.*.peakConcurrentUpperBound
        backend.pushes.*.peakQueueDepth
        backend.pushes.*.rejectedByQueue
        backend.pushes.*.rejectedByStatus.*
        backend.pushes.*.saturated
        backend.pushes.*.sends
        backend.pushes.*.timedOut
        backend.pushes.*.utilisation
        backend.load.pushes.*
        backend.load.pushesPerSecond.*
        backend.load.pushRejected.*
        backend.load.pushRejectedPerSecond.*
        backend.load.pushQueueDepthPeak.*
        backend.load.pushConcurrentPeak.*
        backend.load.pushConcurrentPeakUpperBound.*
        backend.load.pushStreamMicroseconds.*
        push.users
        push.sends
        push.retries
        push.summaries
        push.accounted
        push.opened
        push.dismissed
        push.heldForQuietHours
        push.deliveryRate
        push.failureRate
        push.openRate
        push.timeToOpen
        push.created.total
        push.created.byPriority.*
        push.created.bySource.*
        push.outcomes.*
        push.suppressedByReason.*
        push.failuresByReason.*
        push.display.*
        push.display.silent.*
        push.emailFallbacks.*
        push.providerLatencyP95.*
        push.tokens.*
        push.tokens.marked.*
        """

    static let reportRelations: [ReportSchema.Relation] = [
        .init("backend.pushes.*.sends", ["backend.load.pushes.*"]),
        .init("push.created.total", ["push.created.byPriority.*"]),
        .init("push.created.total", ["push.created.bySource.*"]),
        .init("push.accounted", ["push.outcomes.*"]),
        .init("push.created.total", ["push.accounted"]),
        .init("push.sends", ["backend.pushes.*.sends"]),
        .init("push.timeToOpen.count", ["push.opened"]),
        .init("push.outcomes.suppressed", ["push.suppressedByReason.*"]),
    ]

    static let reportBounds: [ReportSchema.Bound] = [
        .busyTime("backend.load.pushStreamMicroseconds.*", workers: "backend.pushes.*.concurrency"),
        .atMost("backend.load.pushConcurrentPeak.*", limit: "backend.pushes.*.concurrency"),
        .atMost("backend.pushes.*.peakConcurrent", limit: "backend.pushes.*.concurrency"),
    ]
}

extension PushLoad {
    /// `backend.load`'s push series, per provider (`{apns, fcm}`; empty without a `push`
    /// cohort): sends and refused sends (per bucket and per second), the queue's and the
    /// streams' peaks and the streams' busy time. Not generic over the logic set, so
    /// that it is compiled once, here (docs/harness.md, "Your runner's speed").
    func reportSeries(active: Bool) -> [String: ReportValue] {
        let seconds = bucket.seconds
        func rate(_ counts: [UInt32]) -> ReportValue { DerivedFigures.bucketRates(counts, bucketSeconds: seconds) }
        func counts<T: BinaryInteger>(_ counts: [T]) -> ReportValue { DerivedFigures.counts(counts) }
        func series<T>(_ series: [[T]], _ f: ([T]) -> ReportValue) -> ReportValue {
            active ? ["apns": f(series[0]), "fcm": f(series[1])] : .object([:])
        }
        return [
            "pushesPerSecond": series(sends, rate),
            "pushRejectedPerSecond": series(rejected, rate),
            "pushQueueDepthPeak": series(queuePeak, counts),
            "pushConcurrentPeak": series(streamingPeak.map(\.filled), counts),
            "pushConcurrentPeakUpperBound": series(streamingPeak.map(\.filled), counts),
            "pushStreamMicroseconds": series(streamBusy, counts),
            "pushes": series(sends, counts),
            "pushRejected": series(rejected, counts),
        ]
    }
}
