import Testing
import SimKernel
@testable import Scenario
@testable import Simulation

/// `logic.continuation` and `fleet[].continuation` (seed `004`): the seed's defaults,
/// every key read, and strict errors with their paths.
@Suite struct ContinuationDecodingTests {
    @Test func defaultsAreTheSeedsValuesAndTheNamedAssumptions() throws {
        let s = try Fixtures.decode(Fixtures.minimal)
        #expect(s.logic.continuation == ContinuationConfig(offerAfter: .seconds(10), hierarchicalTimeout: .seconds(300),
                                                           baselineTimeout: .seconds(180)))
        let c = s.fleet[0].continuation
        #expect(c.startProbability == 0.1)
        #expect(c.backgroundTime == .seconds(30))
        #expect(c.hierarchicalTime == .lognormal(median: 22_500_000, p99: 120_000_000))
        #expect(c.baselineTime == .lognormal(median: 10_000_000, p99: 60_000_000))
        #expect(c.choice == Categorical([(value: .continueHere, weight: 0.4), (value: .moveOn, weight: 0.5), (value: .cancel, weight: 0.1)]))
        #expect(s.fleet[0].features == [.refresh, .stepSync, .push, .continuation])
    }

    @Test func everyKeyIsRead() throws {
        let s = try Fixtures.decode(Fixtures.scenario(
            top: #""logic": {"continuation": {"offerAfter": "5s", "hierarchicalTimeout": "4m", "baselineTimeout": "2m"}}"#,
            cohort: #""features": ["continuation"], "continuation": {"startProbability": 0.5, "modes": {"baseline": 1}, "choice": {"cancel": 2}, "hierarchicalTime": "40s", "baselineTime": {"uniform": ["5s", "15s"]}, "backgroundTime": "0s"}"#))
        #expect(s.logic.continuation == ContinuationConfig(offerAfter: .seconds(5), hierarchicalTimeout: .minutes(4),
                                                           baselineTimeout: .minutes(2)))
        let c = s.fleet[0].continuation
        #expect(c == ContinuationUsage(startProbability: 0.5, modes: Categorical([(value: .baseline, weight: 1)]),
                                       choice: Categorical([(value: .cancel, weight: 2)]), hierarchicalTime: .constant(40_000_000),
                                       baselineTime: .uniform(5_000_000, 15_000_000), backgroundTime: .zero))
        #expect(s.fleet[0].features == [.continuation])
    }

    @Test func badValuesNameThePath() throws {
        let typo = try #require(Fixtures.rejection(Fixtures.scenario(top: #""logic": {"continuation": {"offerAftr": "10s"}}"#)))
        #expect(typo.path == "$.logic.continuation.offerAftr" && typo.found.contains("did you mean `offerAfter`?"))
        let zero = try #require(Fixtures.rejection(Fixtures.scenario(top: #""logic": {"continuation": {"baselineTimeout": "0s"}}"#)))
        #expect(zero.path == "$.logic.continuation.baselineTimeout")
        let choice = try #require(Fixtures.rejection(Fixtures.scenario(cohort: #""continuation": {"choice": {"moveon": 1}}"#)))
        #expect(choice.path == "$.fleet[0].continuation.choice.moveon" && choice.found.contains("did you mean `moveOn`?"))
        let probability = try #require(Fixtures.rejection(Fixtures.scenario(cohort: #""continuation": {"startProbability": 1.5}"#)))
        #expect(probability.path == "$.fleet[0].continuation.startProbability")
    }
}
