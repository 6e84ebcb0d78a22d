/// What a feature adds to report.md and report.html (docs/architecture.md, "A feature's
/// report"): its own section, its figures in the battery table, and the clauses that
/// explain a long latency tail of its own latencies. The feature declares it in its
/// folder; the documents render the declarations in the list's order between the
/// latencies and the OS's scheduling, so Reports holds no feature's keys or words.
public struct FeatureSection: Sendable {
    /// The section's stable id (its `<section id=...>`).
    public var id: String
    /// Its short name in report.html's table of contents.
    public var tocLabel: String
    /// The section, from a `report.json` document; a report without the feature's keys
    /// still renders ("no data").
    public var build: @Sendable (ReportValue) -> ReportSection
    /// Columns of the battery table: a header and the key under `battery.<cohort>` whose
    /// `mAh.p95` it shows (the energy of one run of the feature's work).
    public var batteryColumns: [(header: String, key: String)]
    /// A clause the battery table's paragraph adds: the budget the feature's work is held to.
    public var batteryNote: String?
    /// What one sample of the feature's latencies is when it is not a device's event (a
    /// noun after "per"), for the expectations' note on independent samples.
    public var sampleUnit: String?
    /// The clauses naming what in a run delays the samples of latency `name` (under
    /// `latency.`), from figures the report counted (``LatencyTail``); empty when none.
    public var tailMechanisms: @Sendable (_ report: ReportValue, _ name: String) -> [String]

    public init(id: String, tocLabel: String, batteryColumns: [(header: String, key: String)] = [], batteryNote: String? = nil, sampleUnit: String? = nil,
                tailMechanisms: @escaping @Sendable (ReportValue, String) -> [String] = { _, _ in [] },
                build: @escaping @Sendable (ReportValue) -> ReportSection) {
        self.id = id
        self.tocLabel = tocLabel
        self.build = build
        self.batteryColumns = batteryColumns
        self.batteryNote = batteryNote
        self.sampleUnit = sampleUnit
        self.tailMechanisms = tailMechanisms
    }
}
