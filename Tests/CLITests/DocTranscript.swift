import Foundation

/// A command and its output as README.md or docs/*.md show them: a fenced block whose
/// first line starts with `$ `. Rules (docs/cli.md, "Checked examples"):
/// - Each `$ COMMAND` line is followed by the lines the command prints (stdout, then
///   stderr), until the next `$ ` line or the end of the block.
/// - A line `...` stands for lines left out: the block is an abridged excerpt, and its
///   other lines must appear in the output in order, each verbatim; lines not separated
///   by `...` must be adjacent. Without `...` the output must be exactly the lines shown.
/// - Wall-clock times (`35 s of wall time`, shrink's `37 runs (3 kept), 0.1 s`) differ
///   from machine to machine and are compared as "a time"; every other figure is
///   compared as shown.
/// - A block right after `<!-- doc-test: checked by NAME -->` is checked by the test file
///   NAME.swift instead (its input is made there); a block right after
///   `<!-- file: NAME -->` is written to NAME before the commands that follow run.
/// - A block right after `<!-- doc-test: full run -->` runs the full default scenario:
///   `make docs-check` checks it with the release binary (in a debug build the run
///   alone takes minutes of CPU).
struct DocTranscript: Equatable {
    struct Command: Equatable {
        var line: String
        var shown: [String]
    }

    var file: String
    /// The 1-based line of the opening fence.
    var line: Int
    var commands: [Command]
    /// `checked by NAME`: checked elsewhere.
    var checkedBy: String?
    /// `full run`: runs the full default scenario (minutes of CPU in a debug build),
    /// checked by `make docs-check` with the release binary.
    var fullRun = false

    /// A code block written to a file before the transcripts after it run.
    struct Input: Equatable {
        var name: String
        var text: String
        var line: Int
    }

    /// The transcripts and input files of one Markdown document, in document order.
    static func parse(_ text: String, file: String) -> [Either] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var out: [Either] = []
        var i = 0
        while i < lines.count {
            guard lines[i].hasPrefix("```") else { i += 1; continue }
            let open = i
            var body: [String] = []
            i += 1
            while i < lines.count, !lines[i].hasPrefix("```") { body.append(lines[i]); i += 1 }
            i += 1
            let marker = open > 0 ? lines[open - 1] : ""
            if let name = Self.markerValue(marker, "file:") {
                out.append(.input(Input(name: name, text: body.joined(separator: "\n") + "\n", line: open + 1)))
                continue
            }
            guard body.first?.hasPrefix("$ ") == true else { continue }
            var commands: [Command] = []
            for row in body {
                if row.hasPrefix("$ ") { commands.append(Command(line: String(row.dropFirst(2)), shown: [])) } else { commands[commands.count - 1].shown.append(row) }
            }
            out.append(.transcript(DocTranscript(file: file, line: open + 1, commands: commands,
                                                 checkedBy: Self.markerValue(marker, "doc-test: checked by"),
                                                 fullRun: Self.markerValue(marker, "doc-test: full run") != nil)))
        }
        return out
    }

    enum Either: Equatable {
        case transcript(DocTranscript)
        case input(Input)
    }

    /// `<!-- KEY VALUE -->` -> VALUE.
    static func markerValue(_ line: String, _ key: String) -> String? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("<!-- \(key)"), trimmed.hasSuffix("-->") else { return nil }
        return String(trimmed.dropFirst(5 + key.count).dropLast(3)).trimmingCharacters(in: .whitespaces)
    }

    // MARK: Matching

    /// Wall-clock figures, written as `#` on both sides before comparing.
    static let wallClock: [(pattern: String, template: String)] = [
        (#"[0-9][0-9.,]* (µs|ms|s|min|h)( of wall time)"#, "#$2"),
        (#"^(Shrunk in [0-9,]+ runs \([0-9,]+ kept\)), [0-9.]+ s"#, "$1, # s"),
        (#"^wall time [0-9][0-9.,]* (µs|ms|s|min|h);"#, "wall time #;"),
    ]

    static func normalised(_ line: String) -> String {
        var out = line
        for rule in wallClock {
            out = out.replacingOccurrences(of: rule.pattern, with: rule.template, options: .regularExpression)
        }
        return out
    }

    /// A line's shape: its figures (with their units) as `#` and its runs of spaces as
    /// one, so a figure that changed (`472 ms` to `1.2 s`, or a table column that widened)
    /// still finds its line when regenerating.
    static func shape(_ line: String) -> String {
        normalised(line).replacingOccurrences(of: #"[0-9][0-9.,]*( ?(µs|ms|s|min|h|d|mAh|%|req/s)\b)?"#, with: "#", options: .regularExpression)
            .replacingOccurrences(of: #" +"#, with: " ", options: .regularExpression)
    }

    /// Whether `shown` (with `...` for left-out lines) is `actual`, by the rules above.
    static func matches(shown: [String], actual: [String]) -> Bool {
        regenerated(shown: shown, actual: actual).map { $0 == shown } ?? false
    }

    /// What `shown` should say for `actual`: the output itself when nothing is left out;
    /// for an excerpt, each shown line replaced by the output line of the same shape at
    /// its place (figures updated, `...` kept). Nil when a shown line has no such line.
    static func regenerated(shown: [String], actual: [String]) -> [String]? {
        guard shown.contains("...") else {
            // Exact: shown wall times stay as shown when the rest agrees.
            guard shown.count == actual.count else { return actual }
            return zip(shown, actual).map { normalised($0) == normalised($1) ? $0 : $1 }
        }
        var out: [String] = []
        var position = 0
        var free = false
        for line in shown {
            if line == "..." { out.append(line); free = true; continue }
            let candidates = free ? Array(position..<actual.count) : (position < actual.count ? [position] : [])
            guard let found = candidates.first(where: { normalised(actual[$0]) == normalised(line) })
                    ?? candidates.first(where: { shape(actual[$0]) == shape(line) }) else { return nil }
            out.append(normalised(actual[found]) == normalised(line) ? line : actual[found])
            position = found + 1
            free = false
        }
        if !free, position != actual.count { return nil }
        return out
    }
}
