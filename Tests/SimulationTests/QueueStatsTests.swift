import Testing
import Reports
import SimKernel
import Scenario
@testable import Simulation

/// The event-queue measurement (docs/performance.md#the-pending-event-set) only reads the world: the run
/// and its report.json are the same with it on, and its counts add up.
@Suite struct QueueStatsTests {
    @Test func measuringTheQueueLeavesTheReportUnchanged() throws {
        let scenario = try SharedRuns.defaultScenario()
        var measured = World(scenario: scenario)
        measured.measuresQueue = true
        measured.runToEnd()
        let stats = measured.queueStats
        #expect(try JSONWriter.encode(measured.report().report) == SharedRuns.defaultRun.get().reportBytes)
        #expect(stats.pops == measured.eventsProcessed)
        // Superseded timers exist in the default fleet (re-armed flushes, ended tasks' expirations).
        #expect(stats.superseded > 0 && stats.superseded < stats.pops)
        #expect(Double(stats.peakPending) >= stats.meanPending && stats.meanPending >= 1)
        print("queue at scale \(SharedRuns.defaultScale): peak \(stats.peakPending), mean \(stats.meanPending), superseded \(stats.superseded) of \(stats.pops)")
    }

    /// The world's events (at most two 32-bit ids and a one-byte timer, the tag in the
    /// timer's spare bits) keep a pending entry at 24 bytes (`fleetsim bench`'s queue bytes).
    @Test func aPendingEventIsTwentyFourBytes() {
        #expect(MemoryLayout<WorldEvent>.size <= 10)
        #expect(EventQueue<WorldEvent>.entryStride == 24)
    }
}
