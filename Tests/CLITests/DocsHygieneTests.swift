import Foundation
import Testing

/// The docs are a guide for users and contributors (docs/README.md), kept so by two rules:
/// - No page, comment or test narrates its own making: a work log's words (a numbered
///   sitting, who built it, a tracker's issue number) mean nothing to a reader who opens
///   the file. A comment states the rule or the reason and cites a docs/ section by its
///   topic (`docs/performance.md#state-grouped-by-event-kind`). A source's own words are
///   fine: Apple's "WWDC 2019 session 423", seed 002's numbered issues.
/// - Every relative link and anchor in README.md and docs/*.md resolves (GitHub's heading
///   slugs), and every `docs/<page>.md#<anchor>` cited in Sources, Tests or the docs names a
///   page and a heading that exist.
@Suite struct DocsHygieneTests {
    /// A word of a work log, and what makes a line that has it fine. The patterns are
    /// built from parts, so that this file does not match itself.
    struct Rule {
        var pattern: String
        var unless: String?
    }

    static let rules: [Rule] = [
        Rule(pattern: #"\b"# + "sess" + #"ions? [0-9]"#, unless: "WWDC"),
        Rule(pattern: #"\bthe "# + "lea" + #"d\b"#),
        Rule(pattern: #"\b"# + "engin" + #"eers?\b"#),
        Rule(pattern: #"\bthis "# + "sess" + #"ion\b"#),
        Rule(pattern: #"\b"# + "iss" + #"ues? [0-9]"#, unless: #"seed `?002"#),
    ]

    /// The rules compiled once (a few thousand files' lines go through them).
    static let compiled: [(pattern: NSRegularExpression, unless: NSRegularExpression?)] = rules.map { rule in
        (try! NSRegularExpression(pattern: rule.pattern, options: .caseInsensitive),
         rule.unless.map { try! NSRegularExpression(pattern: $0, options: .caseInsensitive) })
    }

    static func found(_ re: NSRegularExpression, in line: String) -> Bool {
        re.firstMatch(in: line, range: NSRange(location: 0, length: (line as NSString).length)) != nil
    }

    /// The lines of `text` that narrate (1-based line numbers).
    static func narratingLines(_ text: String) -> [Int] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { n, line in
            let l = String(line)
            let bad = compiled.contains { rule in found(rule.pattern, in: l) && !(rule.unless.map { found($0, in: l) } ?? false) }
            return bad ? n + 1 : nil
        }
    }

    /// Every text file of Sources and Tests, README.md and docs/*.md, repository-relative.
    static func files() throws -> [String] {
        var out = ["README.md"]
        let fm = FileManager.default
        for top in ["Sources", "Tests", "docs"] {
            guard let walk = fm.enumerator(atPath: CLI.packageRoot.appendingPathComponent(top).path) else { continue }
            for case let path as String in walk where [".swift", ".md", ".h", ".c", ".sh"].contains(where: path.hasSuffix) {
                out.append("\(top)/\(path)")
            }
        }
        return out.sorted()
    }

    static func read(_ path: String) -> String? {
        let url = CLI.packageRoot.appendingPathComponent(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return nil }
        return isDirectory.boolValue ? "" : (try? String(contentsOf: url, encoding: .utf8))
    }

    @Test func nothingNarratesItsOwnMaking() throws {
        let files = try Self.files()
        #expect(files.count > 100, "found \(files.count) files")
        for file in files {
            for n in Self.narratingLines(Self.read(file) ?? "") {
                Issue.record("\(file):\(n) narrates its making (state the rule or reason; cite a docs/ section by its topic)")
            }
        }
    }

    // MARK: Links

    /// GitHub's anchor of a heading: lowercased, punctuation but `-` and `_` dropped,
    /// spaces as `-`; a link's text stands for the link.
    static func slug(_ heading: String) -> String {
        let text = heading.replacingOccurrences(of: #"\[([^\]]*)\]\([^)]*\)"#, with: "$1", options: .regularExpression)
        return String(text.lowercased().unicodeScalars.compactMap { c -> Character? in
            if c == " " { return "-" }
            if c == "-" || c == "_" || CharacterSet.alphanumerics.contains(c) { return Character(c) }
            return nil
        })
    }

    /// The text outside fenced code blocks, line by line, with inline code removed.
    static func prose(_ text: String) -> [String] {
        var inBlock = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { raw in
            if raw.hasPrefix("```") { inBlock.toggle(); return "" }
            guard !inBlock else { return "" }
            return raw.contains("`") ? raw.replacingOccurrences(of: #"`[^`]*`"#, with: "", options: .regularExpression) : String(raw)
        }
    }

    /// The anchors of a Markdown page: its headings' slugs (a repeated one numbered `-1`,
    /// `-2`, as GitHub does) and any `id="..."` or `name="..."`.
    static func anchors(_ text: String) -> Set<String> {
        anchorsLock.lock()
        defer { anchorsLock.unlock() }
        if let known = anchorsOf[text] { return known }
        let found = computedAnchors(text)
        anchorsOf[text] = found
        return found
    }

    nonisolated(unsafe) static var anchorsOf: [String: Set<String>] = [:]
    static let anchorsLock = NSLock()

    static func computedAnchors(_ text: String) -> Set<String> {
        var out: Set<String> = []
        var seen: [String: Int] = [:]
        var inBlock = false
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if raw.hasPrefix("```") { inBlock.toggle(); continue }
            guard !inBlock else { continue }
            let line = String(raw)
            let hashes = line.prefix { $0 == "#" }.count
            if (1...6).contains(hashes), line.dropFirst(hashes).first == " " {
                let base = slug(String(line.dropFirst(hashes + 1)).trimmingCharacters(in: .whitespaces))
                let k = seen[base, default: 0]
                seen[base] = k + 1
                out.insert(k == 0 ? base : "\(base)-\(k)")
            }
            if line.contains("id=") || line.contains("name=") {
                for m in matches(#"(id|name)="([^"]+)""#, in: line) { out.insert(m[2]) }
            }
        }
        return out
    }

    nonisolated(unsafe) static var patterns: [String: NSRegularExpression] = [:]
    static let patternsLock = NSLock()

    static func matches(_ pattern: String, in line: String) -> [[String]] {
        patternsLock.lock()
        let cached = patterns[pattern]
        let re = cached ?? (try? NSRegularExpression(pattern: pattern))
        if cached == nil { patterns[pattern] = re }
        patternsLock.unlock()
        guard let re else { return [] }
        let ns = line as NSString
        return re.matches(in: line, range: NSRange(location: 0, length: ns.length)).map { m in
            (0..<m.numberOfRanges).map { m.range(at: $0).location == NSNotFound ? "" : ns.substring(with: m.range(at: $0)) }
        }
    }

    /// `base/relative` as a repository path (`..` and `.` resolved); nil above the root.
    static func resolve(_ relative: String, from document: String) -> String? {
        var parts = document.split(separator: "/").dropLast().map(String.init)
        for p in relative.split(separator: "/", omittingEmptySubsequences: true).map(String.init) {
            if p == "." { continue }
            if p == ".." { if parts.isEmpty { return nil }; parts.removeLast(); continue }
            parts.append(p)
        }
        return parts.joined(separator: "/")
    }

    /// The links of `document` (repository-relative) that do not resolve: a missing file,
    /// or an anchor no heading of its page makes. `read` gives a path's text ("" for a
    /// directory), nil when it does not exist.
    static func brokenLinks(in document: String, text: String, read: (String) -> String?) -> [String] {
        var broken: [String] = []
        for (n, line) in prose(text).enumerated() {
            for m in matches(#"\]\(([^)\s]+)\)"#, in: line) {
                let target = m[1]
                if target.contains("://") || target.hasPrefix("mailto:") { continue }
                let hash = target.firstIndex(of: "#")
                let path = String(target[..<(hash ?? target.endIndex)])
                let anchor = hash.map { String(target[target.index(after: $0)...]) }
                let resolved = path.isEmpty ? document : resolve(path, from: document)
                guard let file = resolved, let page = read(file) else {
                    broken.append("\(document):\(n + 1): \(target): no such file"); continue
                }
                if let anchor, !anchors(page).contains(anchor) {
                    broken.append("\(document):\(n + 1): \(target): no heading makes #\(anchor)")
                }
            }
        }
        return broken
    }

    /// The `docs/<page>.md` and `docs/<page>.md#<anchor>` that `text` cites (in comments, in
    /// prose) that name no page or no heading of it.
    static func brokenCitations(in file: String, text: String, read: (String) -> String?) -> [String] {
        var broken: [String] = []
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.contains("docs/") {
            for m in matches(#"(?<![A-Za-z0-9_./-])docs/([A-Za-z0-9_-]+\.md)(#[A-Za-z0-9_-]+)?"#, in: String(line)) {
                guard let page = read("docs/" + m[1]) else { broken.append("\(file):\(n + 1): \(m[0]): no such page"); continue }
                if !m[2].isEmpty, !anchors(page).contains(String(m[2].dropFirst())) {
                    broken.append("\(file):\(n + 1): \(m[0]): no heading makes that anchor")
                }
            }
        }
        return broken
    }

    @Test func everyRelativeLinkAndAnchorResolves() throws {
        let files = try Self.files()
        let pages = files.filter { $0 == "README.md" || ($0.hasPrefix("docs/") && $0.hasSuffix(".md")) }
        #expect(pages.count > 10)
        var links = 0
        for page in pages {
            let text = Self.read(page) ?? ""
            links += Self.prose(text).reduce(0) { $0 + Self.matches(#"\]\(([^)\s]+)\)"#, in: $1).count }
            for b in Self.brokenLinks(in: page, text: text, read: Self.read) { Issue.record("\(b)") }
        }
        #expect(links > 50, "found \(links) links")
        for file in files {
            for b in Self.brokenCitations(in: file, text: Self.read(file) ?? "", read: Self.read) { Issue.record("\(b)") }
        }
    }

    /// docs/README.md, the map, links every page of docs/.
    @Test func theMapLinksEveryPage() throws {
        let map = Self.read("docs/README.md") ?? ""
        let pages = try Self.files().filter { $0.hasPrefix("docs/") && $0.hasSuffix(".md") && $0 != "docs/README.md" }
        #expect(pages.count > 10)
        for page in pages {
            let name = String(page.dropFirst(5))
            #expect(map.contains("](\(name))") || map.contains("](\(name)#"), "docs/README.md does not link \(name)")
        }
    }

    /// A page is read for one purpose: none is over 45 KB, performance.md not over 30 KB,
    /// and each opens (after its title) with who it is for (docs/README.md).
    @Test func everyPageIsSmallAndSaysWhoItIsFor() throws {
        let pages = try Self.files().filter { $0.hasPrefix("docs/") && $0.hasSuffix(".md") && $0 != "docs/README.md" }
        for page in pages {
            let text = Self.read(page) ?? ""
            let limit = page == "docs/performance.md" ? 30 * 1024 : 45 * 1024
            #expect(text.utf8.count <= limit, "\(page) is \(text.utf8.count) bytes, over \(limit)")
            let opening = text.split(separator: "\n", omittingEmptySubsequences: true).dropFirst().first ?? ""
            #expect(opening.hasPrefix("For "), "\(page) does not open with who it is for: \(opening.prefix(60))")
        }
    }

    /// The matchers catch what they are for, and let a source's own words through. The
    /// planted pages are named from parts, so that the citation check passes this file.
    @Test func theMatchersCatchPlantedFaults() {
        let s = "Sess" + "ion"
        let planted = [
            "/// Measured in \(s.lowercased()) 12.",                              // 1: caught
            "// see \(s)s 8, 9 and 15",                                            // 2: caught
            "Apple's WWDC 2019 \(s.lowercased()) 423 (*Optimizing App Launch*)",   // 3: a source's words
            "// the " + "lead's bytes",                                            // 4: caught
            "with four other " + "engin" + "eers building",                         // 5: caught
            "// measured in this " + s.lowercased() + ".",                         // 6: caught
            "/// Background work by id (" + "iss" + "ue 30).",                      // 7: caught
            "/// Exactly once (seed `002`, " + "iss" + "ue 1).",                     // 8: seed 002's numbering
            "/// a screen session starts; the leading edge; issues arise",       // 9: no number, no word
        ].joined(separator: "\n")
        #expect(Self.narratingLines(planted) == [1, 2, 4, 5, 6, 7])

        #expect(Self.slug("Shards on one machine: `fleetsim bench --shards N`") == "shards-on-one-machine-fleetsim-bench---shards-n")
        #expect(Self.slug("The near heap and timing wheel") == "the-near-heap-and-timing-wheel")
        #expect(Self.slug("Why 1M is ×1.4 [more](x.md)") == "why-1m-is-14-more")

        let d = "do" + "cs/"
        let repo: [String: String] = [
            d + "a.md": "# A\n## Part\n## Part\n```\n## Not a heading\n```\n",
            d + "b.md": "# B\n",
            "Sources": "",
        ]
        let missing = "no" + "pe.md"
        let page = [
            "[fine](a.md#part) and [also](a.md#part-1) [dir](../Sources) [web](https://example.com/#x)",
            "[gone](\(missing)) [bad anchor](a.md#not-a-heading) [self](#b)",
            "`[in code](\(missing))`",
            "```", "[in a block](\(missing))", "```",
            "[up](../../\(missing))",
        ].joined(separator: "\n")
        let broken = Self.brokenLinks(in: d + "b.md", text: page, read: { repo[$0] })
        #expect(broken.count == 3, "\(broken)")
        #expect(broken.contains { $0.hasPrefix(d + "b.md:2: \(missing)") })
        #expect(broken.contains { $0.hasPrefix(d + "b.md:2: a.md#not-a-heading") })
        #expect(broken.contains { $0.hasPrefix(d + "b.md:7: ../../") })

        let comment = "/// (\(d)a.md#part), (\(d)a.md#gone), (\(d)\(missing)), \(d)b.md"
        let cited = Self.brokenCitations(in: "x.swift", text: comment, read: { repo[$0] })
        #expect(cited.count == 2, "\(cited)")
    }
}
