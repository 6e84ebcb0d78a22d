import Foundation
import Testing
import Reports
@testable import Simulation

/// The committed `reports/baselines/default.json` is what the default scenario at the
/// baseline's scale (the Makefile's `BASELINE_SCALE`) must produce, byte for byte, on any
/// machine. A change meant to move the numbers regenerates it with `make baseline` (and
/// says why in its commit).
@Suite struct GoldenReportTests {
    /// The Makefile's `BASELINE_SCALE`, which `make baseline`, `make callgrind` and `make
    /// report-screenshot` run: read from it, so the golden report and the committed one
    /// cannot be made at two scales.
    static func baselineScale() throws -> Double {
        let makefile = try String(contentsOfFile: Fixtures.path("Makefile"), encoding: .utf8)
        let line = try #require(makefile.split(separator: "\n").first { $0.hasPrefix("BASELINE_SCALE := ") }, "the Makefile sets no BASELINE_SCALE")
        return try #require(Double(line.dropFirst("BASELINE_SCALE := ".count)), "BASELINE_SCALE is not a number: \(line)")
    }

    @Test func defaultScenarioMatchesTheCommittedBaselineByteForByte() throws {
        let scale = try Self.baselineScale()
        let scenario = try Fixtures.scenario("scenarios/default.json").scaled(by: scale)
        var world = World(scenario: scenario)
        world.runToEnd()
        let produced = JSONWriter.encode(try world.report().report)
        let baseline = try String(contentsOfFile: Fixtures.path("reports/baselines/default.json"), encoding: .utf8)
        // On a mismatch, the changed keys with both values, not two whole documents.
        if produced != baseline {
            Issue.record("""
                the default scenario at --scale \(scale) no longer produces reports/baselines/default.json: \
                \(ReadableFailures.changedKeys(expected: baseline, produced: produced))
                If this change is meant to move the numbers: raise modelVersion (Sources/Simulation/Report/RunReport.swift), \
                then `make baseline` and `make model-version` (docs/harness.md, "The model version").
                """)
        }
    }

    /// reports/baselines/model-versions.txt holds one line per model version, `VERSION
    /// SHA256` of the golden report that version made; its last line must be this build's
    /// ``modelVersion`` and the committed golden report's digest, so the golden report
    /// cannot change while the model version stays (an app team's baselines would shift
    /// silently; docs/harness.md, "The model version").
    @Test func theGoldenReportChangesOnlyWithTheModelVersion() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.path("reports/baselines/default.json"))))
        let digest = SHA256.hex(bytes)
        let record = try String(contentsOfFile: Fixtures.path("reports/baselines/model-versions.txt"), encoding: .utf8)
        let lines = record.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }.map { $0.split(separator: " ").map(String.init) }
        let versions = lines.map { $0.first ?? "" }
        #expect(Set(versions).count == versions.count, "model-versions.txt records a version twice: \(versions)")
        let last = try #require(lines.last, "model-versions.txt records no version")
        let fix = "raise modelVersion in Sources/Simulation/Report/RunReport.swift, run `make baseline`, then `make model-version` "
            + "(which appends 'VERSION SHA256' to reports/baselines/model-versions.txt)"
        #expect(last.first == String(modelVersion),
                "model version \(modelVersion) is not recorded (the last line is \(last.joined(separator: " "))): after `make baseline`, run `make model-version`")
        #expect(last.count == 2 && last[1] == digest,
                "\("reports/baselines/default.json changed (SHA-256 \(digest)) but the model version is still \(modelVersion) (recorded digest \(last.dropFirst().joined())): ")\("a change that moves simulated numbers must \(fix)")")
    }

    /// The default scenario gives a verdict at the baseline's scale: every expectation
    /// passes or fails, none is inconclusive, on the baseline's seed and on three others.
    /// Its notification gate is a p90 judged from order statistics, whose 95 % interval
    /// has an upper end only from 35 samples and ends under the 72 h limit from about
    /// 90; the week of 1,000 phones (--scale 0.1) gives about 23 (docs/report.md, "A
    /// verdict at the baseline's scale").
    @Test(arguments: [42, 1, 2, 3])
    func defaultScenarioIsConclusiveAtTheBaselineScale(seed: Int) throws {
        var scenario = try Fixtures.scenario("scenarios/default.json").scaled(by: try Self.baselineScale())
        scenario.seed = UInt64(seed)
        var world = World(scenario: scenario)
        world.runToEnd()
        let report = try world.report()
        let inconclusive = report.expectations.filter { $0.verdict == .inconclusive }.map(\.metric)
        #expect(inconclusive.isEmpty, "seed \(seed): inconclusive at the baseline's scale: \(inconclusive)")
        #expect(!report.expectations.isEmpty)
    }

    /// The default scenario's backend is sized for its fleet at `--scale 100` (1,000,000
    /// phones, run as shards): the baseline's busy-worker time (1,000 phones) times 1,000
    /// over the workers' time is the mean utilisation at that size, about a third (a
    /// sharded run measured 37.8 %). A change of the fleet or of service times that would
    /// saturate the backend there (or leave it idle) fails here, and default.json's
    /// `backend.workers` must follow.
    @Test func defaultBackendIsSizedForAMillionPhones() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("reports/baselines/default.json")))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let backend = try #require(json["backend"] as? [String: Any])
        let overall = try #require((backend["queue"] as? [String: Any])?["overall"] as? [String: Any])
        let busy = try #require((overall["busyWorkerMicroseconds"] as? NSNumber)?.doubleValue)
        let workers = try #require((backend["capacity"] as? [String: Any])?["workers"] as? Int)
        let simulated = try #require(json["simulated"] as? [String: Any])
        let devices = try #require(simulated["devices"] as? Int)
        let seconds = try #require(simulated["duration"] as? Double)
        let atAMillion = busy / 1e6 * (1_000_000 / Double(devices)) / (Double(workers) * seconds)
        #expect(atAMillion > 0.25 && atAMillion < 0.6, "mean utilisation at 1,000,000 phones: \(atAMillion)")
    }
}
