import Testing
import AppLogic
import Platform
import SimKernel
@testable import Simulation

/// The push pipeline's per-user and per-notification records, in size order: one of
/// each per push user, notification and accepted message of a run
/// (docs/performance.md#memory-per-device).
@Suite struct PushMemoryLayoutTests {
    @Test func perUserRecordsAre112And56BytesAndADevice40() {
        // 112 with the first device record inline (docs/performance.md#memory-per-device).
        #expect(MemoryLayout<PushUserState>.stride == 112)
        // 56 with its random stream as a position (docs/performance.md#streams-as-positions).
        #expect(MemoryLayout<PushUserTruth>.stride == 56)
        #expect(MemoryLayout<StreamPosition>.stride == 4)
        #expect(MemoryLayout<PushDeviceRecord>.stride == 40)
        // The none, one and many cases in the record's spare bits: no tag byte, so the
        // counters after it in `PushUserState` start at its 35th byte.
        #expect(MemoryLayout<PushDeviceRecord>.size == 34 && MemoryLayout<PushDevices>.size == 34)
    }

    /// The settings the oracle copies at set-up, its counts for the limits, its token
    /// truth and its unread count: 8, 12, 22 and 4 bytes in one 48-byte entry a push user
    /// (docs/performance.md#state-grouped-by-event-kind: four arrays before; PushUserTruth stays 56).
    @Test func theJudgesPerUserTruthIsOne48ByteEntry() {
        #expect(MemoryLayout<PushSettingsTruth>.stride == 8)
        #expect(MemoryLayout<PushCapTruth>.stride == 12)
        #expect(MemoryLayout<PushTokenTruth>.size == 22)
        #expect(MemoryLayout<PushRulesTruth>.stride == 48)
    }

    @Test func perNotificationRecordsAre32And24Bytes() {
        #expect(MemoryLayout<PushLedgerEntry>.stride == 32)
        #expect(MemoryLayout<PushMessage>.stride == 24)
    }

    /// The truth's four lists are out of line: no box while all are empty, one while any
    /// holds something, and a copy is a value.
    @Test func theTruthsListsHaveABoxOnlyWhileOneHoldsSomething() {
        var t = PushUserTruth(device: 7,
                              silent: SilentPushState(throttle: SilentPushThrottle(), now: .zero), provider: .apns)
        #expect(!t.lists.isAllocated)
        t.gone.removeAll { $0 == 1 }
        #expect(!t.lists.isAllocated)
        t.stored.append(3)
        t.gone.append(2)
        #expect(t.lists.isAllocated)
        var copy = t
        copy.stored.removeAll()
        #expect(t.stored == [3] && copy.stored.isEmpty && copy.gone == [2])
        copy.gone.removeAll()
        #expect(!copy.lists.isAllocated && t.lists.isAllocated)
        t.stored.removeAll()
        #expect(t.lists.isAllocated)
        t.gone.removeAll()
        #expect(!t.lists.isAllocated && t.refused.isEmpty && t.shownCollapsed.isEmpty)
    }
}
