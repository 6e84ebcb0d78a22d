import Testing
import Scenario
@testable import Simulation

@Suite struct SwarmTests {
    @Test func drawsTheEnvironmentFromTheSeedWithinItsRanges() throws {
        let base = try Fixtures.scenario("scenarios/default.json")
        var seen = Set<Double>()
        for seed in UInt64(1)...30 {
            var s = base
            s.seed = seed
            let a = Swarm.apply(to: s), b = Swarm.apply(to: s)
            #expect(a == b)
            for cohort in a.fleet {
                #expect((0...0.2).contains(cohort.ios.earlyExpirationRate))
                #expect((0...0.1).contains(cohort.network.failureRate))
                #expect((0...8).contains(cohort.network.offlineSpellsPerDay))
                #expect(cohort.ios.watchdogGrace >= .seconds(1) && cohort.ios.watchdogGrace <= .seconds(10))
                let policy = cohort.ios.launchPolicy
                #expect(policy.opportunityGap >= .minutes(5) && policy.opportunityGap <= .hours(2))
                #expect((0.02...1).contains(policy.baseAcceptance))
            }
            #expect(a.faults.contains { if case .appTermination = $0.kind { true } else { false } })
            seen.insert(a.fleet[0].ios.earlyExpirationRate)
        }
        #expect(seen.count == 30)
    }
}
