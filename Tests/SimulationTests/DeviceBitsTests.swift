import Testing
@testable import Simulation

/// A host's one-bit-per-device flag (Core/DeviceBits): each device's bit alone, at the
/// edges of a 64-bit word and at the last device.
@Suite struct DeviceBitsTests {
    @Test func eachDeviceHasItsOwnBit() {
        var bits = DeviceBits(count: 130)
        #expect((0..<130).allSatisfy { !bits[$0] })
        for i in [0, 63, 64, 129] { bits[i] = true }
        #expect((0..<130).filter { bits[$0] } == [0, 63, 64, 129])
        bits[63] = false
        bits[64] = true
        #expect((0..<130).filter { bits[$0] } == [0, 64, 129])
    }
}
