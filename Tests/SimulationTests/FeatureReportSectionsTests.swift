import Foundation
import Testing
@testable import Reports
@testable import Simulation

/// The features' parts of report.md and report.html, as the world declares them
/// (``World/reportSections``): their sections in the list's order, and the clauses
/// that explain their own latencies' tails.
@Suite struct FeatureReportSectionsTests {
    static let features = ReferenceWorld.reportSections

    static func summary(p50: Double, p99: Double) -> ReportValue {
        ["count": 100, "p50": .fixed(p50, 6), "p90": .fixed(p99 / 2, 6), "p95": .fixed(p99, 6), "p99": .fixed(p99, 6), "max": .fixed(p99, 6)]
    }

    static func report(heldForQuietHours: Int64 = 608) -> ReportValue {
        [
            "latency": ["pushCreatedToDelivered.high": summary(p50: 0.5, p99: 38_520), "pushCreatedToDelivered.blocking": summary(p50: 0.5, p99: 38_520),
                        "stepsRecordedToSynced": summary(p50: 600, p99: 6_000)],
            "push": ["heldForQuietHours": .count(heldForQuietHours)],
            "scheduling": ["dozeDeferrals": 22_689, "dozeDeferral": summary(p50: 300, p99: 35_836)],
            "simulated": ["duration": .seconds(604_800_000_000)],
            "backend": ["unanswered": 4_324, "load": ["faults": [["kind": "backendOutage", "start": .fixed(172_800, 6), "end": .fixed(183_600, 6)],
                                                                 ["kind": "appTermination", "start": .fixed(0, 6), "end": .fixed(604_800, 6)]]]],
        ]
    }

    @Test func theSectionsStandInTheFeaturesOrderBetweenTheLatenciesAndTheOS() {
        let ids = ReportSections.build(Self.report(), features: Self.features).map(\.id)
        // The report has no diagnostics keys (an opt-in feature it did not run): its section is left out.
        #expect(ids == ReportSections.ids(with: Self.features).filter { $0 != "diagnostics" })
        #expect(Array(ids[4...9]) == ["latency", "refresh", "step-sync", "continuation", "push", "ios-scheduling"])
        let html = HTMLReport.render(Self.report(), features: Self.features)
        #expect(html.contains("<a href=\"#step-sync\">Step sync</a>") && html.contains("<section id=\"push\">"))
        // Without the features, the documents hold the core's sections only.
        #expect(!HTMLReport.render(Self.report()).contains("<section id=\"push\">"))
    }

    @Test func theBatteryTableHasEachFeaturesEnergyColumnAndBudget() {
        let md = MarkdownReport.render(Self.report(), features: Self.features)
        let header = md.split(separator: "\n").first { $0.contains("per day p50") }.map(String.init) ?? ""
        let columns = header.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(Array(columns.drop { $0 != "% of battery/day p95" }.prefix(4)) == ["% of battery/day p95", "per refresh p95", "per sync p95", "wakeups/day"])
        #expect(md.contains("per device and day; the budget is < 1 % of the battery per refresh."))
    }

    @Test func aTailNamesTheMechanismsOfItsOwnLatencyOnly() {
        let notes = LatencyTail.notes(Self.report(), names: ["pushCreatedToDelivered.blocking", "pushCreatedToDelivered.high", "stepsRecordedToSynced"], features: Self.features)
        #expect(notes.count == 3)
        // Blocking pushes bypass quiet hours: a tail without a counted cause says so.
        #expect(notes[0] == "Tail of pushCreatedToDelivered.blocking (p90 5.3 h, p99 10.7 h against p50 500 ms): no delay this report counts reaches it.")
        #expect(notes[1].hasPrefix("Tail of pushCreatedToDelivered.high (p90 5.3 h, p99 10.7 h against p50 500 ms): what in this run delays these samples: "
                                   + "608 pushes were held for their user's quiet hours"))
        #expect(!notes[1].contains("Doze") && !notes[1].contains("outage"))
        #expect(notes[2].contains("22,689 Android jobs were deferred by Doze (p95 10.0 h, max 10.0 h; scheduling.dozeDeferral)"))
        #expect(notes[2].contains("a backend outage from +2 d to +2 d 03:00 (3.0 h) left requests unanswered until a retry after it (4,324 in the run"))
        // A fault over the whole run is not an outage window.
        #expect(!notes[2].contains("appTermination"))
        // No quiet-hour holds counted: not named.
        #expect(LatencyTail.notes(Self.report(heldForQuietHours: 0), names: ["pushCreatedToDelivered.high"], features: Self.features)[0].contains("no delay this report counts"))
    }

}
