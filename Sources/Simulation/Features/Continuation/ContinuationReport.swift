import Reports
import Scenario

/// The continuation's part of report.json (Features/Features.swift lists it).
extension ContinuationHost {
    /// Seed `004`: its section and the completed analysis's latency to its notification.
    func report(into parts: inout ReportParts) {
        parts.sections["continuation"] = section()
        parts.addLatency("continuationCompletedToNotified", metrics.completedToNotified)
    }


    /// Seed `004`'s analyses: how many started, what users chose at the alert, and how
    /// each ended; `inFlight`, those still running when the run stopped (their request,
    /// deadline or background time not over), so that the outcomes add up to `started`
    /// in every report, a shard's too.
    func section() -> ReportValue {
        let c = metrics
        var choices: [String: ReportValue] = [:]
        for (k, name) in ContinuationChoiceName.allCases.enumerated() { choices[name.rawValue] = .count(c.choices[k]) }
        let ended = c.shownHere + c.failedHere + c.cancelled + c.completedInBackground + c.failedInBackground
            + c.timedOut + c.backgroundTimeExpired + c.interruptedByTermination
        return [
            "started": .count(c.started),
            "offeredBackground": .count(c.offered),
            "choices": .object(choices),
            "outcomes": [
                "shownHere": .count(c.shownHere),
                "failedHere": .count(c.failedHere),
                "cancelled": .count(c.cancelled),
                "completedInBackground": .count(c.completedInBackground),
                "failedInBackground": .count(c.failedInBackground),
                "timedOut": .count(c.timedOut),
                "backgroundTimeExpired": .count(c.backgroundTimeExpired),
                "interruptedByTermination": .count(c.interruptedByTermination),
                "inFlight": .count(c.started >= ended ? c.started - ended : 0),
            ],
            "notified": .count(c.notified),
            "shownAtOpen": .count(c.shownAtOpen),
        ]
    }
}

/// The continuation's merge rules for `fleetsim merge` (Features/Features.swift lists
/// them): its counters add up.
extension ContinuationFeature {
    static let mergeRules: [(pattern: String, rule: ReportMerge.Rule)] = [("continuation.**", .sum)]
}

/// Its part of what a report of this build holds, for `fleetsim merge` and `compare`
/// (``CoreReportSchema`` has the rules; Features/Features.swift joins them).
extension ContinuationFeature {
    static let reportKeys = """
        continuation.started
        continuation.notified
        continuation.offeredBackground
        continuation.shownAtOpen
        continuation.choices.*
        continuation.outcomes.*
        """

    static let reportRelations: [ReportSchema.Relation] = [
        .init("continuation.notified", ["latency.continuationCompletedToNotified.count"]),
        .init("continuation.started", ["continuation.outcomes.*"]),
        .init("continuation.offeredBackground", ["continuation.choices.*"]),
    ]
}
