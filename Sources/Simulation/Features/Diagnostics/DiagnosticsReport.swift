import Reports
import Scenario

/// The diagnostics upload's part of report.json (Features/Features.swift lists it): only
/// in a run where a cohort runs it, as its endpoint's rows and its rule (``ReportScope``).
extension DiagnosticsHost {
    func report(into parts: inout ReportParts, core: borrowing WorldCore) {
        guard core.cohorts.contains(where: { $0.runs(.diagnostics) }) else { return }
        let m = metrics
        parts.sections["diagnostics"] = [
            "runs": .count(m.runs),
            "uploads": .count(m.uploads),
            "accepted": .count(m.accepted),
            "failed": .count(m.failed),
            "expired": .count(m.expired),
        ]
        for c in parts.battery.indices where core.cohorts[c].runs(.diagnostics) {
            parts.battery[c]["energyPerDiagnosticsRun"] = m.energy[c].summary
        }
    }
}

/// Its merge rules for `fleetsim merge` (Features/Features.swift lists them): its
/// counters add up.
extension DiagnosticsFeature {
    static let mergeRules: [(pattern: String, rule: ReportMerge.Rule)] = [("diagnostics.**", .sum)]

    /// Its keys in what a report of this build holds, each optional: a run where no cohort
    /// runs it has none.
    static let reportKeys = """
        battery.*.energyPerDiagnosticsRun.count?
        battery.*.energyPerDiagnosticsRun.mAh?
        battery.*.energyPerDiagnosticsRun.percentOfCapacity?
        diagnostics.runs?
        diagnostics.uploads?
        diagnostics.accepted?
        diagnostics.failed?
        diagnostics.expired?
        """

    /// Every upload that went out was answered, failed in transit, or is still in flight
    /// at the end: accepted and failed are at most the uploads.
    static let reportBounds: [ReportSchema.Bound] = [
        .atMost("diagnostics.accepted", limit: "diagnostics.uploads"),
        .atMost("diagnostics.failed", limit: "diagnostics.uploads"),
    ]
}
