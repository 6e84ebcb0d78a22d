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
