import Testing
import Reports
import SimKernel
import Scenario
@testable import Simulation

@Suite struct EventHashTests {
    /// The mixer is SplitMix64's: its first output from state 0 is the published
    /// 0xE220A8397B1DCDAF, on every platform and in every process.
    @Test func mixerIsSplitMix64() {
        #expect(EventHashes.mix(0) == 0xE220_A839_7B1D_CDAF)
        #expect(EventHashes.hex(0xAB) == "00000000000000ab")
        // An event's hash is its content's: same fields, same hash; one field moved, another.
        let h = EventHashes.eventHash(time: SimTime(microseconds: 5), code: 20, payload: 3, device: 7)
        #expect(h == EventHashes.eventHash(time: SimTime(microseconds: 5), code: 20, payload: 3, device: 7))
        #expect(h != EventHashes.eventHash(time: SimTime(microseconds: 6), code: 20, payload: 3, device: 7))
        #expect(h != EventHashes.eventHash(time: SimTime(microseconds: 5), code: 20, payload: 3, device: 8))
    }

    /// The per-device hashes are the chains of exactly the events the observer saw, the
    /// stale entries (superseded timers, tasks, jobs) are not among them, the buckets and
    /// cohorts add up to the device sum, and observing changes no byte of the report.
    @Test func hashesChainTheDeliveredStream() throws {
        let scenario = try Fixtures.scenario("scenarios/default.json").scaled(by: 0.01)
        var plain = World(scenario: scenario)
        plain.runToEnd()

        final class Seen { var chains: [UInt64]; var count: UInt64 = 0; init(_ n: Int) { chains = Array(repeating: 0, count: n) } }
        var observed = World(scenario: scenario)
        let seen = Seen(observed.deviceCount)
        var fleet: UInt64 = 0
        observed.measuresQueue = true
        observed.eventObserver = { e in
            seen.count += 1
            if let d = e.device { seen.chains[d] = EventHashes.mix(seen.chains[d] ^ e.hash) } else { fleet = EventHashes.mix(fleet ^ e.hash) }
        }
        observed.runToEnd()

        #expect(seen.chains == EventHashes.chains(observed.core.devices))
        #expect(fleet == observed.eventHashes.fleet)
        #expect(seen.count == observed.eventHashes.delivered)
        #expect(observed.queueStats.superseded > 0)
        #expect(seen.count == observed.eventsProcessed - observed.queueStats.superseded)
        #expect(EventHashes.bucketSums(EventHashes.chains(observed.core.devices), globalID: observed.core.globalID).reduce(0, &+) == EventHashes.sum(EventHashes.chains(observed.core.devices)))
        #expect(JSONWriter.encode(try plain.report().report) == JSONWriter.encode(try observed.report().report))

        let hash = try #require(try plain.report().report.lookup("events.hash"))
        #expect(hash.lookup("byBucket")?.arrayValue?.count == 256)
        #expect(hash.lookup("total")?.stringValue == EventHashes.hex(EventHashes.sum(EventHashes.chains(plain.core.devices)) &+ plain.eventHashes.fleet))
        let cohorts = try #require(hash.lookup("byCohort")?.arrayValue)
        #expect(cohorts.count == scenario.fleet.count)
        let cohortSum = cohorts.compactMap { $0.stringValue.flatMap { UInt64($0, radix: 16) } }.reduce(0, &+)
        #expect(cohortSum == EventHashes.sum(EventHashes.chains(plain.core.devices)))
    }

    /// Another seed delivers other events: another total.
    @Test func anotherSeedAnotherTotal() throws {
        var scenario = try Fixtures.scenario("scenarios/races/ignores-low-battery.json")
        var a = World(scenario: scenario)
        a.runToEnd()
        scenario.seed += 1
        var b = World(scenario: scenario)
        b.runToEnd()
        #expect(EventHashes.sum(EventHashes.chains(a.core.devices)) &+ a.eventHashes.fleet != EventHashes.sum(EventHashes.chains(b.core.devices)) &+ b.eventHashes.fleet)
    }
}
