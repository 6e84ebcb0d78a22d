import Testing
@testable import Simulation
import Platform

/// Per-device state is most of a large fleet's memory (docs/speed.md, "Session 8: device
/// state" and "Session 9: a 16-byte random stream"): a field added in the wrong place, or
/// an optional time not packed, adds 8 bytes a device (8 MB a million). Upper bounds: shrinking is welcome, then lower them.
@Suite struct DeviceLayoutTests {
    @Test func deviceStateStaysWithinItsBudget() {
        #expect(MemoryLayout<Device>.stride <= 368, "Device grew: see docs/speed.md, Sessions 8, 9 and 10")
        #expect(MemoryLayout<AndroidDevice>.stride <= 528, "AndroidDevice grew: see docs/speed.md, Sessions 8 and 9")
        // iOS devices only, beside the fleet's `Device`s (docs/speed.md, Session 10).
        #expect(MemoryLayout<LaunchPolicyState>.stride <= 48, "LaunchPolicyState grew: see docs/speed.md, Session 10")
        // The refresh logic's state and what reached the disk (docs/speed.md, Session 11).
        #expect(RefreshHost.bytesPerDevice <= 124, "the refresh host's entries grew: see docs/speed.md, Session 11")
    }
}
