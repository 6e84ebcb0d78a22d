import Testing
@testable import Reports

/// `ReportInput`: the limits of a report read by merge, at their boundaries.
@Suite struct ReportInputTests {
    static func shard(_ index: Int64, devices: ReportValue, bucketSeconds: ReportValue = 60) -> ReportValue {
        [
            "scenario": "x", "fleetsimVersion": "0", "seed": 1,
            "simulated": [
                "start": "2026-03-02T00:00:00Z", "duration": .seconds(3_600_000_000), "devices": devices,
                "shard": ["index": .int(index), "count": 2, "fingerprint": "00000000000000ff",
                          "identity": ["scenarioContent": "0000000000000001", "scale": "1.0", "variants": [], "swarm": false]],
            ],
            "backend": ["load": ["bucketSeconds": bucketSeconds]],
        ]
    }

    static func refusal(_ reports: [ReportValue]) -> String? {
        do {
            _ = try ReportMerge.merge(reports.enumerated().map { ("s\($0.offset).json", $0.element) }, rules: ReportMerge.Rules(ReportMerge.coreRules))
            return nil
        } catch {
            return error.message
        }
    }

    @Test func countsAreNonNegativeIntegersUpTo2To53AndSoAreTheirSums() {
        let limit = ReportInput.maximumCount
        #expect(limit == 9_007_199_254_740_991)
        #expect(Self.refusal([Self.shard(0, devices: .int(limit)), Self.shard(1, devices: 0)]) == nil)
        #expect(Self.refusal([Self.shard(0, devices: .int(limit)), Self.shard(1, devices: 1)])
                == "the merged report: $.simulated.devices: expected an integer from 0 to \(limit), found \(limit + 1)")
        #expect(Self.refusal([Self.shard(0, devices: .int(limit + 1)), Self.shard(1, devices: 0)])
                == "s0.json: $.simulated.devices: expected an integer from 0 to \(limit), found \(limit + 1)")
        #expect(Self.refusal([Self.shard(0, devices: -1), Self.shard(1, devices: 0)])?.hasSuffix("found -1") == true)
        #expect(Self.refusal([Self.shard(0, devices: .number(1.5, digits: 1)), Self.shard(1, devices: 0)])?.hasSuffix("found 1.5") == true)
        #expect(Self.refusal([Self.shard(0, devices: .number(9.3e18, digits: 0)), Self.shard(1, devices: 0)])?.hasSuffix("found 9.3e+18") == true)
    }

    @Test func theBucketWidthIsWholeSecondsWithinTheRun() {
        #expect(Self.refusal([Self.shard(0, devices: 1, bucketSeconds: 3_600), Self.shard(1, devices: 1, bucketSeconds: 3_600)]) == nil)
        for bad: ReportValue in [3_601, 0, .number(1e40, digits: 0), .number(1.5, digits: 1)] {
            #expect(Self.refusal([Self.shard(0, devices: 1, bucketSeconds: bad), Self.shard(1, devices: 1)])?
                .hasPrefix("s0.json: $.backend.load.bucketSeconds: expected the load series' bucket width") == true, "\(bad)")
        }
    }

    @Test func aShardCountIsBoundedAndMissingShardsAreListedWithoutEnumeratingThem() {
        var huge = Self.shard(0, devices: 1)
        ReportMerge.set(&huge.objects, ["simulated", "shard", "count"], .int(ReportInput.maximumShards))
        #expect(Self.refusal([huge])?.hasPrefix("shards 1/10000000, 2/10000000, 3/10000000") == true)
        #expect(Self.refusal([huge])?.contains("and 9999989 more missing") == true)
        ReportMerge.set(&huge.objects, ["simulated", "shard", "count"], .int(ReportInput.maximumShards + 1))
        #expect(Self.refusal([huge]) == "s0.json: $.simulated.shard.count: expected an integer from 1 to 10000000, found 10000001")
    }

    /// A value in a message is cut and lists are described by their size (a swarm
    /// shard's differing `faults` said "missing vs missing").
    @Test func messagesDescribeValuesBriefly() {
        #expect(ReportMerge.describe(.array([["kind": "x"], ["kind": "y"]])) == "a list of 2")
        #expect(ReportMerge.describe(.string(String(repeating: "x", count: 1_000))).hasSuffix("…\" (1000 bytes)"))
        #expect(ReportMerge.describe(.number(43_200, digits: 6)) == "43200.000000")
        #expect(ReportMerge.describe(nil) == "missing")
        var long = Self.shard(0, devices: 1)
        ReportMerge.set(&long.objects, ["events", "hash", "devices"], .string(String(repeating: "é", count: 5_000)))
        #expect(Self.refusal([long, Self.shard(1, devices: 1)])?.hasSuffix("…\" (10000 bytes)") == true)
    }
}

/// `invariants.samples`: up to 3 of each kind in a shard, and the merge keeps the 3
/// earliest of each kind (time, device, then detail), as the run's oracle does.
@Suite struct ViolationSampleMergeTests {
    static func sample(_ kind: String, _ seconds: Int64, device: Int64, _ detail: String = "d") -> ReportValue {
        ["kind": .string(kind), "time": .seconds(seconds * 1_000_000), "device": .int(device), "detail": .string(detail), "replay": "fleetsim replay x"]
    }

    static func shard(_ index: Int64, _ samples: [ReportValue]) -> ReportValue {
        var report = ReportInputTests.shard(index, devices: 2)
        ReportMerge.set(&report.objects, ["invariants", "samples"], .array(samples))
        return report
    }

    static func merged(_ reports: [ReportValue]) throws -> [ReportValue] {
        let merged = try ReportMerge.merge(reports.enumerated().map { ("s\($0.offset).json", $0.element) }, rules: ReportMerge.Rules(ReportMerge.coreRules))
        return merged.at(["invariants", "samples"])?.arrayValue ?? []
    }

    @Test func aShardHoldsAtMostThreeOfEachKind() {
        let three = (0..<3).map { Self.sample("common", $0, device: 0) } + [Self.sample("rare", 9, device: 1)]
        #expect(ReportInputTests.refusal([Self.shard(0, three), Self.shard(1, [])]) == nil)
        let four = three + [Self.sample("common", 10, device: 0)]
        #expect(ReportInputTests.refusal([Self.shard(0, four), Self.shard(1, [])])
                == "s0.json: $.invariants.samples[4].kind: expected at most 3 violation samples of each kind (this is sample 4 of it), found \"common\"")
        var noKind = Self.sample("x", 1, device: 0)
        ReportMerge.set(&noKind.objects, ["kind"], .int(1))
        #expect(ReportInputTests.refusal([Self.shard(0, [noKind]), Self.shard(1, [])])
                == "s0.json: $.invariants.samples[0].kind: expected a violation kind (a string), found 1")
    }

    /// Shard 0 has a run of `common` from 10 s on; shard 1 has earlier ones and the only
    /// `rare`, which comes last: the merge keeps 3 of each, the earliest, ties by device
    /// and then detail.
    @Test func theMergeKeepsTheEarliestThreeOfEachKind() throws {
        let a = [Self.sample("common", 10, device: 0), Self.sample("common", 20, device: 0, "b"), Self.sample("common", 20, device: 2)]
        let b = [Self.sample("common", 5, device: 1), Self.sample("common", 20, device: 0, "a"), Self.sample("common", 30, device: 1),
                 Self.sample("rare", 50, device: 3)]
        let kept = try Self.merged([Self.shard(0, a), Self.shard(1, b)])
        let keys = kept.map { "\($0.at(["kind"])?.stringValue ?? "") \($0.at(["time"])?.doubleValue ?? -1) \($0.at(["device"])?.intValue ?? -1) \($0.at(["detail"])?.stringValue ?? "")" }
        #expect(keys == ["common 5.0 1 d", "common 10.0 0 d", "common 20.0 0 a", "rare 50.0 3 d"])
        #expect(try Self.merged([Self.shard(1, b), Self.shard(0, a)]) == kept)
    }
}
