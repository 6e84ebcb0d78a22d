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

    @Test func aTailNamesTheMechanismsOfItsOwnLatencyOnly() {
        let notes = LatencyTail.notes(Self.report(), names: ["pushCreatedToDelivered.blocking", "pushCreatedToDelivered.high", "stepsRecordedToSynced"])
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
        #expect(LatencyTail.notes(Self.report(heldForQuietHours: 0), names: ["pushCreatedToDelivered.high"])[0].contains("no delay this report counts"))
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
        document["push"] = ["heldForQuietHours": 608]
        let md = MarkdownReport.render(.object(document))
        #expect(md.contains("Tail of pushCreatedToDelivered.high (p90 5.3 h, p99 10.7 h against p50 500 ms): what in this run delays these samples: 608 pushes"))
    }
}
