import Reports

/// The continuation's section of report.md and report.html (docs/architecture.md, "A
/// feature's report"): its analyses, the users' choices and the outcomes.
extension ContinuationFeature {
    static let reportSection = FeatureSection(id: "continuation", tocLabel: "Continuation", build: section)

    @Sendable static func section(_ r: ReportValue) -> ReportSection {
        var rows = [["analyses started", ReportSections.count(r, "continuation.started")],
                    ["offered to continue in background", ReportSections.count(r, "continuation.offeredBackground")]]
        rows += ReportSections.members(r, "continuation.choices").map { ["user chose \($0.key)", $0.value] }
        rows += ReportSections.members(r, "continuation.outcomes").map { ["outcome: \($0.key)", $0.value] }
        rows += [["completion notified", ReportSections.count(r, "continuation.notified")], ["shown at next open", ReportSections.count(r, "continuation.shownAtOpen")],
                 ["completed → notified, p95", ReportSections.latencyFigures(r, "latency.continuationCompletedToNotified", "p95")]]
        return ReportSection(id: "continuation", title: "Background continuation", blocks: [.table(header: ["", "value"], rows: rows)])
    }
}
