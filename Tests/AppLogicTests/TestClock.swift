import AppLogic

/// A device's clocks in a logic test. Tests name true times; the wall clock reads
/// `wallOffset` off them (a clock someone set forward or back) and the boot clock
/// counts true time since `bootedAt` on boot `boot` (the first boot's origin, the Unix
/// epoch, is arbitrary: only differences on one boot matter).
struct TestClock: Sendable {
    var wallOffset: Interval = .zero
    var boot: UInt32 = 1
    var bootedAt = Instant(unixMicroseconds: 0)

    /// The reading at true time `t`.
    func at(_ t: Instant) -> DeviceTime {
        DeviceTime(wall: t + wallOffset, sinceBoot: t - bootedAt, boot: boot)
    }

    /// The phone restarts at true time `t` with its wall clock `wallOffset` off.
    mutating func reboot(at t: Instant, wallOffset: Interval) {
        boot += 1
        bootedAt = t
        self.wallOffset = wallOffset
    }
}

/// The device's clocks at true time `t` on a phone whose clock nobody set.
func steady(_ t: Instant) -> DeviceTime { TestClock().at(t) }
