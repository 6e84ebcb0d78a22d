import Reports

/// The human-facing documents of a run, rendered from its `report.json` document by the
/// Reports module (``MarkdownReport``, ``HTMLReport``, ``JUnitReport``), so they read the
/// same figures a machine reads.
public enum ReportDocuments {
    /// `report.md`: the summary a person reads first. `wallSeconds` lives here (and on
    /// stderr), never in `report.json`, whose bytes must not depend on the machine.
    /// `strict` (`--strict`) counts inconclusive expectations as failures in every document.
    public static func markdown(_ outcome: RunOutcome, wallSeconds: Double?, strict: Bool = false) -> String {
        MarkdownReport.render(outcome.report, features: FeatureList.reportSections, wallSeconds: wallSeconds, strict: strict)
    }

    /// ``markdown(_:wallSeconds:strict:)`` and `report.html` (self-contained,
    /// deterministic), their sections built once.
    public static func markdownAndHTML(_ outcome: RunOutcome, wallSeconds: Double?, strict: Bool = false) -> (markdown: String, html: String) {
        HTMLReport.renderWithMarkdown(outcome.report, features: FeatureList.reportSections, wallSeconds: wallSeconds, strict: strict)
    }

    /// `junit.xml`: one test case per invariant kind and per expectation; its time is
    /// `wall`, the run's wall time (machine-dependent, like report.md's).
    public static func junit(_ outcome: RunOutcome, strict: Bool = false, wall: JUnitReport.WallTime? = nil) -> String {
        JUnitReport.render(outcome.report, strict: strict, wall: wall)
    }
}
