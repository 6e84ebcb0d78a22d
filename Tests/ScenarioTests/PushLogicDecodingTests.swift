import Testing
import SimKernel
@testable import Scenario
@testable import Simulation

/// `logic.push` (seed `001`'s intervals and thresholds): the seed's defaults, every key
/// read, and strict errors naming the file, the path, what was expected and what was found.
@Suite struct PushLogicDecodingTests {
    @Test func defaultsAreTheSeedsValues() throws {
        let p = try Fixtures.decode(Fixtures.minimal).logic.push
        #expect(p.activityWindow == .minutes(5))
        #expect(p.highEscalationDelay == .minutes(5))
        #expect(p.highEmailDelay == .minutes(15))
        #expect(p.normalPerDay == 5)
        #expect(p.highPerWeek == 10)
        #expect(p.retryDelays == [.seconds(1), .seconds(5), .seconds(25)])
        #expect(p.providerTimeout == .seconds(30))
        #expect(p.rateLimitBackoff == .minutes(1))
        #expect(p.ttlHigh == .hours(24))
        #expect(p.ttlNormal == .days(7))
        #expect(p.ttlLow == .days(3))
        #expect(p.validationInterval == .days(7))
        #expect(p.inactiveAfter == .days(90))
        #expect(p.purgeAfter == .days(180))
        #expect(p.maintenanceInterval == .days(1))
        #expect(p.titleLimit == 65)
        #expect(p.bodyLimit == 240)
        #expect(p.apnsPayloadLimit == 4096)
        #expect(p.fcmPayloadLimit == 4096)
        // An empty object is the defaults too.
        #expect(try Fixtures.decode(Fixtures.scenario(top: #""logic": {"push": {}}"#)).logic.push == p)
    }

    @Test func everyKeyIsRead() throws {
        let s = try Fixtures.decode(Fixtures.scenario(top: #"""
            "logic": {"push": {"activityWindow": "0s", "highEscalationDelay": "2m", "highEmailDelay": "20m",
              "normalPerDay": 0, "highPerWeek": 255, "retryDelays": [], "providerTimeout": "10s",
              "rateLimitBackoff": "90s", "ttlHigh": "28d", "ttlNormal": "2d", "ttlLow": "1h",
              "validationInterval": "3d", "inactiveAfter": "30d", "purgeAfter": "366d", "maintenanceInterval": "12h",
              "titleLimit": 1, "bodyLimit": 10000, "apnsPayloadLimit": 65536, "fcmPayloadLimit": 1}}
            """#))
        #expect(s.logic.push == PushLogicConfig(
            activityWindow: .zero, highEscalationDelay: .minutes(2), highEmailDelay: .minutes(20),
            normalPerDay: 0, highPerWeek: 255, retryDelays: [], providerTimeout: .seconds(10),
            rateLimitBackoff: .seconds(90), ttlHigh: .days(28), ttlNormal: .days(2), ttlLow: .hours(1),
            validationInterval: .days(3), inactiveAfter: .days(30), purgeAfter: .days(366), maintenanceInterval: .hours(12),
            titleLimit: 1, bodyLimit: 10_000, apnsPayloadLimit: 65_536, fcmPayloadLimit: 1))
        let ten = try Fixtures.decode(Fixtures.scenario(top: #""logic": {"push": {"retryDelays": ["1s","1s","1s","1s","1s","1s","1s","1s","1s","2s"]}}"#))
        #expect(ten.logic.push.retryDelays.count == 10)
        #expect(ten.logic.push.retryDelays.last == .seconds(2))
    }

    /// Decodes `fragment` as the value of `logic.push` and returns the error.
    private func rejection(_ fragment: String) throws -> ScenarioError {
        try #require(Fixtures.rejection(Fixtures.scenario(top: #""logic": {"push": "# + fragment + "}"), file: "bad.json"))
    }

    @Test func badValuesNameTheFilePathExpectedAndFound() throws {
        let typo = try rejection(#"{"activityWindw": "5m"}"#)
        #expect(typo.file == "bad.json")
        #expect(typo.path == "$.logic.push.activityWindw")
        #expect(typo.found.contains("did you mean `activityWindow`?"))
        #expect(typo.expected.contains("`ttlNormal`"))

        let notObject = try rejection(#"[]"#)
        #expect(notObject.path == "$.logic.push" && notObject.expected.contains("a push logic object"))

        let zero = try rejection(#"{"highEscalationDelay": "0s"}"#)
        #expect(zero.path == "$.logic.push.highEscalationDelay" && zero.found.contains("(zero)"))
        let negative = try rejection(#"{"activityWindow": "-1s"}"#)
        #expect(negative.path == "$.logic.push.activityWindow" && negative.found.contains("(negative)"))
        let unitless = try rejection(#"{"providerTimeout": 30}"#)
        #expect(unitless.path == "$.logic.push.providerTimeout" && unitless.found.contains("needs a unit"))
        let long = try rejection(#"{"purgeAfter": "367d"}"#)
        #expect(long.path == "$.logic.push.purgeAfter" && long.expected.contains("at most 366 days") && long.found == "367d")

        // 28 days is FCM's longest TTL; 28 days and 1 second is refused.
        let ttl = try rejection(#"{"ttlLow": "2419201s"}"#)
        #expect(ttl.path == "$.logic.push.ttlLow" && ttl.expected.contains("at most 28 days"))

        let limit = try rejection(#"{"normalPerDay": 256}"#)
        #expect(limit.path == "$.logic.push.normalPerDay" && limit.expected.contains("from 0 to 255") && limit.found.contains("256"))
        let fraction = try rejection(#"{"highPerWeek": 2.5}"#)
        #expect(fraction.path == "$.logic.push.highPerWeek")
        let title = try rejection(#"{"titleLimit": 0}"#)
        #expect(title.path == "$.logic.push.titleLimit" && title.expected.contains("from 1 to 10000"))
        let payload = try rejection(#"{"fcmPayloadLimit": 65537}"#)
        #expect(payload.path == "$.logic.push.fcmPayloadLimit" && payload.expected.contains("from 1 to 65536"))

        let retries = try rejection(#"{"retryDelays": "1s"}"#)
        #expect(retries.path == "$.logic.push.retryDelays" && retries.expected.contains("an array of retry delays"))
        let badRetry = try rejection(#"{"retryDelays": ["1s", "0s"]}"#)
        #expect(badRetry.path == "$.logic.push.retryDelays[1]" && badRetry.found.contains("(zero)"))
        let eleven = try rejection(#"{"retryDelays": ["1s","1s","1s","1s","1s","1s","1s","1s","1s","1s","1s"]}"#)
        #expect(eleven.path == "$.logic.push.retryDelays" && eleven.expected == "at most 10 retry delays" && eleven.found == "11")
        #expect(eleven.description == "bad.json: $.logic.push.retryDelays: expected at most 10 retry delays, found 11")
    }
}
