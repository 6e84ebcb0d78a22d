import Testing
import SimKernel
@testable import Scenario
@testable import Simulation

/// `fleet[].push`, `broadcasts` and `backend.push` (seed `001`): the named assumptions as
/// defaults, every key read, and each bad value rejected with the file, the JSON path,
/// what was expected and what was found.
@Suite struct PushDecodingTests {
    @Test func defaultsAreTheNamedAssumptions() throws {
        let s = try Fixtures.decode(Fixtures.minimal)
        let p = s.fleet[0].push
        #expect(p.sources.map(\.perDay) == [0.3, 0.2, 0.5, 0.05])
        #expect(p.sources[0].priority == Categorical([(value: .high, weight: 0.3), (value: .normal, weight: 0.7)]))
        #expect(p.sources[2].priority == Categorical([(value: .normal, weight: 0.5), (value: .low, weight: 0.5)]))
        #expect(p.quietHours == Categorical([(value: nil, weight: 0.6), (value: QuietHoursSpec(startMinute: 1200, endMinute: 420), weight: 0.4)]))
        #expect(p.optOut == [0, 0.1, 0, 0.05])
        #expect(p.emailEnabled == 0.8)
        #expect(p.openProbability == 0.3)
        #expect(p.openDelay == .lognormal(median: 600_000_000, p99: 28_800_000_000))
        #expect(p.tokenRotationsPerMonth == 0.05)
        #expect(p.reinstallsPerMonth == 0.02)
        #expect(s.broadcasts.isEmpty)
        #expect(s.backend.push == PushBackendConfig(concurrency: 1_000, queueLimit: 100_000))
    }

    @Test func everyKeyIsRead() throws {
        let s = try Fixtures.decode(Fixtures.scenario(
            top: #""broadcasts": [{"at": "0s"}, {"at": "2h", "priority": "blocking", "category": "challenges", "cohort": "a", "fraction": 0.25}], "backend": {"push": {"concurrency": 1, "queueLimit": 0}}"#,
            cohort: #""push": {"sources": {"announcement": {"perDay": 1440, "priority": {"blocking": 1}}}, "quietHours": {"23:59-00:00": 1, "none": 3}, "optOut": {"assignments": 1}, "emailEnabled": 0, "openProbability": 1, "openDelay": "1m", "tokenRotationsPerMonth": 1000, "reinstallsPerMonth": 0}"#))
        let p = s.fleet[0].push
        #expect(p.sources[3] == PushSourceConfig(perDay: 1440, priority: Categorical([(value: .blocking, weight: 1)])))
        #expect(p.sources[0] == PushUsage.defaults.sources[0])
        #expect(p.quietHours == Categorical([(value: QuietHoursSpec(startMinute: 1439, endMinute: 0), weight: 1), (value: nil, weight: 3)]))
        #expect(p.optOut == [1, 0.1, 0, 0.05])
        #expect(p.emailEnabled == 0 && p.openProbability == 1 && p.openDelay == .constant(60_000_000))
        #expect(p.tokenRotationsPerMonth == 1000 && p.reinstallsPerMonth == 0)
        #expect(s.broadcasts == [
            Broadcast(at: .zero, priority: .normal, category: .announcements, cohort: nil, fraction: 1),
            Broadcast(at: .hours(2), priority: .blocking, category: .challenges, cohort: "a", fraction: 0.25),
        ])
        #expect(s.backend.push == PushBackendConfig(concurrency: 1, queueLimit: 0))
    }

    /// The error for `text`, which must name the file `bad.json` and `path`, and say what
    /// was expected and found (each containing the given parts).
    private func rejected(_ text: String, path: String, expected: String, found: String,
                          sourceLocation: SourceLocation = #_sourceLocation) {
        guard let e = Fixtures.rejection(text, file: "bad.json") else {
            Issue.record("decoded, expected an error at \(path)", sourceLocation: sourceLocation)
            return
        }
        #expect(e.file == "bad.json", sourceLocation: sourceLocation)
        #expect(e.path == path, "\(e)", sourceLocation: sourceLocation)
        #expect(e.expected.contains(expected), "\(e)", sourceLocation: sourceLocation)
        #expect(e.found.contains(found), "\(e)", sourceLocation: sourceLocation)
        #expect(e.description == "bad.json: \(e.path): expected \(e.expected), found \(e.found)", sourceLocation: sourceLocation)
    }

    private func cohort(_ push: String) -> String { Fixtures.scenario(cohort: #""push": "# + push) }

    @Test func badFleetPushValues() {
        rejected(cohort("[]"), path: "$.fleet[0].push", expected: "a push object", found: "an empty array")
        rejected(cohort(#"{"quietHour": {}}"#), path: "$.fleet[0].push.quietHour",
                 expected: "`tokenRotationsPerMonth`", found: "\"quietHour\"; did you mean `quietHours`?")
        rejected(cohort(#"{"sources": []}"#), path: "$.fleet[0].push.sources", expected: "an object of notification sources", found: "an empty array")
        rejected(cohort(#"{"sources": {"homework": {}}}"#), path: "$.fleet[0].push.sources.homework",
                 expected: "`assignmentDue`, `teacherFeedback`, `challenge`, `announcement`", found: "the unknown key \"homework\"")
        rejected(cohort(#"{"sources": {"challenge": {"perDya": 1}}}"#), path: "$.fleet[0].push.sources.challenge.perDya",
                 expected: "`perDay`, `priority`", found: "did you mean `perDay`?")
        rejected(cohort(#"{"sources": {"challenge": {"perDay": 1441}}}"#), path: "$.fleet[0].push.sources.challenge.perDay",
                 expected: "a number from 0 to 1440", found: "1441")
        rejected(cohort(#"{"sources": {"challenge": {"perDay": -0.1}}}"#), path: "$.fleet[0].push.sources.challenge.perDay",
                 expected: "a number from 0 to 1440", found: "-0.1")
        rejected(cohort(#"{"sources": {"challenge": {"priority": {"urgent": 1}}}}"#), path: "$.fleet[0].push.sources.challenge.priority.urgent",
                 expected: #"one of "low", "normal", "high" or "blocking""#, found: "\"urgent\"")
        rejected(cohort(#"{"sources": {"challenge": {"priority": {"Normal": 1}}}}"#), path: "$.fleet[0].push.sources.challenge.priority.Normal",
                 expected: "one of", found: "did you mean `normal`?")
        rejected(cohort(#"{"sources": {"challenge": {"priority": {"high": 0}}}}"#), path: "$.fleet[0].push.sources.challenge.priority",
                 expected: "weights with a sum above 0", found: "weights that sum to 0")
        rejected(cohort(#"{"quietHours": {"25:00-07:00": 1}}"#), path: #"$.fleet[0].push.quietHours["25:00-07:00"]"#,
                 expected: "\"HH:MM-HH:MM\"", found: "the name \"25:00-07:00\"")
        rejected(cohort(#"{"quietHours": {"20:00-20:00": 1}}"#), path: #"$.fleet[0].push.quietHours["20:00-20:00"]"#,
                 expected: "\"none\" or \"HH:MM-HH:MM\"", found: "\"20:00-20:00\"")
        rejected(cohort(#"{"quietHours": {"20:60-07:00": 1}}"#), path: #"$.fleet[0].push.quietHours["20:60-07:00"]"#,
                 expected: "quiet hours", found: "\"20:60-07:00\"")
        rejected(cohort(#"{"quietHours": "none"}"#), path: "$.fleet[0].push.quietHours", expected: "quiet hours", found: "\"none\"")
        rejected(cohort(#"{"optOut": {"chalenges": 0.1}}"#), path: "$.fleet[0].push.optOut.chalenges",
                 expected: "`assignments`, `challenges`, `messages`, `announcements`", found: "did you mean `challenges`?")
        rejected(cohort(#"{"optOut": {"challenges": 1.1}}"#), path: "$.fleet[0].push.optOut.challenges",
                 expected: "a fraction (a number from 0 to 1)", found: "a number 1.1")
        rejected(cohort(#"{"emailEnabled": 1.5}"#), path: "$.fleet[0].push.emailEnabled", expected: "a fraction", found: "a number 1.5")
        rejected(cohort(#"{"openProbability": true}"#), path: "$.fleet[0].push.openProbability", expected: "a fraction", found: "true")
        rejected(cohort(#"{"openDelay": {"lognormal": {"median": 10, "p99": "8h"}}}"#), path: "$.fleet[0].push.openDelay.lognormal.median",
                 expected: "a positive duration", found: "a duration needs a unit")
        rejected(cohort(#"{"tokenRotationsPerMonth": 1001}"#), path: "$.fleet[0].push.tokenRotationsPerMonth",
                 expected: "token changes per device-month: a number from 0 to 1000", found: "a number 1001")
        rejected(cohort(#"{"reinstallsPerMonth": "often"}"#), path: "$.fleet[0].push.reinstallsPerMonth",
                 expected: "per device-month: a number from 0 to 1000", found: "\"often\"")
    }

    @Test func badBroadcasts() {
        func top(_ broadcasts: String) -> String { Fixtures.scenario(top: #""broadcasts": "# + broadcasts) }
        rejected(top("{}"), path: "$.broadcasts", expected: "an array of broadcasts", found: "an empty object")
        rejected(top(#"[{"priority": "high"}]"#), path: "$.broadcasts[0].at",
                 expected: "when the broadcast is sent", found: "nothing (the key is missing)")
        rejected(top(#"[{"at": "1h"}, {"at": "-1h"}]"#), path: "$.broadcasts[1].at", expected: "a duration of zero or more", found: "(negative)")
        rejected(top(#"[{"at": "1h", "priority": "urgent"}]"#), path: "$.broadcasts[0].priority",
                 expected: #"one of "low", "normal", "high" or "blocking""#, found: "\"urgent\"")
        rejected(top(#"[{"at": "1h", "category": "news"}]"#), path: "$.broadcasts[0].category",
                 expected: #"one of "assignments", "challenges", "messages" or "announcements""#, found: "\"news\"")
        rejected(top(#"[{"at": "1h", "cohort": "district"}]"#), path: "$.broadcasts[0].cohort",
                 expected: "the name of a cohort of the fleet: \"a\"", found: "\"district\"")
        rejected(top(#"[{"at": "1h", "cohort": ""}]"#), path: "$.broadcasts[0].cohort",
                 expected: "the name of a cohort of the fleet", found: "an empty string")
        rejected(top(#"[{"at": "1h", "fraction": 2}]"#), path: "$.broadcasts[0].fraction", expected: "a fraction", found: "a number 2")
        rejected(top(#"[{"at": "1h", "fractoin": 1}]"#), path: "$.broadcasts[0].fractoin",
                 expected: "`at`, `priority`, `category`, `cohort`, `fraction`", found: "did you mean `fraction`?")
        rejected(top("[" + Array(repeating: #"{"at": "1h"}"#, count: 1_001).joined(separator: ",") + "]"), path: "$.broadcasts",
                 expected: "at most 1000 broadcasts", found: "1001")
    }

    @Test func badBackendPush() {
        func top(_ push: String) -> String { Fixtures.scenario(top: #""backend": {"push": "# + push + "}") }
        rejected(top("[]"), path: "$.backend.push", expected: "a push backend object", found: "an empty array")
        rejected(top(#"{"concurency": 10}"#), path: "$.backend.push.concurency",
                 expected: "`concurrency`, `queueLimit`", found: "did you mean `concurrency`?")
        rejected(top(#"{"concurrency": 0}"#), path: "$.backend.push.concurrency",
                 expected: "an integer from 1 to 1000000", found: "a number 0")
        rejected(top(#"{"concurrency": 1.5}"#), path: "$.backend.push.concurrency",
                 expected: "an integer from 1 to 1000000", found: "1.5")
        rejected(top(#"{"queueLimit": -1}"#), path: "$.backend.push.queueLimit",
                 expected: "an integer from 0 to 1000000000", found: "a number -1")
        rejected(top(#"{"queueLimit": 1000000001}"#), path: "$.backend.push.queueLimit",
                 expected: "an integer from 0 to 1000000000", found: "1000000001")
    }
}
