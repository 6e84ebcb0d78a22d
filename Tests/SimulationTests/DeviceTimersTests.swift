import Testing
@testable import Simulation

/// The per-device timer table: re-arming or cancelling a timer makes its pending event
/// stale, and the timers of one device never invalidate each other.
@Suite struct DeviceTimersTests {
    @Test func reArmingMakesTheEarlierEventStaleAndOnlyTheLastOneFires() {
        var timers = DeviceTimers()
        let first = timers.arm(.stepRetry)
        #expect(timers.isCurrent(.stepRetry, first))
        let second = timers.arm(.stepRetry)
        #expect(!timers.isCurrent(.stepRetry, first))
        #expect(timers.isCurrent(.stepRetry, second))
    }

    @Test func cancellingMakesThePendingEventStale() {
        var timers = DeviceTimers()
        let armed = timers.arm(.backgroundTask)
        timers.cancel(.backgroundTask)
        #expect(!timers.isCurrent(.backgroundTask, armed))
    }

    @Test func eachTimerKeepsItsOwnGeneration() {
        var timers = DeviceTimers()
        let armed = DeviceTimer.allCases.map { timers.arm($0) }
        // Re-arm and cancel the last timer: every other timer's event still fires.
        let last = DeviceTimer.allCases.last!
        _ = timers.arm(last)
        timers.cancel(last)
        for (timer, generation) in zip(DeviceTimer.allCases, armed) {
            #expect(timers.isCurrent(timer, generation) == (timer != last))
        }
    }
}
