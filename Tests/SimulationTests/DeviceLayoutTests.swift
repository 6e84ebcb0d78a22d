import Testing
@testable import Simulation

/// Per-device state is most of a large fleet's memory (docs/speed.md, "Session 8: device
/// state"): a field added in the wrong place, or an optional time not packed, adds 8 bytes
/// a device (8 MB a million). Upper bounds: shrinking is welcome, then lower them.
@Suite struct DeviceLayoutTests {
    @Test func deviceStateStaysWithinItsBudget() {
        #expect(MemoryLayout<Device>.stride <= 488, "Device grew: see docs/speed.md, Session 8")
        #expect(MemoryLayout<AndroidDevice>.stride <= 560, "AndroidDevice grew: see docs/speed.md, Session 8")
    }
}
