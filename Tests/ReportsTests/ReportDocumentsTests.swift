import Foundation
import Testing
@testable import Reports

/// A small report.json document: one failed expectation (p95 = 75.9 h against 72 h), two
/// violations of one kind with replay commands, a load series with one spike and a fault.
enum SampleReport {
    static func document(failing: Bool = true, spike: Double = 120) -> ReportValue {
        var notified = LatencyHistogram()
        for i in 1...100 { notified.record(Int64(i) * 2_732_672_942) }  // up to 75.9 h
        var zeros = LatencyHistogram()
        zeros.record(0, count: 5)
        var load = [Double](repeating: 0.5, count: 1_008)
        load[500] = spike
        let samples: ReportValue = failing ? [
            ["kind": "taskCompletedTwice", "device": 48, "time": .seconds(958_013_000), "detail": "setTaskCompleted called 2 times",
             "replay": "fleetsim replay scenarios/races/unguarded-completion.json --seed 1 --device 48 --from 658s --to 1018s"],
        ] : []
        return [
            "scenario": "race", "seed": 1, "fleetsimVersion": "0.2.0",
            "simulated": ["devices": 300, "duration": .seconds(172_800_000_000), "events": 68_036, "start": "2026-03-02T00:00:00.000Z"],
            "latency": ["testAvailableToNotified": notified.latencySummary(), "refreshTaskDuration": LatencyHistogram().latencySummary()],
            "invariants": ["checked": 1_000, "violations": failing ? 2 : 0, "byKind": ["taskCompletedTwice": failing ? 2 : 0, "stepsNeverSynced": 0],
                           "samples": samples],
            "expect": [
                ["metric": "latency.testAvailableToNotified.p95", "min": .null, "max": .fixed(259_200, 6),
                 "value": .fixed(failing ? 273_267.294207 : 1_000, 6), "pass": .bool(!failing)],
                ["metric": "invariants.violations", "min": .null, "max": .fixed(0, 6), "value": .fixed(failing ? 2 : 0, 6), "pass": .bool(!failing)],
            ],
            "battery": ["ios-daily": ["appEnergyPerDeviceDay": ["mAh": ["p50": .fixed(0.915736, 4), "p95": .fixed(12.34, 4)]], "devicesOverBudget": 0]],
            "backend": [
                "queueing": zeros.latencySummary(),
                "requests": ["total": 688_275, "byEndpoint": ["/api/v1/steps/sync": 579_676, "/v1/test/history": 108_599]],
                "requestsPerSecond": ["peak": .fixed(1_046, 1)],
                "capacity": ["workers": 32],
                "load": ["bucketSeconds": 600,
                         "requestsPerSecond": ["/a": .array(load.map { .fixed($0, 3) }), "/b": .array(load.map { .fixed($0, 3) })],
                         "apiRejectedPerSecond": .array(load.map { _ in .fixed(0, 3) }),
                         "faults": [["kind": "backendOutage", "start": .fixed(172_800, 6), "end": .fixed(183_600, 6)]]],
            ],
        ]
    }
}

@Suite struct ReportDocumentsTests {
    /// Six-decimal numbers are report.json's raw seconds; a person never reads them.
    static func hasRawSeconds(_ text: String) -> Bool {
        text.range(of: #"[0-9]\.[0-9]{6}"#, options: .regularExpression) != nil
    }

    @Test func htmlHasEverySectionTheBannerFirstAndNoExternalAsset() {
        let html = HTMLReport.render(SampleReport.document())
        for id in ReportSections.ids { #expect(html.contains("<section id=\"\(id)\""), "missing section \(id)") }
        let toc = html.range(of: "<nav class=\"toc\">"), banner = html.range(of: "<section id=\"verdict\" class=\"banner fail\">")
        let expectations = html.range(of: "<section id=\"expectations\">")
        let failures = html.range(of: "<section id=\"failures\">"), latency = html.range(of: "<section id=\"latency\">")
        #expect(toc != nil && banner != nil && expectations != nil && failures != nil && latency != nil)
        if let toc, let banner, let expectations, let failures, let latency {
            #expect(toc.lowerBound < banner.lowerBound && banner.lowerBound < expectations.lowerBound
                && expectations.lowerBound < failures.lowerBound && failures.lowerBound < latency.lowerBound)
        }
        // The table of contents links every section, stays at the top, and is the page's only kind of link.
        for id in ReportSections.ids { #expect(html.contains("<a href=\"#\(id)\""), "no link to \(id)") }
        #expect(html.contains("<a href=\"#verdict\" class=\"fail\">FAIL</a>") && html.contains("nav.toc{position:sticky;top:0"))
        #expect(html.components(separatedBy: "href=\"").count == html.components(separatedBy: "href=\"#").count)
        // Every expectation, right under the banner, with ✓/✗.
        #expect(html.contains("<td class=\"n\">✗ FAIL</td></tr>"))
        #expect(HTMLReport.render(SampleReport.document(failing: false)).contains("<tr class=\"pass\"><td>invariants.violations</td>"))
        // A replay command wraps anywhere (an 800 px window) and selects whole with one click.
        #expect(html.contains("<code class=\"replay\" title=\"one click selects the whole command\">fleetsim replay"))
        #expect(html.contains("code.replay span.arg{white-space:nowrap}"))
        #expect(html.contains("code.replay{display:block;") && html.contains("white-space:pre-wrap;overflow-wrap:anywhere;user-select:all"))
        // An option and its value never part across a line; the text is the command as it is.
        #expect(html.contains("fleetsim replay scenarios/races/unguarded-completion.json <span class=\"arg\">--seed 1</span> <span class=\"arg\">--device 48</span>"))
        #expect(HTMLReport.command("x -a --b 2 --c") == "x <span class=\"arg\">-a</span> <span class=\"arg\">--b 2</span> <span class=\"arg\">--c</span>")
        #expect(HTMLReport.command("'/opt/a b/fleetsim' replay <s>.json").replacingOccurrences(of: "&apos;", with: "'") == "'/opt/a b/fleetsim' replay &lt;s&gt;.json")
        #expect(html.contains("<td>latency.testAvailableToNotified.p95</td><td class=\"n\">75.9 h</td><td class=\"n\">≤ 72.0 h</td>"))
        #expect(!html.contains("<script") && !html.contains("src=") && !html.contains("url("))
        #expect(!Self.hasRawSeconds(html))
        #expect(HTMLReport.render(SampleReport.document()) == html)
        #expect(HTMLReport.render(SampleReport.document(failing: false)).contains("class=\"banner pass\""))
        // A failed row is coloured text on the page's background: the verdict colours fill
        // only the banner (a row of class fail or inconclusive was its colour on its colour).
        #expect(html.contains("<tr class=\"fail\">") && html.contains("tr.fail td{color:#c0392b"))
        for verdict in ["pass", "fail", "inconclusive"] {
            #expect(html.contains(".banner.\(verdict){background:") && !html.contains("}.\(verdict){background:"))
        }
    }

    @Test func latencyChartDrawsTheLimitOfItsExpectationAndEmptyOnesAreNamed() {
        let html = HTMLReport.render(SampleReport.document())
        #expect(html.contains("limit: p95 ≤ 72.0 h"))
        #expect(html.contains("No samples (no chart): refreshTaskDuration."))
        #expect(html.contains("<title>testAvailableToNotified: cumulative share of 100 samples</title>"))
        #expect(!html.contains("refreshTaskDuration: cumulative share"))
        #expect(html.contains("API queueing (wait for a worker): all 5 samples were 0 (no chart)."))
        #expect(html.contains("<title>ios-daily: 12.3 mAh</title>"))
    }

    @Test func loadChartMarksThePeakTheTotalAndTheFaultAndOmitsAllZeroSeries() {
        let html = HTMLReport.render(SampleReport.document())
        // Two series of 120 at bucket 500 (600 s each): total 240 at +3 d 11:20.
        #expect(html.contains("max 240 req/s at +3 d 11:20"))
        #expect(html.contains("<li><span style=\"background:#222222\"></span>total</li>"))
        #expect(html.contains("backendOutage: +2 d to +2 d 03:00"))
        #expect(html.contains("Zero for the whole run (no chart): API rejected per second."))
        #expect(!html.contains("API rejected per second (req/s)"))
    }

    /// The shape the simulator writes: per-minute rates with their `total`, count twins
    /// (`requests`, `apiRejected`), the peak minute, and a fault over the whole run.
    @Test func loadChartsDrawTheGivenTotalOnceAndNameWholeRunFaults() {
        var r = SampleReport.document()
        let minutes = 2 * 1_440
        var a = [Double](repeating: 0.5, count: minutes), b = a
        a[700] = 3; b[700] = 1.5
        let total = zip(a, b).map { $0 + $1 }
        func rates(_ v: [Double]) -> ReportValue { .array(v.map { .fixed($0, 3) }) }
        func counts(_ v: [Double]) -> ReportValue { .array(v.map { .count(Int64($0 * 60)) }) }
        guard case .object(var document) = r, case .object(var backend)? = document["backend"] else { Issue.record("sample"); return }
        backend["requestsPerSecond"] = ["peak": .fixed(4.5, 3), "peakSecond": .fixed(9, 1)]
        backend["load"] = ["bucketSeconds": 60,
                           "requestsPerSecond": ["/a": rates(a), "/b": rates(b), "total": rates(total)],
                           "requests": ["/a": counts(a), "/b": counts(b), "total": counts(total)],
                           "apiRejectedPerSecond": rates(a.map { $0 > 1 ? 0.5 : 0 }), "apiRejected": counts(a.map { $0 > 1 ? 0.5 : 0 }),
                           "apiBusyWorkersPeak": .array(a.map { .count(Int64($0 * 2)) }), "apiHeadroomOverTime": .array(a.map { .fixed(1 - $0 / 16, 4) }),
                           "peak": ["at": .seconds(42_000_000_000), "requests": 270, "requestsPerSecond": .fixed(4.5, 3), "busyWorkers": 7, "headroom": .fixed(0.75, 4),
                                    "cause": "healthKitDelivery", "byCause": ["healthKitDelivery": 200, "appOpen": 70], "byEndpoint": ["/a": 270]],
                           "peakSecond": ["at": .seconds(42_013_000_000), "requests": 9],
                           "faults": [["kind": "backendOutage", "start": .seconds(36_000_000_000), "end": .seconds(43_200_000_000)],
                                      ["kind": "appTermination", "start": .seconds(0), "end": .seconds(172_800_000_000)]]]
        document["backend"] = .object(backend)
        r = .object(document)
        let html = HTMLReport.render(r)
        // The given total is the total line (not summed again with itself): peak 4.5 at minute 700,
        // marked at the table's busiest minute and named by its cause.
        #expect(html.contains("busiest minute: HealthKit delivery 4.50 req/s at +11:40"))
        #expect(html.contains("class=\"peak-mark\" data-at=\"42000\""))
        // The other load charts draw the table's busiest minute as a line (the requests chart marks it already).
        #expect(html.components(separatedBy: "class=\"busiest-minute\" data-at=\"42000\"").count == 3)
        #expect(html.contains("HealthKit delivery (causes: HealthKit delivery 200, app open 70; endpoints: /a 270)"))
        #expect(html.components(separatedBy: "<title>total</title>").count == 2)
        // Counts are not drawn a second time beside their rates.
        #expect(html.contains("API rejected per second (req/s)"))
        #expect(!html.contains("<title>Requests</title>") && !html.contains("<title>API rejected</title>"))
        // Headroom is the gap under the capacity line of the busy-workers chart, not a chart of its own.
        #expect(html.contains("<title>API busy workers peak (workers)</title>") && html.contains("capacity 32"))
        #expect(!html.contains("API headroom over time"))
        #expect(html.contains("backendOutage: +10 h to +12 h"))
        #expect(html.contains("In force for the whole run (no band): appTermination."))
        #expect(!html.contains("appTermination: start to"))
        #expect(html.contains("4.50 req/s at +11:40") && html.contains("9.00 req/s at +11:40"))
        #expect(html.contains("75.0 %") && html.contains("The backend never saturated"))
    }

    @Test func foldingKeepsThePeakOfALongSeries() {
        // 10,080 one-minute buckets fold to under one point per pixel; the spike survives.
        var values = [Double](repeating: 1, count: 10_080)
        values[7_777] = 50
        let svg = ReportSVG.render(.timeSeries(title: "t", unit: "req/s", bucketSeconds: 60, series: [("x", values)],
                                               total: false, capacity: nil, faults: []))
        #expect(svg.contains("max 50 req/s at +5 d 09:37"))
        #expect(svg.contains(",44.0 "))  // the top of the plot: 50 on an axis to 50
    }

    /// Every series of a chart has a colour of its own, up to the palette's 18 (the
    /// "Requests by cause" chart has a line per load cause; nine colours gave four pairs
    /// of causes, Doze maintenance window and WorkManager window among them, one colour).
    @Test func everySeriesOfAChartHasItsOwnColour() throws {
        let names = (0..<ReportSVG.palette.count).map { ReportSections.causeWords("cause\($0)") }
        let svg = ReportSVG.render(.timeSeries(title: "Requests by cause", unit: "req/s", bucketSeconds: 60,
                                               series: names.enumerated().map { ($1, [1, Double($0 + 2)]) }, total: true, capacity: nil, faults: []))
        let strokes = svg.components(separatedBy: "<polyline").dropFirst().compactMap { $0.components(separatedBy: "stroke=\"").dropFirst().first?.prefix(7) }
        #expect(strokes.count == names.count + 1)
        #expect(Set(strokes).count == strokes.count, "\(strokes)")
        let legend = svg.components(separatedBy: "<li><span style=\"background:").dropFirst().map { $0.prefix(7) }
        #expect(Set(legend).count == names.count + 1)
        // The palette's colours differ from each other, and from the total's and the limits'.
        #expect(Set(ReportSVG.palette + ["#222222", "#c0392b"]).count == ReportSVG.palette.count + 2)
    }

    @Test func aGivenTotalSeriesIsTheDarkLineAndNotSummedAgain() {
        let svg = ReportSVG.render(.timeSeries(title: "t", unit: "req/s", bucketSeconds: 60,
                                               series: [("/a", [1, 2, 1]), ("/b", [1, 1, 1]), ("total", [2, 3, 2])],
                                               total: false, capacity: nil, faults: []))
        #expect(svg.contains("max 3 req/s at +00:01"))
        #expect(svg.contains("stroke=\"#222222\" stroke-width=\"2.5\""))
        #expect(svg.components(separatedBy: "<polyline").count == 4)
    }

    @Test func markdownPutsTheVerdictAndFailuresFirstInHumanUnits() {
        let md = MarkdownReport.render(SampleReport.document(), wallSeconds: 1.94)
        let lines = md.split(separator: "\n").map(String.init)
        #expect(lines[1] == "## Verdict")
        #expect(lines[2].hasPrefix("**FAIL**: 2 invariant violation(s), 2 of 2 expectation(s) failed."))
        #expect(lines[2].contains("48.0 h simulated") && lines[2].contains("1.9 s of wall time") && lines[2].contains("68,036 events"))
        #expect(lines[3] == "## Expectations")
        #expect(md.contains("| latency.testAvailableToNotified.p95 | 75.9 h | ≤ 72.0 h |"))
        #expect(md.contains("## Invariant violations") && md.contains("✗ FAIL |"))
        #expect(md.contains("    fleetsim replay scenarios/races/unguarded-completion.json --seed 1 --device 48 --from 658s --to 1018s"))
        #expect(md.contains("| ios-daily |") && md.contains(" 0.92 mAh |") && md.contains(" 12.3 mAh |"))
        #expect(md.contains("| /api/v1/steps/sync |  579,676 |"))
        #expect(!Self.hasRawSeconds(md))
        #expect(!md.contains("<svg"))
    }

    @Test func junitHasACaseForEachInvariantAndExpectationWithLimitsAndReplays() {
        // The suite's time is wall time (a 2-day run is not a 2-day test), its timestamp
        // the wall-clock start; the simulated start and duration are properties.
        let wall = JUnitReport.WallTime(seconds: 12.3456, start: "2026-11-29T06:00:00", means: "this run's wall time")
        let xml = JUnitReport.render(SampleReport.document(), wall: wall)
        #expect(xml.contains("<testsuite name=\"race\" tests=\"4\" failures=\"3\" errors=\"0\" skipped=\"0\" timestamp=\"2026-11-29T06:00:00\" time=\"12.346\">\n"
                             + "  <properties><property name=\"wallTime\" value=\"this run&apos;s wall time\"/><property name=\"simulated.start\" value=\"2026-03-02T00:00:00.000Z\"/>"
                             + "<property name=\"simulated.duration\" value=\"172800.000\"/></properties>\n"), "\(xml.prefix(600))")
        #expect(!JUnitReport.render(SampleReport.document()).contains("timestamp="))
        #expect(xml.contains("<testcase classname=\"race.invariants\" name=\"stepsNeverSynced\" time=\"0\"></testcase>"))
        #expect(xml.contains("message=\"latency.testAvailableToNotified.p95 = 75.9 h, limit ≤ 72.0 h\""))
        #expect(xml.contains("message=\"taskCompletedTwice: 2 violation(s), limit 0\""))
        #expect(xml.contains("device 48 at 16 min: setTaskCompleted called 2 times\n  replay: fleetsim replay scenarios/races/unguarded-completion.json"))
        #expect(xml.components(separatedBy: "<testcase ").count == 5)
        let passing = JUnitReport.render(SampleReport.document(failing: false))
        #expect(passing.contains("failures=\"0\"") && !passing.contains("<failure"))
    }

    @Test func metricsReadInTheirUnitByPath() {
        #expect(MetricText.format(273_267.294207, path: "latency.testAvailableToNotified.p95") == "75.9 h")
        #expect(MetricText.format(0.253_940, path: "backend.pushes.apns.latency.p99") == "254 ms")
        #expect(MetricText.format(0.207, path: "push.providerLatencyP95.apns") == "207 ms")
        #expect(MetricText.format(298.8, path: "scheduling.fcm.dozeDelay.p50") == "5.0 min")
        #expect(MetricText.format(137.7, path: "battery.a.radioActiveSecondsPerDeviceDay.mean") == "2.3 min")
        #expect(MetricText.format(0.9157, path: "battery.a.energyPerRefresh.mAh.p95") == "0.92 mAh")
        #expect(MetricText.format(0.46156, path: "battery.a.appEnergyPerDeviceDay.percentOfCapacity.p95") == "0.462 %")
        #expect(MetricText.format(0.3125, path: "backend.load.apiHeadroom") == "31.3 %")
        #expect(MetricText.format(0.0004, path: "push.failureRate") == "0.04 %")
        #expect(MetricText.format(1_046.4, path: "backend.requestsPerSecond.peak") == "1,046 req/s")
        #expect(MetricText.format(688_275, path: "backend.requests.total") == "688,275")
        #expect(MetricText.format(5.335, path: "battery.a.wakeupsPerDeviceDay.mean") == "5.33")
        #expect(MetricText.format(nil, path: "latency.x.p95") == "no data")
        // A figure reads as report.json writes it: 0.0004 at 3 digits is 0.
        #expect(MetricText.lookup(["x": .fixed(0.0004, 3)], "x") == "0")
    }

    @Test func logLinearAxisAndElapsedLabelsAtTheirBoundaries() {
        #expect(ReportSVG.logLinear(0) == 0 && ReportSVG.logLinear(1) == 0)
        #expect(ReportSVG.logLinear(2) == 1 && ReportSVG.logLinear(3) == 1.5 && ReportSVG.logLinear(1_024) == 10)
        #expect(ReportSVG.elapsed(0) == "start")
        #expect(ReportSVG.elapsed(3_600) == "+1 h")
        #expect(ReportSVG.elapsed(86_399) == "+23:59")
        #expect(ReportSVG.elapsed(86_400) == "+1 d")
        #expect(ReportSVG.elapsed(95_400) == "+1 d 02:30")
    }

    @Test func sectionWordsAndLimits() {
        #expect(ReportSections.words("apiBusyWorkersPeak") == "API busy workers peak")
        #expect(ReportSections.words("pushesPerSecond") == "Pushes per second")
        let e = ReportSections.Expectation(metric: "latency.x.p95", min: 60, max: 3_600, value: nil, verdict: .fail)
        #expect(e.limitText == "between 1.0 min and 1.0 h" && e.valueText == "no data")
        // In the value's unit, however the scenario file wrote the bounds.
        let written = ReportSections.Expectation(metric: "latency.x.p95", min: 60, max: 259_200, minText: "60s", maxText: "72h",
                                                 value: nil, verdict: .fail)
        #expect(written.limitText == "between 1.0 min and 72.0 h")
        let headroom = ReportSections.Expectation(metric: "backend.load.apiHeadroom", min: 0.2, max: nil, minText: "0.2", value: 0.656, verdict: .pass)
        #expect(headroom.limitText == "≥ 20.0 %" && headroom.valueText == "65.6 %")
        let energy = ReportSections.Expectation(metric: "battery.ios.energyPerSync.mAh.p95", min: nil, max: 5, maxText: "5", value: 6.75, verdict: .fail)
        #expect(energy.limitText == "≤ 5.00 mAh" && energy.valueText == "6.75 mAh")
    }
}

/// Chart marks and legends that agree with the tables: a flat maximum is marked where
/// the table says it is first reached, zero series are named, not drawn, and a fault's
/// label is drawn over the lines.
@Suite struct ReportChartMarksTests {
    @Test func aFlatMaximumIsMarkedWhereTheTableSaysItIsFirstReached() {
        guard case .object(var document) = SampleReport.document(), case .object(var backend)? = document["backend"] else { Issue.record("sample"); return }
        backend["load"] = ["bucketSeconds": 60, "apiBusyWorkersPeak": [0, 1, 1, 0, 1],
                           "peak": ["at": .seconds(240_000_000), "busyWorkers": 1, "requests": 3]]
        document["backend"] = .object(backend)
        let html = HTMLReport.render(.object(document))
        #expect(html.contains("max 1 workers at +00:01 (first of 3 buckets at that level)"))
        #expect(html.contains("<td>most busy workers at once</td><td class=\"n\">1, first at +00:01 (3 of 5 buckets)</td>"))
        #expect(html.contains("class=\"peak-mark\" data-at=\"60\""))
        #expect(html.contains("class=\"busiest-minute\" data-at=\"240\"") && html.contains("busiest minute +00:04"))
        #expect(ReportSVG.firstMaximum([0, 0]) == nil && ReportSVG.firstMaximum([]) == nil)
        #expect(ReportSVG.firstMaximum([3, 1, 3])?.index == 0 && ReportSVG.firstMaximum([3, 1, 3])?.buckets == 2)
    }

    @Test func aSeriesThatIsZeroAllRunIsNamedButNotDrawnNorGivenASwatch() {
        let svg = ReportSVG.render(.timeSeries(title: "t", unit: "req/s", bucketSeconds: 60, series: [("/a", [1, 2]), ("/quiet", [0, 0])],
                                               total: true, capacity: nil, faults: []))
        #expect(!svg.contains("<title>/quiet</title>") && !svg.contains("</span>/quiet</li>"))
        #expect(svg.contains("<li class=\"zero\">zero all run (not drawn): /quiet</li>"))
        #expect(svg.contains("</span>/a</li>") && svg.contains("</span>total</li>"))
    }

    @Test func aFaultLabelIsDrawnAfterTheLinesWithAHalo() {
        let svg = ReportSVG.render(.timeSeries(title: "t", unit: "req/s", bucketSeconds: 60, series: [("x", [1, 5, 1, 1])],
                                               total: false, capacity: nil, faults: [("backendOutage", 60, 120)]))
        let label = svg.range(of: ">backendOutage</text>"), lastLine = svg.range(of: "</polyline>", options: .backwards)
        #expect(label != nil && lastLine != nil && lastLine!.lowerBound < label!.lowerBound)
        #expect(svg.contains("fill=\"#922b21\" stroke=\"#ffffff\" stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\">backendOutage</text>"))
    }
}
