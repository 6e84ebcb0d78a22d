import Testing
@testable import Reports

/// A latency row whose tail the run can explain says so, from figures already in the report.
@Suite struct LatencyTailTests {
    static func summary(p50: Double, p99: Double) -> ReportValue {
        ["count": 100, "p50": .fixed(p50, 6), "p90": .fixed(p99 / 2, 6), "p95": .fixed(p99, 6), "p99": .fixed(p99, 6), "max": .fixed(p99, 6)]
    }

    static func report(heldForQuietHours: Int64 = 608) -> ReportValue {
        [
            // As report.json writes them: one key per priority, its name holding the dot.
            "latency": ["pushCreatedToDelivered.high": summary(p50: 0.5, p99: 38_520), "pushCreatedToDelivered.blocking": summary(p50: 0.5, p99: 38_520),
                        "stepsRecordedToSynced": summary(p50: 600, p99: 6_000),
                        "refreshTaskDuration": summary(p50: 0, p99: 59.9),
                        "continuationCompletedToNotified": summary(p50: 10, p99: 99)],
            "push": ["heldForQuietHours": .count(heldForQuietHours)],
            "scheduling": ["dozeDeferrals": 22_689, "dozeDeferral": summary(p50: 300, p99: 35_836)],
            "simulated": ["duration": .seconds(604_800_000_000)],
            "backend": ["unanswered": 4_324, "load": ["faults": [["kind": "backendOutage", "start": .fixed(172_800, 6), "end": .fixed(183_600, 6)],
                                                                 ["kind": "appTermination", "start": .fixed(0, 6), "end": .fixed(604_800, 6)]]]],
        ]
    }

    /// A feature's declared clauses (``FeatureSection/tailMechanisms``) explain its own tails.
    static let feature = FeatureSection(id: "f", tocLabel: "F", tailMechanisms: { r, name in
        name == "stepsRecordedToSynced" ? [LatencyTail.dozeDeferredJobs(r), LatencyTail.workManagerLate(r)].compactMap { $0 } + LatencyTail.backendOutages(r) : []
    }, build: { _ in ReportSection(id: "f", title: "F", blocks: []) })

    @Test func aTailNamesTheClausesItsFeatureDeclaresForIt() {
        let notes = LatencyTail.notes(Self.report(), names: ["pushCreatedToDelivered.blocking", "stepsRecordedToSynced"], features: [Self.feature])
        #expect(notes.count == 2)
        // No feature names a clause for it: a tail without a counted cause says so.
        #expect(notes[0] == "Tail of pushCreatedToDelivered.blocking (p90 5.3 h, p99 10.7 h against p50 500 ms): no delay this report counts reaches it.")
        #expect(notes[1].contains("22,689 Android jobs were deferred by Doze (p95 10.0 h, max 10.0 h; scheduling.dozeDeferral)"))
        #expect(notes[1].contains("a backend outage from +2 d to +2 d 03:00 (3.0 h) left requests unanswered until a retry after it (4,324 in the run"))
        // A fault over the whole run is not an outage window; WorkManager was never late.
        #expect(!notes[1].contains("appTermination") && !notes[1].contains("WorkManager"))
    }

    @Test func onlyATailOfAMinuteAndTenTimesTheMedianIsNoted() {
        // refreshTaskDuration: p99 59.9 s, under a minute; continuation: p99 99 s < 10 × 10 s.
        #expect(LatencyTail.notes(Self.report(), names: ["refreshTaskDuration", "continuationCompletedToNotified"]).isEmpty)
        let boundary: ReportValue = ["latency": ["x": Self.summary(p50: 6, p99: 60)]]
        #expect(LatencyTail.notes(boundary, names: ["x"]).count == 1)
        #expect(LatencyTail.notes(["latency": ["x": Self.summary(p50: 6.1, p99: 60)]], names: ["x"]).isEmpty)
    }

    @Test func theNotesStandUnderTheLatencyTable() {
        guard case .object(var document) = SampleReport.document(), case .object(var latency)? = document["latency"] else { Issue.record("sample"); return }
        latency["pushCreatedToDelivered.high"] = Self.summary(p50: 0.5, p99: 38_520)
        document["latency"] = .object(latency)
        let held = FeatureSection(id: "f", tocLabel: "F", tailMechanisms: { _, name in name.hasSuffix(".high") ? ["608 were held"] : [] },
                                  build: { _ in ReportSection(id: "f", title: "F", blocks: []) })
        let md = MarkdownReport.render(.object(document), features: [held])
        #expect(md.contains("Tail of pushCreatedToDelivered.high (p90 5.3 h, p99 10.7 h against p50 500 ms): what in this run delays these samples: 608 were held."))
    }
}
