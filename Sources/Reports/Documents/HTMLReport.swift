/// `report.html`: the sections of ``ReportSections`` as one self-contained page.
///
/// Rules:
/// - No external assets and no JavaScript: inline CSS and SVG only.
/// - Deterministic bytes: a pure function of the `report.json` document.
/// - A table of contents that stays at the top of the window (in-page links only), then a
///   coloured verdict banner (green PASS, red FAIL, amber INCONCLUSIVE), then every
///   expectation (✓/✗) and the violations with their replay commands; every section is a
///   `<section id=...>` with a stable id (``ReportSections/ids``); tables are HTML tables.
/// - A replay command wraps at any character (it fits an 800 px window) and selects as a
///   whole with one click (`user-select: all`), so it can be copied without JavaScript.
public enum HTMLReport {
    /// `features`: the features' sections (``FeatureSection``), in their order; `strict`:
    /// `--strict`, which counts inconclusive expectations as failures.
    public static func render(_ report: ReportValue, features: [FeatureSection] = [], strict: Bool = false) -> String {
        render(report, features: features, sections: ReportSections.build(report, features: features, strict: strict), strict: strict)
    }

    /// report.md and report.html of one report, its sections built once: report.md's
    /// verdict with the run's `wallSeconds` (report.html never shows a wall time, so its
    /// bytes are a function of the report alone).
    public static func renderWithMarkdown(_ report: ReportValue, features: [FeatureSection] = [], wallSeconds: Double? = nil,
                                          strict: Bool = false) -> (markdown: String, html: String) {
        var sections = ReportSections.build(report, features: features, strict: strict)
        let html = render(report, features: features, sections: sections, strict: strict)
        if wallSeconds != nil, let i = sections.firstIndex(where: { $0.id == "verdict" }) {
            sections[i] = ReportSections.verdict(report, wallSeconds: wallSeconds, strict: strict)
        }
        return (MarkdownReport.render(report, sections: sections), html)
    }

    static func render(_ report: ReportValue, features: [FeatureSection], sections: [ReportSection], strict: Bool) -> String {
        let title = escape("FleetSim: \(ReportSections.str(report, "scenario"))")
        let word = ReportSections.verdictWord(report, strict: strict)
        let labels = tocLabels.merging(features.map { ($0.id, $0.tocLabel) }) { core, _ in core }
        var body = "<nav class=\"toc\">"
        for section in sections {
            let label = section.id == "verdict" ? word : labels[section.id] ?? section.title
            body += "<a href=\"#\(section.id)\"\(section.id == "verdict" ? " class=\"\(word.lowercased())\"" : "")>\(escape(label))</a>\n"
        }
        body += "</nav>\n"
        for section in sections {
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
                case .paragraph(let text): body += "<p>\(strong(escape(text)))</p>\n"
                case .table(let header, let rows): body += table(header, rows)
                case .chart(let chart): body += "<figure>\n\(ReportSVG.render(chart))</figure>\n"
                case .violations(let list):
                    body += "<table class=\"violations\">\n<thead><tr><th>invariant</th><th class=\"n\">device</th><th class=\"n\">at</th><th>what happened, and the command that replays it</th></tr></thead>\n<tbody>\n"
                    for v in list {
                        body += "<tr><td>\(escape(v.kind))</td><td class=\"n\">\(escape(v.device))</td><td class=\"n\">\(escape(v.time))</td>"
                            + "<td class=\"wrap\">\(escape(v.detail))<br><code class=\"replay\" title=\"one click selects the whole command\">\(command(v.replay))</code></td></tr>\n"
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
        nav.toc{position:sticky;top:0;z-index:1;background:#fff;border-bottom:1px solid #ddd;padding:6px 0;font-size:13px;line-height:1.9}
        nav.toc a{color:#1f4e79;text-decoration:none;margin-right:14px;white-space:nowrap}nav.toc a.pass,nav.toc a.fail,nav.toc a.inconclusive{color:#fff;padding:1px 6px;border-radius:3px;font-weight:600}
        nav.toc a.pass{background:#1e7d32}nav.toc a.fail{background:#c0392b}nav.toc a.inconclusive{background:#b9770e}section{scroll-margin-top:64px}
        .banner{color:#fff;padding:14px 20px;margin:16px 0;border-radius:6px}.banner h1{margin:0 0 4px;font-size:26px}.banner p{margin:0}
        .banner.pass{background:#1e7d32}.banner.fail{background:#c0392b}.banner.inconclusive{background:#b9770e}
        h2{border-bottom:1px solid #ddd;padding-bottom:4px;margin-top:32px}
        table{border-collapse:collapse;margin:10px 0;font-size:14px}th,td{padding:4px 10px;border-bottom:1px solid #e5e5e5;text-align:left}
        td{white-space:nowrap;vertical-align:top}th{vertical-align:bottom}td.wrap{white-space:normal;min-width:240px}
        code.replay{display:block;font-size:11.5px;color:#333;background:#f4f4f4;padding:3px 6px;margin-top:3px;white-space:pre-wrap;overflow-wrap:anywhere;user-select:all;-webkit-user-select:all;cursor:copy}code.replay span.arg{white-space:nowrap}
        th{background:#f4f4f4}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}tr.fail td{color:#c0392b;font-weight:600}tr.inconclusive td{color:#b9770e;font-weight:600}
        div.scroll{overflow-x:auto}figure{margin:12px 0}svg{max-width:100%;height:auto}
        ul.legend{list-style:none;padding:0;margin:2px 0 0 70px;font-size:13px}ul.legend li{display:inline-block;margin-right:16px}
        ul.legend span{display:inline-block;width:14px;height:10px;margin-right:5px;vertical-align:middle}ul.legend li.zero{color:#777}
        tr.pass td:last-child{color:#1e7d32;font-weight:600}
        </style>
        </head><body>
        \(body)</body></html>

        """
    }

    static func table(_ header: [String], _ rows: [[String]]) -> String {
        var out = "<div class=\"scroll\"><table>\n<thead><tr>"
        for (i, h) in header.enumerated() { out += "<th\(i > 0 ? " class=\"n\"" : "")>\(escape(h))</th>" }
        out += "</tr></thead>\n<tbody>\n"
        for row in rows {
            out += row.contains { $0.hasPrefix("✗ ") } ? "<tr class=\"fail\">" : row.contains { $0.hasPrefix("? inconclusive") } ? "<tr class=\"inconclusive\">"
                : row.contains { $0.hasPrefix("✓ ") } ? "<tr class=\"pass\">" : "<tr>"
            for (i, cell) in row.enumerated() {
                // A long figure (a peak's causes and endpoints) wraps instead of widening the table past the window.
                let classes = (i > 0 ? ["n"] : []) + (cell.count > 40 ? ["wrap"] : [])
                out += "<td\(classes.isEmpty ? "" : " class=\"\(classes.joined(separator: " "))\"")>\(escape(cell))</td>"
            }
            out += "</tr>\n"
        }
        return out + "</tbody></table></div>\n"
    }

    /// A command as HTML that wraps between arguments, never inside an option and its
    /// value (`--seed 1` stays whole; a line break after `--` would read as two words):
    /// each option and its value is a `nowrap` span, the other words may break anywhere.
    /// The text (what a copy takes) is the command unchanged, its words split as the
    /// shell splits them (``Shell/words(_:)``: a quoted file name with a space is one word).
    static func command(_ text: String) -> String {
        let words = Shell.words(text)
        var parts: [String] = []
        var i = 0
        while i < words.count {
            if words[i].hasPrefix("-") {
                let pair = i + 1 < words.count && !words[i + 1].hasPrefix("-") ? [words[i], words[i + 1]] : [words[i]]
                parts.append("<span class=\"arg\">\(escape(pair.joined(separator: " ")))</span>")
                i += pair.count
            } else {
                parts.append(escape(words[i]))
                i += 1
            }
        }
        return parts.joined(separator: " ")
    }

    /// Short names for the table of contents (the section titles are longer); a
    /// feature's section brings its own (``FeatureSection/tocLabel``).
    static let tocLabels = ["expectations": "Expectations", "failures": "Violations", "run": "Run", "latency": "Latency",
                            "ios-scheduling": "iOS", "android-scheduling": "Android", "battery": "Battery",
                            "backend-load": "Backend load", "invariants": "Invariants"]

    static func escape(_ text: String) -> String { XMLText.escape(text) }

    /// A paragraph's opening words in bold, written `**Saturated:**` for report.md, as
    /// `<strong>…</strong>`: the pairs of `**` in order (an unpaired one is closed at the end).
    static func strong(_ text: String) -> String {
        let parts = text.components(separatedBy: "**")
        guard parts.count > 1 else { return text }
        var out = parts[0]
        for (i, part) in parts.dropFirst().enumerated() { out += (i % 2 == 0 ? "<strong>" : "</strong>") + part }
        return parts.count % 2 == 0 ? out + "</strong>" : out
    }
}
