/// `report.md`: the sections of ``ReportSections`` as GitHub Markdown (charts are in
/// report.html only).
public enum MarkdownReport {
    /// `features`: the features' sections (``FeatureSection``), in their order; `strict`:
    /// `--strict`, which counts inconclusive expectations as failures.
    public static func render(_ report: ReportValue, features: [FeatureSection] = [], wallSeconds: Double? = nil, strict: Bool = false) -> String {
        render(report, sections: ReportSections.build(report, features: features, wallSeconds: wallSeconds, strict: strict))
    }

    /// The page of sections already built (``ReportSections/build(_:features:wallSeconds:strict:)``).
    static func render(_ report: ReportValue, sections: [ReportSection]) -> String {
        var out = "# FleetSim report: \(ReportSections.str(report, "scenario"))\n"
        for section in sections {
            out += "\n## \(section.title)\n"
            for block in section.blocks {
                switch block {
                case .paragraph(let text):
                    out += "\n" + (section.id == "verdict" ? bold(verdictOf: text) : text) + "\n"
                case .table(let header, let rows):
                    out += "\n" + MarkdownTable.render(header: header, rows: rows,
                                                       alignments: [.left] + Array(repeating: .right, count: max(0, header.count - 1)))
                case .violations(let list):
                    for v in list { out += "\n- \(v.kind) on device \(v.device) at \(v.time): \(v.detail)\n\n      \(v.replay)\n" }
                case .chart:
                    continue
                }
            }
        }
        return out
    }

    /// `PASS: …` → `**PASS**: …` (the verdict word before the first colon in bold).
    static func bold(verdictOf text: String) -> String {
        guard let colon = text.firstIndex(of: ":") else { return text }
        return "**\(text[..<colon])**\(text[colon...])"
    }
}
