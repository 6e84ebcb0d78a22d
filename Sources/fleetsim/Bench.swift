import Foundation
import SimKernel
import Scenario
import Simulation

/// `fleetsim bench`: speed is measured here, never in a timed unit test.
struct Bench: Command {
    static let help = CommandHelp(
        name: "bench",
        abstract: "kernel reference model (exact event counts, events/s) and whole-world throughput",
        options: [
            .valued("devices", "N", "devices in the whole-world run (60 % iOS, 40 % Android, 7 days)", default: "10000"),
            .flag("quick", "one run at N = 10,000 of the kernel model instead of the best of 5 at 10,000 and 100,000"),
        ],
        discussion: """
        Times are the thread's CPU seconds. Exit 1 when the kernel's event count differs
        from the independent implementation's.
        """,
        examples: ["fleetsim bench --quick --devices 2000"]
    )

    var devices: Int
    var quick: Bool

    init(_ parsed: ParsedArguments) throws(CLIError) {
        try parsed.noExtraPositionals(after: 0)
        devices = try parsed.int("devices") ?? 10_000
        guard devices >= 1 else { throw .usage("--devices must be at least 1, found \(devices)", command: "bench") }
        quick = parsed.flags.contains("quick")
    }

    func run(_ context: Context) -> Int32 {
        Self.measure(worldDevices: devices, quick: quick)
    }

    /// The independent implementation's counts for the kernel reference model.
    static let expectedCounts = [10_000: 1_121_399, 100_000: 11_201_804]
    /// The kernel's throughput target at N = 10,000 (release build, 2 cores).
    static let targetEventsPerSecond = 10_000_000.0

    static func measure(worldDevices: Int, quick: Bool) -> Int32 {
        var ok = true
        print("Kernel reference model (KernelBenchmark): 7 days, think 14,400 s, service 0.2 s x 50 slots, app 21,600 s")
        print("  times are this thread's CPU seconds, best of \(quick ? 1 : 5) runs (a shared VM's steal time is not the kernel's)")
        for n in quick ? [10_000] : [10_000, 100_000] {
            var best = Double.infinity
            var events = 0
            for _ in 0..<(quick ? 1 : 5) {
                let started = threadCPUSeconds()
                events = KernelBenchmark.countEvents(devices: n)
                best = min(best, threadCPUSeconds() - started)
            }
            let rate = Double(events) / best
            let expected = expectedCounts[n] ?? -1
            let match = events == expected
            ok = ok && match
            print(String(format: "  N = %7d: %10d events (expected %d: %@), %.3f s, %.2f M events/s",
                         n, events, expected, match ? "match" : "MISMATCH", best, rate / 1e6))
            if n == 10_000 && rate < targetEventsPerSecond {
                print(String(format: "  below the %.0f M events/s target (is this a release build?)", targetEventsPerSecond / 1e6))
            }
        }

        let json = """
        {"name": "bench-world", "seed": 1, "duration": "7d",
         "fleet": [{"cohort": "ios", "count": \(worldDevices * 6 / 10), "platform": "ios"},
                   {"cohort": "android", "count": \(worldDevices - worldDevices * 6 / 10), "platform": "android"}]}
        """
        do {
            let scenario = try ScenarioDecoder.decode(Array(json.utf8), file: "<bench>")
            let started = threadCPUSeconds()
            var world = World(scenario: scenario)
            world.runToEnd()
            let s = threadCPUSeconds() - started
            let events = Double(world.eventsProcessed)
            print("Whole world (60 % iOS, 40 % Android, every feature, 7 days, set-up included):")
            print(String(format: "  %d devices, %.0f events in %.3f s: %.2f M events/s, %.0f devices/s, %.1f simulated device-days/ms",
                         worldDevices, events, s, events / s / 1e6, Double(worldDevices) / s, Double(worldDevices) * 7 / s / 1000))
            print("  \(World.bytesPerDevice) bytes of state per device, plus \(World.bytesPerAndroidDevice) per Android device")
        } catch {
            eprint("error: \(error)")
            return 2
        }
        return ok ? 0 : 1
    }

    /// CPU time of the calling thread (`CLOCK_THREAD_CPUTIME_ID`).
    static func threadCPUSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
