import Foundation
import Testing
@testable import FleetSimCLI

/// Every command output README.md and docs/*.md show is produced here by running the
/// command (``DocTranscript`` has the rules), so no figure in them can go stale.
/// On a mismatch the failure prints the block as it should read; `make docs` writes it
/// into the file (FLEETSIM_DOCS_WRITE=1). `make docs-check` (CI) also checks the blocks
/// of the full default run (FLEETSIM_DOCS_FULL=1), with the release binary
/// (FLEETSIM_DOCS_BINARY), where that run takes seconds instead of minutes.
@Suite struct DocTranscriptTests {
    /// README first: it runs the default scenario, whose reports the docs may read.
    static let documents: [String] = {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: CLI.packageRoot.appendingPathComponent("docs").path)) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }()

    static var rewrite: Bool { ProcessInfo.processInfo.environment["FLEETSIM_DOCS_WRITE"] == "1" }
    static var full: Bool { ProcessInfo.processInfo.environment["FLEETSIM_DOCS_FULL"] == "1" }
    /// The binary under test: this build's, or the one FLEETSIM_DOCS_BINARY names.
    static let binary: URL = ProcessInfo.processInfo.environment["FLEETSIM_DOCS_BINARY"].map { URL(fileURLWithPath: $0) } ?? CLI.executable

    /// A directory laid out as the repository after the README's steps: a copy of
    /// scenarios/ (shrink writes next to its input), the binary under test as
    /// `.build/release/fleetsim` and as `fleetsim` on PATH.
    static func workspace() throws -> URL {
        let root = try CLI.temporaryDirectory()
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("scenarios"), to: root.appendingPathComponent("scenarios"))
        for dir in [".build/release", "bin"] {
            let d = root.appendingPathComponent(dir)
            try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: d.appendingPathComponent("fleetsim"), withDestinationURL: binary)
        }
        return root
    }

    /// `make TARGET` as the Makefile's recipe of TARGET (its prerequisites, the release
    /// build, are not made: the binary under test stands in), each line echoed as make
    /// echoes it; anything else as the shell runs it.
    static func script(for command: String) throws -> String {
        guard command.hasPrefix("make ") else { return command }
        let target = String(command.dropFirst(5))
        let makefile = try String(contentsOf: CLI.packageRoot.appendingPathComponent("Makefile"), encoding: .utf8)
        let lines = makefile.split(separator: "\n", omittingEmptySubsequences: false)
        guard let head = lines.firstIndex(where: { $0.hasPrefix("\(target):") }) else { throw DocError("the Makefile has no target '\(target)'") }
        let recipe = lines[(head + 1)...].prefix { $0.hasPrefix("\t") }.map { String($0.dropFirst()).replacingOccurrences(of: "$(BIN)", with: ".build/release/fleetsim") }
        return recipe.map { line in line.hasPrefix("@") ? String(line.dropFirst()) : "echo \(shellQuoted(line)); \(line)" }.joined(separator: "\n")
    }

    static func shellQuoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }

    struct DocError: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }

    /// The output lines of `command` run by sh in `directory`: stdout, then stderr.
    static func output(of command: String, in directory: URL) throws -> [String] {
        let path = directory.appendingPathComponent("bin").path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let r = try CLI.run(["-c", "PATH=\(shellQuoted(path)); export PATH; " + (try script(for: command))], in: directory,
                            executable: URL(fileURLWithPath: "/bin/sh"))
        var lines = (r.stdout + r.stderr).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    @Test func everyShownCommandPrintsWhatTheDocsShow() throws {
        let directory = try Self.workspace()
        var cache: [String: [String]] = [:]
        for document in Self.documents {
            let url = CLI.packageRoot.appendingPathComponent(document)
            var text = try String(contentsOf: url, encoding: .utf8)
            var replacements: [(old: String, new: String)] = []
            for item in DocTranscript.parse(text, file: document) {
                switch item {
                case .input(let input):
                    try Data(input.text.utf8).write(to: directory.appendingPathComponent(input.name))
                case .transcript(let t):
                    if let name = t.checkedBy {
                        let source = try String(contentsOf: CLI.packageRoot.appendingPathComponent("Tests/CLITests/\(name).swift"), encoding: .utf8)
                        #expect(source.contains(document), "\(document):\(t.line): \(name).swift does not check \(document)")
                        continue
                    }
                    if t.fullRun, !Self.full { continue }
                    var expected: [String] = []
                    var ok = true
                    var regenerable = true
                    for command in t.commands {
                        let actual = try cache[command.line] ?? Self.output(of: command.line, in: directory)
                        cache[command.line] = actual
                        let fixed = DocTranscript.regenerated(shown: command.shown, actual: actual)
                        ok = ok && fixed == command.shown
                        expected.append("$ " + command.line)
                        regenerable = regenerable && fixed != nil
                        expected += fixed ?? ["(the shown lines are not in the output in that order, or it has more lines after them; the output is:)"] + actual
                        // A deliberate change of a shown figure must be caught.
                        if fixed == command.shown, let k = command.shown.firstIndex(where: { $0 != "..." && $0.contains(where: \.isNumber) }) {
                            var changed = command.shown
                            changed[k] = Self.changedFigure(changed[k])
                            if DocTranscript.normalised(changed[k]) != DocTranscript.normalised(command.shown[k]) {
                                #expect(!DocTranscript.matches(shown: changed, actual: actual), "\(document):\(t.line): a changed figure was not caught")
                            }
                        }
                    }
                    if !ok {
                        let shown = t.commands.flatMap { ["$ " + $0.line] + $0.shown }
                        if regenerable { replacements.append((shown.joined(separator: "\n"), expected.joined(separator: "\n"))) }
                        if !Self.rewrite || !regenerable {
                            Issue.record("\(document):\(t.line): the block differs from what the commands print; it should read:\n```\n\(expected.joined(separator: "\n"))\n```")
                        }
                    }
                }
            }
            if Self.rewrite, !replacements.isEmpty {
                for r in replacements { text = text.replacingOccurrences(of: "\n" + r.old + "\n```", with: "\n" + r.new + "\n```") }
                try text.write(to: url, atomically: true, encoding: .utf8)
            }
        }
    }

    /// Every `fleetsim` command the docs give to type (in any code block, transcripts
    /// included) is accepted by this build's parser: no option or command has gone stale.
    @Test func everyShownCommandLineParses() throws {
        var checked = 0
        for document in Self.documents {
            let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent(document), encoding: .utf8)
            var inBlock = false
            for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if raw.hasPrefix("```") { inBlock.toggle(); continue }
                guard inBlock else { continue }
                var line = raw.hasPrefix("$ ") ? raw.dropFirst(2) : raw[...]
                line = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                let words = line.split(separator: " ").map(String.init)
                guard let binary = words.first, binary == "fleetsim" || binary.hasSuffix("/fleetsim"), words.count > 1, !words[1].hasSuffix(":"),
                      !line.contains("["), !line.contains("..."), !line.contains("|") else { continue }
                checked += 1
                do { _ = try FleetSimCommand.parse(Array(words.dropFirst())) } catch {
                    Issue.record("\(document):\(n + 1): '\(line)' is refused: \(error)")
                }
            }
        }
        #expect(checked > 30, "found \(checked) command lines")
    }

    /// Every example of every command's help runs as shown (`fleetsim compare
    /// reports/baselines/default.json reports/default/report.json`, from compare's help,
    /// exited 2 after `make run`: the baseline is at --scale 0.5). In a directory laid
    /// out as the repository after the README's steps (scenarios/, scripts/,
    /// reports/baselines/, the binary as .build/release/fleetsim and as fleetsim on
    /// PATH), in the overview's order, each after the ones before it (run's and
    /// explore's write what compare, merge and diverge read): none exits 2 (bad usage or
    /// bad input). Run and explore examples run to their end; any other still running
    /// after ``patience`` seconds has passed every check of its input (each command
    /// checks its inputs before it works) and is stopped: bench and plan take minutes.
    /// With the release binary only (FLEETSIM_DOCS_FULL, as `make test`): in a debug
    /// build the runs alone take minutes.
    @Test(.enabled(if: full)) func everyHelpExampleRunsAsShown() throws {
        let directory = try Self.workspace()
        for dir in ["scripts", "reports/baselines"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(dir).deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent(dir), to: directory.appendingPathComponent(dir))
        }
        let path = directory.appendingPathComponent("bin").path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        var ran = 0
        for type in FleetSimCommand.commands {
            for example in type.help.examples {
                let finishes = example.hasPrefix("fleetsim run ") || example.hasPrefix("fleetsim explore ")
                let limit = finishes ? "" : "timeout \(Self.patience) "
                let r = try CLI.run(["-c", "PATH=\(Self.shellQuoted(path)); export PATH; \(limit)\(example) > /dev/null"], in: directory,
                                    executable: URL(fileURLWithPath: "/bin/sh"))
                let stopped = !finishes && r.status == 124
                #expect(r.status == 0 || r.status == 1 || stopped, "fleetsim \(type.help.name)'s example '\(example)' exited \(r.status): \(r.stderr.suffix(600))")
                ran += 1
            }
        }
        #expect(ran >= 20)
    }

    /// Seconds an example that is not a run or an explore may take before it is stopped.
    static let patience = 10

    /// The line with its first digit changed (`8` -> `9`, `9` -> `8`).
    static func changedFigure(_ line: String) -> String {
        guard let i = line.firstIndex(where: \.isNumber) else { return line }
        var out = line
        out.replaceSubrange(i...i, with: line[i] == "9" ? "8" : String(Int(String(line[i]))! + 1))
        return out
    }

    @Test func transcriptsAreParsedAndMatchedByTheRules() {
        let doc = """
        <!-- file: a.json -->
        ```json
        {"x": 1}
        ```

        ```
        $ fleetsim run a.json
        ...
        a: 10 devices, 1,234 events
        Report: x
        ...
        ```
        """
        let items = DocTranscript.parse(doc, file: "t.md")
        #expect(items.count == 2)
        guard case .input(let input) = items[0], case .transcript(let t) = items[1] else { Issue.record("\(items)"); return }
        #expect(input.name == "a.json" && input.text == "{\"x\": 1}\n")
        #expect(t.commands == [.init(line: "fleetsim run a.json", shown: ["...", "a: 10 devices, 1,234 events", "Report: x", "..."])])
        let actual = ["building", "a: 10 devices, 1,234 events", "Report: x", "wall time 2.1 s; memory 3 MB"]
        #expect(DocTranscript.matches(shown: t.commands[0].shown, actual: actual))
        // A changed figure fails, and regenerating gives the true one back.
        let stale = ["...", "a: 10 devices, 1,999 events", "Report: x", "..."]
        #expect(!DocTranscript.matches(shown: stale, actual: actual))
        #expect(DocTranscript.regenerated(shown: stale, actual: actual) == t.commands[0].shown)
        // A figure whose unit changed, in a wider table, still finds its row.
        #expect(DocTranscript.regenerated(shown: ["...", "| x  |  472 ms |", "..."], actual: ["| x   |   1.2 s |"]) == ["...", "| x   |   1.2 s |", "..."])
        // Adjacent shown lines must be adjacent in the output; the exact form has no gaps.
        #expect(!DocTranscript.matches(shown: ["a: 10 devices, 1,234 events", "wall time 2.1 s; memory 3 MB"], actual: Array(actual.dropFirst())))
        #expect(!DocTranscript.matches(shown: Array(actual.dropLast()), actual: actual))
        #expect(DocTranscript.matches(shown: actual, actual: actual))
        // Wall-clock times are the only figures compared loosely.
        #expect(DocTranscript.matches(shown: ["x: 35 s of wall time.", "wall time 12.5 s; memory 3 MB"], actual: ["x: 1.2 min of wall time.", "wall time 3.0 s; memory 3 MB"]))
        #expect(!DocTranscript.matches(shown: ["wall time 12.5 s; memory 3 MB"], actual: ["wall time 12.5 s; memory 4 MB"]))
    }
}
