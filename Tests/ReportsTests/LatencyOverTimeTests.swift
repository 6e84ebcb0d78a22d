import Testing
@testable import Reports

/// report.html's latency over time, from a synthetic `latencyOverTime` (the simulation's
/// recording of it is separate): per-bucket percentiles, gaps, the worst bucket, bands.
@Suite struct LatencyOverTimeTests {
    /// Four one-hour buckets: 1…100 s, a flat 2 s, nothing, and 10 h samples.
    static func report(overTime: Bool = true, malformed: Bool = false) -> ReportValue {
        var first = LatencyHistogram(), second = LatencyHistogram(), fourth = LatencyHistogram()
        for s in 1...100 { first.record(Int64(s) * 1_000_000) }
        second.record(2_000_000, count: 10)
        fourth.record(36_000_000_000, count: 3)
        var buckets = [first, second, LatencyHistogram(), fourth].map(\.exactEncoding)
        if malformed { buckets[1] = ["layout": "linear"] }
        guard case .object(var document) = SampleReport.document(failing: false) else { return .null }
        if overTime {
            document["latencyOverTime"] = ["bucketSeconds": 3_600,
                                           "series": [["of": "latency.stepsRecordedToSynced", "histograms": .array(buckets)]]]
        }
        document["simulated"] = ["devices": 10, "duration": .seconds(14_400_000_000), "events": 1, "start": "2026-03-02T00:00:00.000Z"]
        guard case .object(var backend)? = document["backend"], case .object(var load)? = backend["load"] else { return .null }
        load["faults"] = [["kind": "backendOutage", "start": .fixed(7_200, 6), "end": .fixed(10_800, 6)]]
        backend["load"] = .object(load)
        document["backend"] = .object(backend)
        return .object(document)
    }

    @Test func percentilesPerBucketWithGapsForEmptyBuckets() throws {
        let read = LatencyOverTime.read(Self.report())
        #expect(read.count == 1)
        let l = try #require(read.first)
        #expect(l.of == "latency.stepsRecordedToSynced" && l.bucketSeconds == 3_600 && l.counts == [100, 10, 0, 3])
        // Within the histogram's 0.4 % of the exact order statistics 50 s, 95 s, 99 s.
        let p50 = try #require(l.p50[0]), p95 = try #require(l.p95[0]), p99 = try #require(l.p99[0])
        #expect(abs(Double(p50) - 50e6) <= 50e6 * 0.004 && abs(Double(p95) - 95e6) <= 95e6 * 0.004 && abs(Double(p99) - 99e6) <= 99e6 * 0.004)
        #expect(l.p50[2] == nil && l.p99[2] == nil)
        #expect(l.worstP99?.bucket == 3)
    }

    @Test func theChartBreaksItsLinesAtGapsAndNamesTheWorstBucketAndTheOutage() {
        let html = HTMLReport.render(Self.report())
        #expect(html.contains("<title>stepsRecordedToSynced: p50, p95, p99 per hour, by when each delay ended</title>"))
        #expect(html.contains("113 samples · worst p99 10.0 h in the bucket from +3 h"))
        // Buckets 0-1 are one line per percentile; bucket 3 stands alone (a dot) after the gap.
        #expect(html.components(separatedBy: "<title>p99</title></polyline>").count == 2)
        #expect(html.components(separatedBy: "<title>p99</title></circle>").count == 2)
        #expect(html.contains("<title>backendOutage: +2 h to +3 h</title>"))
        #expect(html.contains("<li class=\"zero\">gaps: buckets without samples</li>"))
        // The latency section holds it, before the whole-run distributions.
        let over = html.range(of: "by when each delay ended"), cdf = html.range(of: "cumulative share of")
        #expect(over != nil && cdf != nil && over!.lowerBound < cdf!.lowerBound)
    }

    @Test func aReportWithoutItOrWithABrokenEntrySaysSoInsteadOfDrawing() {
        let without = HTMLReport.render(Self.report(overTime: false))
        #expect(without.contains("Latency over time: this report has no per-bucket latency (latencyOverTime), so it is not drawn."))
        #expect(LatencyOverTime.read(Self.report(malformed: true)).isEmpty)
        #expect(!HTMLReport.render(Self.report(malformed: true)).contains("by when each delay ended"))
    }
}
