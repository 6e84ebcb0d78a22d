import Foundation
import Testing

/// `fleetsim validate`: bad input gets exit 2 and a message naming the file, the JSON
/// path, what was expected and what was found; never a crash or a stack trace.
@Suite struct ValidateTests {
    static let valid = """
    {"name": "ok", "duration": "2d", "fleet": [{"cohort": "a", "count": 10, "platform": "ios"}]}
    """

    @Test func acceptsAValidScenario() throws {
        let dir = try CLI.temporaryDirectory()
        let file = try CLI.write(Self.valid, to: "ok.json", in: dir)
        let r = try CLI.run(["validate", file])
        #expect(r.status == 0)
        #expect(r.stdout.contains("valid"))
    }

    @Test(arguments: [
        ("misspelled key", #"{"name": "x", "durration": "2d", "fleet": [{"cohort": "a", "count": 1, "platform": "ios"}]}"#, "$.durration", "duration"),
        ("missing required key", #"{"name": "x", "fleet": [{"cohort": "a", "count": 1, "platform": "ios"}]}"#, "$.duration", "missing"),
        ("negative duration", #"{"name": "x", "duration": "-2d", "fleet": [{"cohort": "a", "count": 1, "platform": "ios"}]}"#, "$.duration", "-2d"),
        ("malformed distribution", #"{"name": "x", "duration": "2d", "fleet": [{"cohort": "a", "count": 1, "platform": "ios", "lastTestDaysAgo": {"uniform": [5]}}]}"#, "$.fleet[0].lastTestDaysAgo", "uniform"),
        ("zero weights", #"{"name": "x", "duration": "2d", "fleet": [{"cohort": "a", "count": 1, "platform": "ios", "timeZones": {"UTC": 0}}]}"#, "$.fleet[0].timeZones", "sum"),
        ("unknown variant", #"{"name": "x", "duration": "2d", "fleet": [{"cohort": "a", "count": 1, "platform": "ios"}], "logic": {"variants": ["refresh.nope"]}}"#, "$.logic.variants[0]", "refresh.nope"),
        ("unknown fault", #"{"name": "x", "duration": "2d", "fleet": [{"cohort": "a", "count": 1, "platform": "ios"}], "faults": [{"kind": "meteor", "at": "1h"}]}"#, "$.faults[0].kind", "meteor"),
        ("unknown metric", #"{"name": "x", "duration": "2d", "fleet": [{"cohort": "a", "count": 1, "platform": "ios"}], "expect": [{"metric": "latency.nope.p95", "max": 1}]}"#, "$.expect[0].metric", "latency.nope.p95"),
        ("unknown judge", #"{"name": "x", "duration": "2d", "fleet": [{"cohort": "a", "count": 1, "platform": "ios"}], "judges": {"off": [{"rule": "refreshDateWrong", "reason": "jitter"}]}}"#, "$.judges.off[0].rule", "refreshDateWrong"),
        ("judge without a reason", #"{"name": "x", "duration": "2d", "fleet": [{"cohort": "a", "count": 1, "platform": "ios"}], "judges": {"off": [{"rule": "refreshRequestDateWrong", "reason": ""}]}}"#, "$.judges.off[0].reason", "reason"),
        ("unknown endpoint", #"{"name": "x", "duration": "2d", "fleet": [{"cohort": "a", "count": 1, "platform": "ios"}], "backend": {"endpoints": {"/v1/test/histroy": {"serviceTime": "1s"}}}}"#, "$.backend.endpoints", "`/v1/test/history`, `/v1/test/active`, `/v1/homework/analyze`, `/api/v1/steps/sync`, `/api/v1/steps`"),
        ("truncated JSON", #"{"name": "x", "duration": "2d", "fleet": [{"cohort": "a", "#, "$", "line"),
    ]) func rejectsWithThePath(what: String, json: String, path: String, mentions: String) throws {
        let dir = try CLI.temporaryDirectory()
        let file = try CLI.write(json, to: "bad.json", in: dir)
        let r = try CLI.run(["validate", file])
        #expect(r.status == 2, "\(what)")
        #expect(r.stderr.contains("bad.json"), "\(what): \(r.stderr)")
        #expect(r.stderr.contains(path), "\(what): \(r.stderr)")
        #expect(r.stderr.contains(mentions), "\(what): \(r.stderr)")
        #expect(r.stderr.contains("expected"), "\(what): \(r.stderr)")
        #expect(!r.stderr.contains("Fatal error") && !r.stderr.contains("Stack dump"))
    }

    @Test func garbledBytesAndMissingFilesAreErrorsNotCrashes() throws {
        let dir = try CLI.temporaryDirectory()
        let path = dir.appendingPathComponent("garbage.json").path
        try Data([0x7B, 0xFF, 0x00, 0x22, 0xC3, 0x28, 0x5D]).write(to: URL(fileURLWithPath: path))
        for args in [["validate", path], ["validate", dir.appendingPathComponent("absent.json").path], ["run", path]] {
            let r = try CLI.run(args)
            #expect(r.status == 2)
            #expect(r.stderr.contains("error"))
            #expect(!r.stderr.contains("Fatal error"))
        }
    }
}
