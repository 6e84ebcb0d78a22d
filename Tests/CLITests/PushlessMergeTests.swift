import Foundation
import Testing
@testable import FleetSimCLI

/// A fleet that runs no push writes its push load series as empty objects (no provider);
/// its shards merge like any other run's (docs/scale.md).
@Suite struct PushlessMergeTests {
    @Test func shardsOfAFleetWithoutPushMerge() throws {
        let dir = try CLI.temporaryDirectory()
        let scenario = dir.appendingPathComponent("refresh-only.json")
        try Data("""
            {"name": "refresh only", "duration": "1d", "seed": 3,
             "fleet": [{"cohort": "i", "count": 6, "platform": "ios", "features": ["refresh"], "signedIn": 1},
                       {"cohort": "a", "count": 6, "platform": "android", "features": ["refresh"], "signedIn": 1}]}
            """.utf8).write(to: scenario)
        var shards: [String] = []
        for k in 0..<2 {
            let out = dir.appendingPathComponent("s\(k)").path
            let r = try CLI.run(["run", scenario.path, "--shard", "\(k)/2", "--out", out, "--quiet"])
            #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
            shards.append(out + "/report.json")
        }
        let merged = dir.appendingPathComponent("merged").path
        let m = try CLI.run(["merge"] + shards + ["--out", merged])
        #expect(m.status == 0, "\(m.stdout)\(m.stderr)")
        let report = try String(contentsOfFile: merged + "/report.json", encoding: .utf8)
        #expect(report.contains("\"pushConcurrentPeak\": {}"))
    }
}
