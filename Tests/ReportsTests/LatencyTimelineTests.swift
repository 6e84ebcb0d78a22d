import Testing
@testable import Reports

/// `LatencyTimeline` (report.json's `latencyOverTime`): which bucket a sample falls in at
/// the bucket's edges and the run's end, buckets that add up to the whole-run histogram,
/// and shard reports that merge bucket by bucket.
@Suite struct LatencyTimelineTests {
    static let hour: Int64 = 3_600_000_000

    /// SplitMix64: a seeded generator for the property tests (the same samples on every machine).
    struct SplitMix {
        var state: UInt64
        mutating func next(below n: UInt64) -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return (z ^ (z >> 31)) % n
        }
    }

    @Test func aSampleFallsInTheBucketOfTheInstantItEndedAndTheEndsBelongToTheLastBucket() {
        var t = LatencyTimeline(bucketSeconds: 3_600, durationMicroseconds: 2 * Self.hour + 1)
        #expect(t.slots.count == 3)  // ⌈2 h + 1 µs / 1 h⌉
        t.record(10, at: Self.hour - 1)  // 0:59:59.999999: bucket 0
        t.record(20, at: Self.hour)  // 1:00:00: bucket 1
        t.record(30, at: 2 * Self.hour + 1)  // the end itself: the last bucket
        t.record(40, at: -5)  // before the start: bucket 0
        t.record(-7, at: 0)  // a negative delay counts as 0, as in the whole-run histogram
        #expect((0..<3).map { t.histogram($0).count } == [3, 1, 1])
        #expect(t.histogram(0).min == 0 && t.histogram(0).max == 40 && t.histogram(1).min == 20 && t.histogram(2).max == 30)
        #expect(LatencyTimeline(bucketSeconds: 3_600, durationMicroseconds: 2 * Self.hour).slots.count == 2)
        #expect(LatencyTimeline(bucketSeconds: 3_600, durationMicroseconds: 0).slots.count == 1)
    }

    @Test(arguments: [1, 2, 3] as [UInt64]) func theBucketsTogetherAreTheWholeRunHistogram(seed: UInt64) {
        var rng = SplitMix(state: seed)
        var whole = LatencyHistogram()
        var timeline = LatencyTimeline(bucketSeconds: 600, durationMicroseconds: 7 * Self.hour)
        var samples: [(value: Int64, at: Int64)] = []
        for _ in 0..<5_000 {
            // Delays from 0 to about 3 h, skewed to short ones; instants anywhere in the run, in no order.
            let value = Int64(rng.next(below: 1 << rng.next(below: 44))), at = Int64(rng.next(below: UInt64(7 * Self.hour)))
            samples.append((value, at))
            whole.record(value)
            timeline.record(value, at: at)
        }
        var merged = LatencyHistogram()
        for i in timeline.slots.indices { merged.merge(timeline.histogram(i)) }
        #expect(merged == whole && timeline.count == 5_000)
        // The same samples in time order, as a run records them (each bucket of time
        // closed once), give the same buckets.
        var inOrder = LatencyTimeline(bucketSeconds: 600, durationMicroseconds: 7 * Self.hour)
        for (value, at) in samples.sorted(by: { $0.at < $1.at }) { inOrder.record(value, at: at) }
        #expect(inOrder.count == 5_000 && timeline.slots.indices.allSatisfy { inOrder.histogram($0) == timeline.histogram($0) })
        // Each bucket's encoding decodes to the bucket.
        guard case .array(let encodings) = timeline.encodings else { Issue.record("not a list"); return }
        #expect(encodings.count == 42 && encodings.indices.allSatisfy { LatencyHistogram(exactEncoding: encodings[$0]) == timeline.histogram($0) })
    }

    @Test func theSectionListsLatenciesWithSamplesInNameOrder() {
        var a = LatencyTimeline(bucketSeconds: 3_600, durationMicroseconds: Self.hour), b = a
        let empty = a
        a.record(1, at: 0)
        b.record(2, at: 0)
        let section = LatencyTimeline.section([("latency.z", a), ("latency.empty", empty), ("latency.a", b)], bucketSeconds: 3_600)
        #expect(section.lookup("bucketSeconds")?.intValue == 3_600)
        #expect(section.lookup("series")?.arrayValue?.compactMap { $0.lookup("of")?.stringValue } == ["latency.a", "latency.z"])
        #expect(LatencyOverTime.read(["latencyOverTime": section]).map(\.of) == ["latency.a", "latency.z"])
    }

    /// Two shards' reports with their own samples: merged bucket by bucket, they equal
    /// the timeline of all the samples; a series only one shard has is kept.
    @Test func shardReportsMergeBucketByBucket() throws {
        var rng = SplitMix(state: 9)
        var parts = [LatencyTimeline](repeating: LatencyTimeline(bucketSeconds: 3_600, durationMicroseconds: Self.hour), count: 2)
        var all = parts[0]
        for _ in 0..<2_000 {
            let value = Int64(rng.next(below: 1 << 30)), at = Int64(rng.next(below: UInt64(Self.hour)))
            parts[Int(rng.next(below: 2))].record(value, at: at)
            all.record(value, at: at)
        }
        var only = LatencyTimeline(bucketSeconds: 3_600, durationMicroseconds: Self.hour)
        only.record(5, at: 0)
        let reports = [Self.shard(0, [("latency.x", parts[0]), ("latency.only", only)]), Self.shard(1, [("latency.x", parts[1])])]
        let merged = try ReportMerge.merge([("s0.json", reports[0]), ("s1.json", reports[1])], rules: ReportMerge.Rules(ReportMerge.coreRules))
        #expect(merged.lookup("latencyOverTime") == LatencyTimeline.section([("latency.x", all), ("latency.only", only)], bucketSeconds: 3_600))
    }

    @Test func mergeRefusesBucketsThatDoNotLineUpOrDoNotDecode() {
        var one = LatencyTimeline(bucketSeconds: 3_600, durationMicroseconds: Self.hour)
        one.record(1, at: 0)
        var two = LatencyTimeline(bucketSeconds: 1_800, durationMicroseconds: Self.hour)
        two.record(1, at: 0)
        // A series of two buckets against one of one (the bucket widths differ too: that is refused first).
        var odd = Self.shard(1, [("latency.x", two)])
        ReportMerge.set(&odd.objects, ["latencyOverTime", "bucketSeconds"], 3_600)
        #expect(ReportInputTests.refusal([Self.shard(0, [("latency.x", one)]), odd])
                == "s0.json and s1.json are not shards of one run: latencyOverTime.series latency.x has 1 buckets in one and 2 in the other")
        #expect(ReportInputTests.refusal([Self.shard(0, [("latency.x", one)]), Self.shard(1, [("latency.x", two)])])?
            .hasSuffix("latencyOverTime.bucketSeconds differs (3600 vs 1800)") == true)
        var broken = Self.shard(1, [("latency.x", one)])
        ReportMerge.set(&broken.objects, ["latencyOverTime", "series"], [["of": "latency.x", "histograms": [["layout": "linear"]]]])
        #expect(ReportInputTests.refusal([Self.shard(0, [("latency.x", one)]), broken])
                == "s1.json: latencyOverTime.series latency.x bucket 0: expected a latency histogram (log-linear-128), found a malformed one")
    }

    @Test func aReadReportIsCheckedBeforeAnythingMerges() {
        let good = Self.shard(0, [])
        var zero = good
        ReportMerge.set(&zero.objects, ["latencyOverTime", "bucketSeconds"], 0)
        #expect(ReportInputTests.refusal([zero, Self.shard(1, [])])?
            .hasPrefix("s0.json: $.latencyOverTime.bucketSeconds: expected the latency buckets' width: a whole number of seconds from 1 to the run's 3600") == true)
        var twice = good
        ReportMerge.set(&twice.objects, ["latencyOverTime", "series"], [["of": "latency.x", "histograms": []], ["of": "latency.x", "histograms": []]])
        #expect(ReportInputTests.refusal([twice, Self.shard(1, [])])?.hasPrefix("s0.json: $.latencyOverTime.series[1].of: expected [{of, histograms}]") == true)
        // At most 1,000 latencies (docs/scale.md): the 1,001st is refused.
        for (count, refused) in [(ReportInput.maximumLatencySeries, false), (ReportInput.maximumLatencySeries + 1, true)] {
            var many = good
            ReportMerge.set(&many.objects, ["latencyOverTime", "series"], .array((0..<count).map { ["of": .string("latency.x\($0)"), "histograms": []] }))
            #expect((ReportInputTests.refusal([many, Self.shard(1, [])])?.hasPrefix("s0.json: $.latencyOverTime.series: expected [{of, histograms}]: at most 1000 latencies") ?? false) == refused)
        }
        var long = good
        ReportMerge.set(&long.objects, ["latencyOverTime", "series"], [["of": "latency.x", "histograms": .array(Array(repeating: .null, count: 3_602))]])
        #expect(ReportInputTests.refusal([long, Self.shard(1, [])])?.hasPrefix("s0.json: $.latencyOverTime.series[0].histograms: expected") == true)
    }

    /// A one-hour shard report (ReportInputTests') with `latencyOverTime` from `series`.
    static func shard(_ index: Int64, _ series: [(of: String, timeline: LatencyTimeline)]) -> ReportValue {
        var report = ReportInputTests.shard(index, devices: 1)
        ReportMerge.set(&report.objects, ["latencyOverTime"],
                        LatencyTimeline.section(series, bucketSeconds: series.first?.timeline.bucketSeconds ?? 3_600))
        return report
    }
}
