import Foundation

/// The kernel's reference model, specified exactly so that an independent
/// implementation can cross-check FleetSim's RNG, draws and event ordering:
///
/// N devices, each with two timers. Think: exponential, mean 14,400 s, then the
/// device requests a shared server with 50 slots (FIFO wait when full), held for an
/// exponential service time with mean 0.2 s, then thinks again. App open:
/// exponential, mean 21,600 s, re-armed each time. 7 simulated days.
///
/// One stream, SplitMix64 from x = 12345 (Java's `new SplittableRandom(12345)`), u its
/// top 53 bits times 2^-53; delay in µs = `Int64(-mean * log(1 - u) * 1e6 + 0.5)`.
/// Events popped before the end are counted. For N = 10,000 the count is 1,120,211;
/// for N = 100,000, 11,198,247 (both from an independent implementation).
public struct KernelBenchmark {
    public enum Event {
        case thinkExpired(UInt32)
        case serviceCompleted(UInt32)
        case appOpened(UInt32)
    }

    public struct Result: Sendable {
        public var devices: Int
        public var events: Int
        public var seconds: Double
        public var eventsPerSecond: Double { seconds > 0 ? Double(events) / seconds : 0 }
    }

    public static let thinkMeanSeconds = 14_400.0
    public static let serviceMeanSeconds = 0.2
    public static let appMeanSeconds = 21_600.0
    public static let slots = 50
    public static let horizon = SimTime(microseconds: 604_800 * 1_000_000)

    /// Runs the model and returns its event count; `seconds` is measured by the caller's clock.
    public static func countEvents(devices: Int) -> Int {
        var rng = RandomStream(splitMixSeed: 12345)
        var queue = EventQueue<Event>(reserve: devices * 2 + slots)
        @inline(__always) func delay(_ mean: Double, _ rng: inout RandomStream) -> Int64 {
            let u = Double(rng.next() >> 11) * 0x1.0p-53
            return Int64(-mean * log(1 - u) * 1e6 + 0.5)
        }
        for d in 0..<UInt32(devices) {
            queue.schedule(.thinkExpired(d), at: SimTime(microseconds: delay(thinkMeanSeconds, &rng)))
            queue.schedule(.appOpened(d), at: SimTime(microseconds: delay(appMeanSeconds, &rng)))
        }
        var freeSlots = slots
        // FIFO of waiting devices: a ring buffer sized for the whole fleet.
        var waiting = [UInt32](repeating: 0, count: max(devices, 1))
        var head = 0, tail = 0, waitingCount = 0
        var events = 0
        while let (now, event) = queue.pop(before: horizon) {
            events &+= 1
            let t = now.microseconds
            switch event {
            case .thinkExpired(let d):
                if freeSlots > 0 {
                    freeSlots -= 1
                    queue.schedule(.serviceCompleted(d), at: SimTime(microseconds: t + delay(serviceMeanSeconds, &rng)))
                } else {
                    waiting[tail] = d
                    tail = tail + 1 == waiting.count ? 0 : tail + 1
                    waitingCount += 1
                }
            case .serviceCompleted(let d):
                if waitingCount > 0 {
                    let w = waiting[head]
                    head = head + 1 == waiting.count ? 0 : head + 1
                    waitingCount -= 1
                    queue.schedule(.serviceCompleted(w), at: SimTime(microseconds: t + delay(serviceMeanSeconds, &rng)))
                } else {
                    freeSlots += 1
                }
                queue.schedule(.thinkExpired(d), at: SimTime(microseconds: t + delay(thinkMeanSeconds, &rng)))
            case .appOpened(let d):
                queue.schedule(.appOpened(d), at: SimTime(microseconds: t + delay(appMeanSeconds, &rng)))
            }
        }
        return events
    }
}
