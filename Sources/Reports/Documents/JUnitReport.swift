/// `junit.xml`: one test case per invariant kind and per expectation, for CI dashboards.
///
/// Rules:
/// - A failure's `message` says value and limit in human units; its body lists value,
///   limit and the first violations of that kind with their replay commands.
/// - An inconclusive expectation is a `skipped` test case whose `message` gives value,
///   limit, n and the confidence interval (CI dashboards show skipped cases with their
///   message, unlike a passing case's output); with `strict` (`--strict`) a `failure`
///   of type `inconclusive`.
/// - The suite's `time` is wall time, as a CI dashboard reads it (a 7-day run is not a
///   7-day test): the run's, or a merge's the sum of its runs' (``WallTime``); its
///   `timestamp` the wall-clock start where known (UTC, no zone, no fraction). Its
///   `properties` say which (`wallTime`) and give the simulated start and duration
///   (`simulated.start`, `simulated.duration` in seconds). Wall time lives here and in
///   report.md, never in report.json, whose bytes stay the same for the same scenario
///   and seed. Each case takes no time of its own.
public enum JUnitReport {
    /// The wall time a junit.xml reports.
    public struct WallTime: Sendable, Equatable {
        public var seconds: Double
        /// `YYYY-MM-DDTHH:MM:SS` (UTC), or nil when unknown.
        public var start: String?
        /// What `seconds` is, for the `wallTime` property.
        public var means: String

        public init(seconds: Double, start: String?, means: String) {
            self.seconds = seconds; self.start = start; self.means = means
        }
    }

    /// The suite's time and timestamp come from `wall`; without it (a document rendered
    /// on its own) the time is 0 and there is no timestamp.
    public static func render(_ r: ReportValue, strict: Bool = false, wall: WallTime? = nil) -> String {
        let name = xml(r.lookup("scenario")?.stringValue ?? "fleetsim")
        let samples = r.lookup("invariants.samples")?.arrayValue ?? []
        var cases = ""
        var failures = 0, skipped = 0
        let kinds = r.lookup("invariants.byKind")?.objectValue ?? [:]
        for kind in kinds.keys.sorted() {
            let n = kinds[kind]?.intValue ?? 0
            cases += "  <testcase classname=\"\(name).invariants\" name=\"\(xml(kind))\" time=\"0\">"
            if n > 0 {
                failures += 1
                var body = "\(HumanUnits.count(n)) violation(s) of \(kind); limit 0.\n"
                for s in samples where s.lookup("kind")?.stringValue == kind {
                    let time = s.lookup("time")?.doubleValue.map { HumanUnits.duration(seconds: $0) } ?? "?"
                    body += "device \(ReportSections.str(s, "device")) at \(time): \(ReportSections.str(s, "detail"))\n  replay: \(ReportSections.str(s, "replay"))\n"
                }
                body += ReportSections.replayNote(samples: samples) + "\n"
                cases += "<failure message=\"\(xml("\(kind): \(HumanUnits.count(n)) violation(s), limit 0"))\" type=\"invariant\">\(xml(body))</failure>"
            }
            cases += "</testcase>\n"
        }
        let expectations = ReportSections.expectations(r)
        for e in expectations {
            cases += "  <testcase classname=\"\(name).expect\" name=\"\(xml(e.metric))\" time=\"0\">"
            let message = "\(e.metric) = \(e.valueText), limit \(e.limitText)" + (e.verdict == .inconclusive ? ": \(e.verdictText)" : "")
            if e.isFailure(strict: strict) {
                failures += 1
                var body = "metric: \(e.metric)\nvalue: \(e.valueText)\nlimit: \(e.limitText)\n"
                    + (e.evidenceText.map { "samples: \($0)\n" } ?? "") + "verdict: \(e.verdictText)\n"
                    + "scenario: \(ReportSections.str(r, "scenario")), seed \(ReportSections.str(r, "seed"))\n"
                for s in samples.prefix(3) {
                    body += "violation \(ReportSections.str(s, "kind")) on device \(ReportSections.str(s, "device"))\n  replay: \(ReportSections.str(s, "replay"))\n"
                }
                let type = e.verdict == .inconclusive ? "inconclusive" : "expectation"
                cases += "<failure message=\"\(xml(message))\" type=\"\(type)\">\(xml(body))</failure>"
            } else if e.verdict == .inconclusive {
                skipped += 1
                cases += "<skipped message=\"\(xml(message + " (not a failure without --strict)"))\"/>"
            }
            cases += "</testcase>\n"
        }
        let time = FixedDecimal.format(wall?.seconds ?? 0, digits: 3) ?? "0"
        let timestamp = wall?.start.map { " timestamp=\"\(xml($0))\"" } ?? ""
        let properties = [("wallTime", wall?.means ?? "not measured"),
                          ("simulated.start", r.lookup("simulated.start")?.stringValue ?? ""),
                          ("simulated.duration", FixedDecimal.format(r.lookup("simulated.duration")?.doubleValue ?? 0, digits: 3) ?? "0")]
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuite name=\"\(name)\" tests=\"\(kinds.count + expectations.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\"\(timestamp) time=\"\(time)\">\n"
            + "  <properties>" + properties.map { "<property name=\"\($0.0)\" value=\"\(xml($0.1))\"/>" }.joined() + "</properties>\n"
            + "\(cases)</testsuite>\n"
    }

    private static func xml(_ text: String) -> String { XMLText.escape(text) }
}
