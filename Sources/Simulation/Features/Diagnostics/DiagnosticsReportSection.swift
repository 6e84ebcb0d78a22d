import Reports

/// The diagnostics upload's section of report.md and report.html (docs/architecture.md,
/// "A feature's report"): its runs, uploads and each run's energy. A report of a run
/// without it has no `diagnostics` keys, and the section no blocks: the documents leave it out.
extension DiagnosticsFeature {
    static let reportSection = FeatureSection(
        id: "diagnostics", tocLabel: "Diagnostics", build: section)

    @Sendable static func section(_ r: ReportValue) -> ReportSection {
        guard r.lookup("diagnostics") != nil else { return ReportSection(id: "diagnostics", title: "Diagnostics upload", blocks: []) }
        let rows = [["runs of the nightly work", ReportSections.count(r, "diagnostics.runs")],
                    ["uploads", ReportSections.count(r, "diagnostics.uploads")],
                    ["accepted by the server", ReportSections.count(r, "diagnostics.accepted")],
                    ["failed", ReportSections.count(r, "diagnostics.failed")],
                    ["runs that expired", ReportSections.count(r, "diagnostics.expired")]]
            + (r.lookup("battery")?.objectValue ?? [:]).keys.sorted().filter { r.lookup("battery.\($0).energyPerDiagnosticsRun") != nil }.map { cohort in
                ["energy per run p95, \(cohort)", MetricText.lookup(r, "battery.\(cohort).energyPerDiagnosticsRun.mAh.p95")]
            }
        return ReportSection(id: "diagnostics", title: "Diagnostics upload", blocks: [.table(header: ["", "value"], rows: rows)])
    }
}
