import Reports

/// The push pipeline's section of report.md and report.html (docs/architecture.md, "A
/// feature's report"): its notifications, sends and providers, what holds its latencies'
/// tails, and a notification as the unit of its latencies' samples.
extension PushFeature {
    static let reportSection = FeatureSection(id: "push", tocLabel: "Push", sampleUnit: "push", tailMechanisms: tailMechanisms, build: section)

    @Sendable static func section(_ r: ReportValue) -> ReportSection {
        guard r.lookup("push") != nil else { return ReportSection(id: "push", title: "Push notifications", blocks: [.paragraph("No push data in this report.")]) }
        var blocks: [ReportSection.Block] = []
        let summary = [["notifications created", ReportSections.count(r, "push.created.total")], ["sends", ReportSections.count(r, "push.sends")],
                       ["retries", ReportSections.count(r, "push.retries")], ["delivery rate", MetricText.lookup(r, "push.deliveryRate")],
                       ["failure rate", MetricText.lookup(r, "push.failureRate")], ["open rate", MetricText.lookup(r, "push.openRate")],
                       ["held for quiet hours", ReportSections.count(r, "push.heldForQuietHours")], ["time to open, p50", ReportSections.latencyFigures(r, "push.timeToOpen", "p50")]]
        blocks.append(.table(header: ["", "value"], rows: summary))
        for (title, path, noun) in [("outcome", "push.outcomes", "notifications"), ("suppressed because", "push.suppressedByReason", "notifications"),
                                    ("failed because", "push.failuresByReason", "notifications"), ("created by priority", "push.created.byPriority", "notifications"),
                                    ("tokens marked", "push.tokens.marked", "tokens")] {
            let rows = ReportSections.members(r, path)
            if !rows.isEmpty { blocks.append(.table(header: [title, noun], rows: rows.map { [$0.key, $0.value] })) }
        }
        let providers = (r.lookup("backend.pushes")?.objectValue ?? [:]).keys.sorted()
        if !providers.isEmpty {
            blocks.append(.table(header: ["provider", "sends", "accepted", "timed out", "latency n", "p50", "p95", "p99", "max",
                                          "most streams open at once (instant)", "headroom (1 − the most used minute's mean)"],
                                 rows: providers.map { p in
                                     let b = "backend.pushes.\(p)"
                                     return [ReportSections.providerName(p), ReportSections.count(r, "\(b).sends"), ReportSections.count(r, "\(b).accepted"), ReportSections.count(r, "\(b).timedOut"), ReportSections.count(r, "\(b).latency.count"),
                                             MetricText.lookup(r, "\(b).latency.p50"), MetricText.lookup(r, "\(b).latency.p95"),
                                             MetricText.lookup(r, "\(b).latency.p99"), MetricText.lookup(r, "\(b).latency.max"),
                                             ReportSections.bound(r, ReportSections.count(r, "\(b).peakConcurrent"), ReportSections.count(r, "\(b).peakConcurrentUpperBound")),
                                            MetricText.lookup(r, "\(b).headroom")]
                                 }))
            let statuses = providers.flatMap { p in ReportSections.members(r, "backend.pushes.\(p).rejectedByStatus").filter { $0.value != "0" }.map { [ReportSections.providerName(p), $0.key, $0.value] } }
            blocks.append(statuses.isEmpty ? .paragraph("No provider answered with an error status.")
                                           : .table(header: ["provider", "status", "answers"], rows: statuses))
            blocks += providers.compactMap { ReportSections.distribution(r, "backend.pushes.\($0).latency", title: "\(ReportSections.providerName($0)) provider latency") }
        }
        return ReportSection(id: "push", title: "Push notifications", blocks: blocks)
    }

    /// What delays a notification's delivery (`latency.pushCreatedToDelivered.<priority>`):
    /// quiet hours hold normal and high pushes until they end (`push.heldForQuietHours`);
    /// Doze holds normal-priority FCM messages (`scheduling.fcm.deferredByDoze`).
    @Sendable static func tailMechanisms(_ r: ReportValue, _ name: String) -> [String] {
        guard name.hasPrefix("pushCreatedToDelivered.") else { return [] }
        func n(_ path: String) -> Int64 { r.lookup(path)?.intValue ?? 0 }
        func delay(_ path: String) -> String { LatencyTail.delay(r, path) }
        let priority = String(name.dropFirst("pushCreatedToDelivered.".count))
        var out: [String] = []
        if ["high", "normal"].contains(priority), n("push.heldForQuietHours") > 0 {
            out.append("\(HumanUnits.count(n("push.heldForQuietHours"))) pushes were held for their user's quiet hours and sent when those ended, "
                       + "hours later (push.heldForQuietHours)")
        }
        if ["normal", "low"].contains(priority), n("scheduling.fcm.deferredByDoze") > 0 {
            out.append("\(HumanUnits.count(n("scheduling.fcm.deferredByDoze"))) FCM messages were held by Doze until a maintenance window "
                       + "(\(delay("scheduling.fcm.dozeDelay")); scheduling.fcm.deferredByDoze)")
        }
        return out
    }
}
