import Foundation
import Reports
import Scenario
import SimKernel
import Simulation

/// `fleetsim diverge`: the first delivered event where two runs part ways (two builds,
/// two configurations, or two recorded event streams). It compares report.json's
/// `events.hash` first (whether, and in which cohorts and device buckets, the runs
/// differ), then streams both runs' events (`run --record-events -`) in lockstep and
/// stops at the first difference, so no stream is ever held in memory (docs/diverge.md).
struct Diverge: Command {
    static let help = CommandHelp(
        name: "diverge",
        abstract: "report the first event where two builds, configurations or recorded event streams part ways",
        arguments: [.init(name: "SCENARIO", text: "the scenario file (JSON); with --traces, the two event files A B")],
        options: ScenarioOptions.options(seed: true) + [
            .valued("against", "BINARY", "the other fleetsim build (one that has 'run --record-events'), same scenario and options"),
            .valued("against-variants", "LIST", "this build, same scenario, these variants on the other side (\"none\": the correct logic)"),
            .valued("against-scenario", "FILE", "this build, this other scenario file on the other side (same options)"),
            .flag("traces", "compare two recorded event files (run --record-events FILE) instead of running anything"),
        ],
        discussion: """
        Exactly one of --against, --against-variants, --against-scenario or --traces.
        Without --seed both sides run the first file's seed.
        Prints the first event where the two sides differ: its time (UTC and since the
        start), its device, and each side's event; or that the runs are identical.
        The events of one instant are compared in any order (their order is the
        same-instant tie-break's): a pure reordering is noted, never a divergence.
        When the streams are identical but the invariant violations or the
        expectations' verdicts differ (the logic acted differently within the same
        events), says so and lists them.
        Exit 0 when the runs are identical, 1 when they diverge (in events or in
        outcome), 2 on bad input. --against names another build (say, a checkout
        of main built in ../old); the examples' events files are written by the
        two runs before them.
        """,
        examples: [
            "fleetsim diverge scenarios/default.json --seed 1 --scale 0.1 --against .build/release/fleetsim",
            // A known bug the reference logic plants: the first its logic set declares.
            "fleetsim diverge scenarios/default.json --seed 1 --against-variants \(ReferenceLogics.variantNames[0])",
            "fleetsim run scenarios/races/unguarded-completion.json --record-events old-events.txt --out reports/old",
            "fleetsim run scenarios/races/unguarded-completion.json --variants none --record-events new-events.txt --out reports/new",
            "fleetsim diverge --traces old-events.txt new-events.txt",
        ]
    )

    /// How one side is run: a binary and its `run` arguments (without `--out`).
    struct Side {
        var label: String
        var executable: String
        var arguments: [String]
    }

    enum Mode {
        case traces(String, String)
        case runs(ScenarioOptions, against: Against)
    }

    enum Against {
        case binary(String)
        case variants(String)
        case scenario(String)
    }

    var mode: Mode
    var start: Int64 = 0

    init(_ parsed: ParsedArguments) throws(CLIError) {
        let againsts = ["against", "against-variants", "against-scenario"].filter { parsed.options[$0] != nil }
        if parsed.flags.contains("traces") {
            guard againsts.isEmpty else { throw .usage("--traces compares two files; it takes no --\(againsts[0])", command: "diverge") }
            try parsed.noExtraPositionals(after: 2)
            mode = .traces(try parsed.positional(0, "first event file A"), try parsed.positional(1, "second event file B"))
            return
        }
        try parsed.noExtraPositionals(after: 1)
        let options = try ScenarioOptions(parsed)
        guard againsts.count == 1 else {
            throw .usage("diverge needs exactly one of --against, --against-variants, --against-scenario or --traces, found \(againsts.isEmpty ? "none" : againsts.map { "--\($0)" }.joined(separator: ", "))", command: "diverge")
        }
        let value = parsed.options[againsts[0]]!
        switch againsts[0] {
        case "against": mode = .runs(options, against: .binary(value))
        case "against-variants":
            _ = try ScenarioOptions.variants(value, command: "diverge", option: "against-variants")
            mode = .runs(options, against: .variants(value))
        default: mode = .runs(options, against: .scenario(value))
        }
    }

    mutating func validate() throws(CLIError) {
        switch mode {
        case .traces(let a, let b):
            for path in [a, b] where !FileManager.default.isReadableFile(atPath: path) {
                throw .input("\(path): expected an event file (run --record-events FILE), found no readable file")
            }
        case .runs(var options, let against):
            let scenario = try options.load()
            start = scenario.startUnixSeconds * 1_000_000
            // Without --seed both sides run the first file's seed, given to each side
            // explicitly (another scenario file may name another seed).
            if options.seed == nil {
                options.seed = scenario.seed
                mode = .runs(options, against: against)
            }
            switch against {
            case .binary(let path):
                guard FileManager.default.isExecutableFile(atPath: path) else {
                    throw .input("--against \(path): expected an executable \(options.runner) build, found no executable file")
                }
            case .scenario(let path):
                var other = options
                other.path = path
                _ = try other.load()
            case .variants: break
            }
        }
    }

    func run(_ context: Context) throws(CLIError) -> Int32 {
        switch mode {
        case .traces(let a, let b):
            guard let left = FileHandle(forReadingAtPath: a), let right = FileHandle(forReadingAtPath: b) else {
                throw .input("cannot read '\(a)' or '\(b)'")
            }
            let result = try Self.firstDivergence(LineReader(left), LineReader(right), names: (a, b))
            return report(result, names: (a, b), start: nil)
        case .runs(let options, let against):
            let sides = Self.sides(options, against: against, this: Self.thisExecutable(context))
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fleetsim-diverge-\(ProcessInfo.processInfo.processIdentifier)")
            defer { try? FileManager.default.removeItem(at: dir) }
            // 1. The reports' hashes: whether, and where, the runs differ.
            var hashes: [JSONValue] = [], reports: [JSONValue] = []
            for (k, side) in [sides.0, sides.1].enumerated() {
                let out = dir.appendingPathComponent("side\(k)").path
                let errors = dir.appendingPathComponent("side\(k).stderr")
                let status = try Self.execute(side, extra: ["--out", out, "--quiet"], stderr: errors)
                guard status == 0 || status == 1 else {
                    let text = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
                    throw .input("\(side.label): '\(side.executable) \((side.arguments).joined(separator: " "))' exited \(status): \(text.trimmingCharacters(in: .whitespacesAndNewlines))")
                }
                guard FileManager.default.fileExists(atPath: out + "/report.json") else {
                    throw .input("\(side.label): '\(side.executable) run ... --out DIR' exited \(status) but wrote no report; is \(side.executable) a \(context.runner) build?")
                }
                let report = try Compare.readJSON(out + "/report.json", "a report.json")
                guard let hash = report["events"]?["hash"] else {
                    throw .input("\(side.label): report.json has no events.hash; is \(side.executable) a build with event hashes?")
                }
                hashes.append(hash)
                reports.append(report)
            }
            if hashes[0] == hashes[1] {
                let same = "events.hash.total \(Self.string(hashes[0]["total"])), \(Self.string(hashes[0]["delivered"])) events"
                let outcomes = Self.outcomeDifferences(reports[0], reports[1], labels: (sides.0.label, sides.1.label))
                guard outcomes.isEmpty else {
                    // The hash covers which events were delivered, not what the logic did
                    // inside them (a second setTaskCompleted is an effect, not an event).
                    print("The runs delivered the same events (\(same)), but their outcomes differ: the logic acted differently within the same events.")
                    outcomes.forEach { print($0) }
                    return 1
                }
                print("No divergence: both runs delivered the same events (\(same)).")
                return 0
            }
            print(Self.hashDifferences(hashes[0], hashes[1], labels: (sides.0.label, sides.1.label)))
            // 2. Both event streams in lockstep, up to the first difference.
            let left = Pipe(), right = Pipe()
            let a = try Self.launch(sides.0, extra: ["--out", dir.appendingPathComponent("stream0").path, "--quiet", "--record-events", "-"], stdout: left)
            let b = try Self.launch(sides.1, extra: ["--out", dir.appendingPathComponent("stream1").path, "--quiet", "--record-events", "-"], stdout: right)
            defer {
                // SIGKILL: a child may have inherited a mask that blocks SIGTERM (a
                // test runner's threads), and it may be blocked writing to its pipe.
                try? left.fileHandleForReading.close()
                try? right.fileHandleForReading.close()
                for p in [a, b] where p.isRunning { kill(p.processIdentifier, SIGKILL) }
                a.waitUntilExit()
                b.waitUntilExit()
            }
            let result = try Self.firstDivergence(LineReader(left.fileHandleForReading), LineReader(right.fileHandleForReading),
                                                  names: (sides.0.label, sides.1.label))
            return report(result, names: (sides.0.label, sides.1.label), start: start)
        }
    }

    /// The outcome of a lockstep comparison.
    enum Outcome: Equatable {
        /// `reorderedAt`: the first instant whose events came in another order on the two
        /// sides (nil: none did).
        case identical(events: Int, reorderedAt: Int64?)
        /// The 1-based line number, both sides' lines (nil: that side has no more events
        /// at that instant, `ended` when its stream ended), the last event both sides
        /// delivered, and the first instant before it whose events came in another order.
        case diverged(line: Int, left: EventLine?, right: EventLine?, lastCommon: EventLine?, ended: Bool, reorderedAt: Int64?)
    }

    /// Reads both streams one instant at a time in lockstep and stops at the first
    /// instant whose events differ. Within an instant the events are compared as a
    /// multiset (by device and hash): the order of events of one instant is the
    /// queue's tie-break, so a pure reordering is never a divergence (it is noted).
    /// Memory: one instant's lines per side.
    static func firstDivergence(_ a: LineReader, _ b: LineReader, names: (String, String)) throws(CLIError) -> Outcome {
        let left = InstantReader(a, name: names.0), right = InstantReader(b, name: names.1)
        var n = 0
        var last: EventLine?
        var reordered: Int64?
        while true {
            let x = try left.next(), y = try right.next()
            if x.isEmpty && y.isEmpty { return .identical(events: n, reorderedAt: reordered) }
            guard let tx = x.first?.microseconds, let ty = y.first?.microseconds, tx == ty else {
                // One side has an instant the other has not (or has ended): its first event.
                return .diverged(line: n + 1, left: x.first, right: y.first, lastCommon: last, ended: x.isEmpty || y.isEmpty, reorderedAt: reordered)
            }
            if x.count == y.count, zip(x, y).allSatisfy({ $0.sameEvent(as: $1) }) {
                n += x.count
                last = x.last
                continue
            }
            let onlyLeft = unmatched(x, in: y), onlyRight = unmatched(y, in: x)
            if onlyLeft == nil && onlyRight == nil {
                reordered = reordered ?? tx
                n += x.count
                last = x.last
                continue
            }
            // The first event, in the left stream's order (else the right's), without a
            // counterpart; the events before it at this instant were delivered by both.
            let first = onlyLeft ?? onlyRight!
            let before = onlyLeft == nil ? y[..<first] : x[..<first]
            return .diverged(line: n + first + 1, left: onlyLeft.map { x[$0] }, right: onlyRight.map { y[$0] }, lastCommon: before.last ?? last,
                             ended: onlyLeft == nil ? left.ended : right.ended, reorderedAt: reordered)
        }
    }

    /// The index of the first line of `lines` that `other` has no counterpart for (the
    /// same event, each used once), or nil when every line has one.
    static func unmatched(_ lines: [EventLine], in other: [EventLine]) -> Int? {
        var pool: [String: Int] = [:]
        for e in other { pool["\(e.device ?? -1) \(e.hash)", default: 0] += 1 }
        for (i, e) in lines.enumerated() {
            let key = "\(e.device ?? -1) \(e.hash)"
            guard let left = pool[key], left > 0 else { return i }
            pool[key] = left - 1
        }
        return nil
    }

    static func parse(_ line: Substring, _ name: String, _ n: Int) throws(CLIError) -> EventLine {
        guard let e = EventLine(line) else {
            throw .input("\(name): line \(n): expected 'MICROSECONDS DEVICE HASH DESCRIPTION', found '\(line.prefix(80))'")
        }
        return e
    }

    func report(_ outcome: Outcome, names: (String, String), start: Int64?) -> Int32 {
        switch outcome {
        case .identical(let n, let reordered):
            print("No divergence: \(n) events, the same on both sides.")
            if let reordered { print(Self.reorderNote(reordered, start: start)) }
            return 0
        case .diverged(let line, let l, let r, let last, let ended, let reordered):
            let first = [l, r].compactMap { $0 }.min { $0.microseconds < $1.microseconds }!
            let missing = ended ? "(no more events)" : "(no more events at this instant)"
            print("First divergence at event \(line):")
            print("  time    \(Self.time(first.microseconds, start: start))")
            print("  device  \(first.device.map(String.init) ?? "- (fleet-wide event)")")
            print("  \(names.0): \(l.map { Self.describe($0) } ?? missing)")
            print("  \(names.1): \(r.map { Self.describe($0) } ?? missing)")
            print("  last event both delivered: \(last.map { Self.describe($0) } ?? "(none: the first event differs)")")
            if let reordered { print(Self.reorderNote(reordered, start: start)) }
            return 1
        }
    }

    /// Said when an earlier instant's events came in another order: not a divergence.
    static func reorderNote(_ microseconds: Int64, start: Int64?) -> String {
        "Note: the same events came in another order at \(time(microseconds, start: start)), the first such instant: the same-instant tie-break, not a divergence."
    }

    static func time(_ microseconds: Int64, start: Int64?) -> String {
        let since = "\(HumanUnits.duration(microseconds: microseconds)) since start (\(microseconds) µs)"
        guard let start else { return since }
        return "\(DeliveredEvent.utc(unixMicroseconds: start + microseconds)), \(since)"
    }

    static func describe(_ e: EventLine) -> String {
         "t=\(e.microseconds) µs device \(e.device.map(String.init) ?? "-") hash \(e.hash) \(e.description)"
    }

    /// Which parts of `events.hash` differ: total, fleet, cohorts, device buckets.
    static func hashDifferences(_ a: JSONValue, _ b: JSONValue, labels: (String, String)) -> String {
        var lines = ["The event streams differ (events.hash):"]
        for key in ["delivered", "total", "fleet"] where a[key] != b[key] {
            lines.append("  \(key): \(string(a[key])) (\(labels.0)) vs \(string(b[key])) (\(labels.1))")
        }
        for key in ["byCohort", "byBucket"] {
            guard case .array(let x)? = a[key], case .array(let y)? = b[key] else { continue }
            let differing = (0..<max(x.count, y.count)).filter { $0 >= x.count || $0 >= y.count || x[$0] != y[$0] }
            guard !differing.isEmpty else { continue }
            let shown = differing.prefix(16).map(String.init).joined(separator: ", ")
            let what = key == "byCohort" ? "cohorts (index)" : "device buckets (device id mod 256)"
            lines.append("  \(differing.count) \(what) differ: \(shown)\(differing.count > 16 ? ", ..." : "")")
        }
        return lines.joined(separator: "\n")
    }

    /// The outcome figures that differ between two reports of the same events: invariant
    /// violations and the expectations' verdicts, as `  invariants.violations: 454 (A) vs 0 (B)`.
    static func outcomeDifferences(_ a: JSONValue, _ b: JSONValue, labels: (String, String)) -> [String] {
        var lines: [String] = []
        if a["invariants"]?["violations"] != b["invariants"]?["violations"] {
            lines.append("  invariants.violations: \(string(a["invariants"]?["violations"])) (\(labels.0)) vs \(string(b["invariants"]?["violations"])) (\(labels.1))")
        }
        func verdicts(_ r: JSONValue) -> [String] {
            guard case .array(let entries)? = r["expect"] else { return [] }
            return entries.map { "\(string($0["metric"])) \(string($0["verdict"]))" }
        }
        if verdicts(a) != verdicts(b) {
            lines.append("  expectations: \(verdicts(a).joined(separator: ", ")) (\(labels.0)) vs \(verdicts(b).joined(separator: ", ")) (\(labels.1))")
        }
        return lines
    }

    static func string(_ v: JSONValue?) -> String {
        switch v {
        case .string(let s)?: return s
        case .number(_, let literal)?: return literal
        default: return "(none)"
        }
    }

    /// The two sides: this build with the given options, and the other configuration.
    static func sides(_ options: ScenarioOptions, against: Against, this: String) -> (Side, Side) {
        let common = ["--seed", String(options.seed ?? 0)] + options.replayArguments
        let base = Side(label: "this build", executable: this, arguments: ["run", options.path] + common)
        switch against {
        case .binary(let path):
            return (base, Side(label: path, executable: path, arguments: ["run", options.path] + common))
        case .variants(let list):
            var other = options
            other.variants = (list, [])
            var mine = base
            mine.label = "variants \(options.variants?.text ?? "(the file's)")"
            return (mine, Side(label: "variants \(list)", executable: this, arguments: ["run", options.path, "--seed", String(options.seed ?? 0)] + other.replayArguments))
        case .scenario(let path):
            var mine = base
            mine.label = options.path
            return (mine, Side(label: path, executable: this, arguments: ["run", path] + common))
        }
    }

    /// This binary's path (the kernel's link, so a bare `fleetsim` found on PATH works too).
    static func thisExecutable(_ context: Context) -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? context.executable
    }

    static func launch(_ side: Side, extra: [String], stdout: Pipe?, stderr: FileHandle = .nullDevice) throws(CLIError) -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: side.executable)
        p.arguments = side.arguments + extra
        p.standardOutput = stdout ?? FileHandle.nullDevice
        p.standardError = stderr
        do { try p.run() } catch { throw .input("\(side.label): cannot start \(side.executable): \(error)") }
        return p
    }

    /// Runs one side to its end, its stderr into the file `stderr`.
    static func execute(_ side: Side, extra: [String], stderr: URL) throws(CLIError) -> Int32 {
        try? FileManager.default.createDirectory(at: stderr.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: stderr.path, contents: nil), let errors = FileHandle(forWritingAtPath: stderr.path) else {
            throw .input("cannot write \(stderr.path)")
        }
        defer { try? errors.close() }
        let p = try launch(side, extra: extra, stdout: nil, stderr: errors)
        p.waitUntilExit()
        return p.terminationStatus
    }
}
