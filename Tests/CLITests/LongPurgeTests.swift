import Foundation
import Testing

/// `scenarios/long-purge.json`: seed 001's device cleanup at its own 180 days
/// (`logic.push.purgeAfter` not shortened), 20 iPhones for 185 days, the release binary
/// (docs/known-bugs.md, `push.purgeWithoutNotice`).
@Suite struct LongPurgeTests {
    static let file = "scenarios/long-purge.json"

    /// With `push.purgeWithoutNotice` the purge comes without the email and the registry
    /// judge says so; the correct logic purges all 20 devices, each after its notice.
    @Test func thePurgeWithoutNoticeIsCaughtAtTheSpecsHundredAndEightyDays() throws {
        let dir = try CLI.temporaryDirectory()
        let buggy = try CLI.run(["run", Self.file, "--variants", "push.purgeWithoutNotice", "--out", dir.appendingPathComponent("buggy").path])
        #expect(buggy.status == 1, "\(buggy.stdout)\(buggy.stderr)")
        #expect(buggy.stdout.contains("violation registryCleanupWrong"))
        #expect(buggy.stdout.contains("device purged without the email notice first"))

        let out = dir.appendingPathComponent("correct")
        let correct = try CLI.run(["run", Self.file, "--out", out.path])
        #expect(correct.status == 0, "\(correct.stdout)\(correct.stderr)")
        #expect(correct.stdout.contains("0 invariant violation(s), 0 failed expectation(s)"))
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any]
        let tokens = (report?["push"] as? [String: Any])?["tokens"] as? [String: Any]
        #expect(tokens?["purged"] as? Int == 20)
        #expect(tokens?["purgeNoticeEmails"] as? Int == 20)
    }
}
