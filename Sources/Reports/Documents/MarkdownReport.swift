/// `report.md`: the sections of ``ReportSections`` as GitHub Markdown (charts are in
/// report.html only).
public enum MarkdownReport {
    public static func render(_ report: ReportValue, wallSeconds: Double? = nil) -> String {
        var out = "# FleetSim report: \(ReportSections.str(report, "scenario"))\n"
        for section in ReportSections.build(report, wallSeconds: wallSeconds) {
            out += "\n## \(section.title)\n"
            for block in section.blocks {
                switch block {
                case .paragraph(let text):
                    out += "\n" + (section.id == "verdict" ? "**\(text.prefix(4))**\(text.dropFirst(4))" : text) + "\n"
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
}
