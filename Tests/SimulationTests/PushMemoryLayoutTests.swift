import Testing
import AppLogic
@testable import Simulation

/// The push pipeline's per-user and per-notification records, in size order: one of
/// each per push user, notification and accepted message of a run (docs/speed.md,
/// "the rest of the memory").
@Suite struct PushMemoryLayoutTests {
    @Test func perUserRecordsAre120And88BytesAndADevice56() {
        #expect(MemoryLayout<PushUserState>.stride == 120)
        #expect(MemoryLayout<PushUserTruth>.stride == 88)
        #expect(MemoryLayout<PushDeviceRecord>.stride == 56)
    }

    @Test func perNotificationRecordsAre32And24Bytes() {
        #expect(MemoryLayout<PushLedgerEntry>.stride == 32)
        #expect(MemoryLayout<PushMessage>.stride == 24)
    }
}
