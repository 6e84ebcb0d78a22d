import Testing
import SimKernel
import Reports
@testable import Simulation

/// The oracle keeps up to 3 samples of every violation kind, the smallest by (time,
/// device, detail), whatever order the checks ran in (Oracle/Oracle.swift).
@Suite struct OracleSampleTests {
    static func fail(_ oracle: inout Oracle, _ kind: ViolationKind, device: Int, seconds: Int64, _ detail: String = "d") {
        oracle.check(false, kind, device: device, time: SimTime.zero + .seconds(seconds), detail: detail)
    }

    /// (kind, device, seconds, detail) of the samples, in report order.
    static func kept(_ oracle: Oracle) -> [String] {
        oracle.sampleList.map { "\($0.kind.rawValue) \($0.device) \($0.time.microseconds / 1_000_000) \($0.detail)" }
    }

    @Test func threeOfEachKindTheSmallestWhateverTheOrder() {
        let common: [(device: Int, seconds: Int64, detail: String)] = [(4, 50, "d"), (2, 10, "b"), (1, 10, "z"), (2, 10, "a"), (0, 60, "d"), (3, 5, "d")]
        var forward = Oracle(devices: 5), backward = Oracle(devices: 5)
        for c in common { Self.fail(&forward, .taskCompletedTwice, device: c.device, seconds: c.seconds, c.detail) }
        Self.fail(&forward, .notifiedDespiteRecentOpen, device: 4, seconds: 99)
        Self.fail(&backward, .notifiedDespiteRecentOpen, device: 4, seconds: 99)
        for c in common.reversed() { Self.fail(&backward, .taskCompletedTwice, device: c.device, seconds: c.seconds, c.detail) }
        #expect(Self.kept(forward) == ["taskCompletedTwice 3 5 d", "taskCompletedTwice 1 10 z", "taskCompletedTwice 2 10 a", "notifiedDespiteRecentOpen 4 99 d"])
        #expect(Self.kept(backward) == Self.kept(forward))
        #expect(forward.counts[ViolationKind.allCases.firstIndex(of: .taskCompletedTwice)!] == 6)
        #expect(forward.violations == 7 && forward.checked == 7)
    }

    /// At the limit: a third sample is kept, a fourth later one is not, an earlier one
    /// takes the place of the latest.
    @Test func theLimitIsThreePerKind() {
        #expect(Oracle.samplesPerKind == 3 && ReportMerge.samplesPerKind == 3)
        var oracle = Oracle(devices: 1)
        for s in [Int64(30), 20, 10] { Self.fail(&oracle, .badgeDiffersFromUnread, device: 0, seconds: s) }
        #expect(Self.kept(oracle).count == 3)
        Self.fail(&oracle, .badgeDiffersFromUnread, device: 0, seconds: 40)
        #expect(Self.kept(oracle) == ["badgeDiffersFromUnread 0 10 d", "badgeDiffersFromUnread 0 20 d", "badgeDiffersFromUnread 0 30 d"])
        Self.fail(&oracle, .badgeDiffersFromUnread, device: 0, seconds: 15)
        #expect(Self.kept(oracle) == ["badgeDiffersFromUnread 0 10 d", "badgeDiffersFromUnread 0 15 d", "badgeDiffersFromUnread 0 20 d"])
    }
}
