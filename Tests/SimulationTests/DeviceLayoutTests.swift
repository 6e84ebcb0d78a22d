import Testing
@testable import Simulation

/// Per-device state is most of a large fleet's memory (docs/speed.md, "Session 8: device
/// state" and "Session 9: a 16-byte random stream"): a field added in the wrong place, or
/// an optional time not packed, adds 8 bytes a device (8 MB a million). Upper bounds: shrinking is welcome, then lower them.
@Suite struct DeviceLayoutTests {
    @Test func deviceStateStaysWithinItsBudget() {
        #expect(MemoryLayout<Device>.stride <= 408, "Device grew: see docs/speed.md, Sessions 8 and 9")
        #expect(MemoryLayout<AndroidDevice>.stride <= 528, "AndroidDevice grew: see docs/speed.md, Sessions 8 and 9")
    }
}
