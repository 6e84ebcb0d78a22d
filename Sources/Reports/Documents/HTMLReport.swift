/// `report.html`: the sections of ``ReportSections`` as one self-contained page.
///
/// Rules:
/// - No external assets and no JavaScript: inline CSS and SVG only.
/// - Deterministic bytes: a pure function of the `report.json` document.
/// - A coloured verdict banner first (green PASS, red FAIL, amber INCONCLUSIVE), then what failed with its
///   replay commands; every section is a `<section id=...>` with a stable id
///   (``ReportSections/ids``); tables are HTML tables.
public enum HTMLReport {
    /// `strict`: `--strict`, which counts inconclusive expectations as failures.
    public static func render(_ report: ReportValue, strict: Bool = false) -> String {
        let title = escape("FleetSim: \(ReportSections.str(report, "scenario"))")
        let word = ReportSections.verdictWord(report, strict: strict)
        var body = ""
        for section in ReportSections.build(report, strict: strict) {
            if section.id == "verdict" {
                body += "<section id=\"verdict\" class=\"banner \(word.lowercased())\">"
                body += "<h1>\(word) · \(escape(ReportSections.str(report, "scenario")))</h1>"
                for case .paragraph(let text) in section.blocks { body += "<p>\(escape(String(text.drop { $0 != ":" }.dropFirst(2))))</p>" }
                body += "</section>\n"
                continue
            }
            body += "<section id=\"\(section.id)\">\n<h2>\(escape(section.title))</h2>\n"
            for block in section.blocks {
                switch block {
                case .paragraph(let text): body += "<p>\(escape(text))</p>\n"
                case .table(let header, let rows): body += table(header, rows)
                case .chart(let chart): body += "<figure>\n\(ReportSVG.render(chart))</figure>\n"
                case .violations(let list):
                    body += "<table class=\"violations\">\n<thead><tr><th>invariant</th><th class=\"n\">device</th><th class=\"n\">at</th><th>what happened, and the command that replays it</th></tr></thead>\n<tbody>\n"
                    for v in list {
                        body += "<tr><td>\(escape(v.kind))</td><td class=\"n\">\(escape(v.device))</td><td class=\"n\">\(escape(v.time))</td>"
                            + "<td class=\"wrap\">\(escape(v.detail))<br><code>\(escape(v.replay))</code></td></tr>\n"
                    }
                    body += "</tbody></table>\n"
                }
            }
            body += "</section>\n"
        }
        return """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>\(title)</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <style>
        body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;color:#111;max-width:1100px;margin:0 auto;padding:0 16px 48px;line-height:1.4}
        .banner{color:#fff;padding:14px 20px;margin:16px 0;border-radius:6px}.banner h1{margin:0 0 4px;font-size:26px}.banner p{margin:0}
        .banner.pass{background:#1e7d32}.banner.fail{background:#c0392b}.banner.inconclusive{background:#b9770e}
        h2{border-bottom:1px solid #ddd;padding-bottom:4px;margin-top:32px}
        table{border-collapse:collapse;margin:10px 0;font-size:14px}th,td{padding:4px 10px;border-bottom:1px solid #e5e5e5;text-align:left}
        td{white-space:nowrap;vertical-align:top}th{vertical-align:bottom}td.wrap{white-space:normal}td code{font-size:11.5px;color:#333;white-space:nowrap}
        th{background:#f4f4f4}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}tr.fail td{color:#c0392b;font-weight:600}tr.inconclusive td{color:#b9770e;font-weight:600}
        figure{margin:12px 0}svg{max-width:100%;height:auto}
        ul.legend{list-style:none;padding:0;margin:2px 0 0 70px;font-size:13px}ul.legend li{display:inline-block;margin-right:16px}
        ul.legend span{display:inline-block;width:14px;height:10px;margin-right:5px;vertical-align:middle}
        </style>
        </head><body>
        \(body)</body></html>

        """
    }

    static func table(_ header: [String], _ rows: [[String]]) -> String {
        var out = "<table>\n<thead><tr>"
        for (i, h) in header.enumerated() { out += "<th\(i > 0 ? " class=\"n\"" : "")>\(escape(h))</th>" }
        out += "</tr></thead>\n<tbody>\n"
        for row in rows {
            out += row.contains("FAIL") ? "<tr class=\"fail\">" : row.contains { $0.hasPrefix("inconclusive (") } ? "<tr class=\"inconclusive\">" : "<tr>"
            for (i, cell) in row.enumerated() { out += "<td\(i > 0 ? " class=\"n\"" : "")>\(escape(cell))</td>" }
            out += "</tr>\n"
        }
        return out + "</tbody></table>\n"
    }

    static func escape(_ text: String) -> String { SVGChart.escape(text) }
}
