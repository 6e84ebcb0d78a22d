import Foundation
import Testing
@testable import FleetSimCLI

/// `fleetsim bench --shards N`: the arithmetic of its figures, and the shape of its
/// output on a tiny world (nothing here is timed: the times are whatever the machine gives).
@Suite struct ShardBenchTests {
    /// Weak scaling by hand: 2 processes of 1,000 device-days each, 10 s alone and 12.5 s
    /// at once: 100 device-days/s alone, 2,000 in 12.5 s = 160 together, 10 / 12.5 = 80 %.
    @Test func figuresAreWeakScaling() {
        // CPU: 9 s alone, 2 x 10 s at once: each process took 10 s, 9 / 10 = 90 %.
        let f = ShardBench.figures(shards: 2, devices: 1_000, days: 1, single: .init(wall: 10, cpu: 9), parallel: .init(wall: 12.5, cpu: 20))
        #expect(f == ShardBench.Figures(aggregate: 160, single: 100, efficiency: 0.8, cpuEfficiency: 0.9))
        // N at once as fast as one alone: N times the rate, 100 %.
        let ideal = ShardBench.figures(shards: 16, devices: 60_000, days: 2, single: .init(wall: 8, cpu: 8), parallel: .init(wall: 8, cpu: 128))
        #expect(ideal.aggregate == 16 * 120_000 / 8 && ideal.efficiency == 1 && ideal.cpuEfficiency == 1)
    }

    /// The target (85 % at 2 shards) is met at its boundary and not below; other shard
    /// counts have no target line.
    @Test func theTargetLineAtTwoShards() {
        func lines(_ shards: Int, _ single: Double, _ parallel: Double) -> [String] {
            ShardBench.lines(shards: shards, devices: 100, days: 1, single: .init(wall: single, cpu: single), parallel: .init(wall: parallel, cpu: parallel * Double(shards)))
        }
        let met = lines(2, 8.5, 10)
        #expect(met.count == 5)
        #expect(met[2] == "  parallel efficiency: 85.0 % (8.50 s alone / 10.00 s at once; 2 x 100 device-days in 10.00 s against 100 in 8.50 s)")
        #expect(met[3] == "  CPU efficiency: 85.0 % (8.50 s CPU alone / 10.00 s per process at once: what the processes cost each other, without the machine's other work)")
        #expect(met[4] == "  target: at least 85 % at 2 shards (the project's 2-core VM): 85.0 %, met")
        #expect(lines(2, 8.49, 10)[4].hasSuffix("84.9 %, NOT met"))
        #expect(lines(4, 8.5, 10).count == 4)
        #expect(met[0] == "  1 process alone: 8.50 s wall, 8.50 s CPU: 12 device-days/s")
        #expect(met[1] == "  2 processes at once: 10.00 s wall until the last ended, 10.00 s CPU per process: 20 device-days/s in all")
    }

    /// A real run on a tiny world: every line is there, the figures agree with the two
    /// wall times printed, and the N reports merge (exit 0).
    @Test func aTinyRunPrintsEveryLine() throws {
        let r = try CLI.run(["bench", "--shards", "2", "--devices", "20"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 9, "\(r.stdout)")
        guard lines.count == 9 else { return }
        #expect(lines[0].hasPrefix("Shards on one machine: the bench world of 2 x 20 devices, 1 day; each process runs one shard (20 devices)"))
        #expect(lines[1].contains("cores online; load average before: "))
        #expect(lines[2].hasPrefix("  1 process alone: "))
        #expect(lines[3].hasPrefix("  2 processes at once: "))
        #expect(lines[4].hasPrefix("  parallel efficiency: "))
        #expect(lines[5].hasPrefix("  CPU efficiency: "))
        #expect(lines[6].hasPrefix("  target: at least 85 % at 2 shards"))
        #expect(lines[7].hasPrefix("  merge of the 2 reports: "))
        #expect(lines[8].hasPrefix("  load average after: "))
        // "(A s alone / B s at once; ...)": the percentage is A / B, to the printed digits.
        let numbers = lines[4].split(whereSeparator: { " (/;%".contains($0) }).compactMap { Double($0) }
        #expect(numbers.count >= 3)
        if numbers.count >= 3, numbers[2] > 0 {
            #expect(abs(numbers[0] - numbers[1] / numbers[2] * 100) <= 0.05 + 100 * 0.005 / numbers[2] * (1 + numbers[1] / numbers[2]))
        }
    }

    @Test func badShardOptionsAreRefused() throws {
        for (arguments, message) in [(["--shards", "1"], "N from 2 to 1024, found 1"),
                                     (["--shards", "2", "--devices", "10,20"], "--shards takes one --devices size"),
                                     (["--shards", "2", "--quick"], "--quick and --large belong to the one-process bench"),
                                     (["--shards", "200", "--devices", "100000"], "the bench world holds at most")] {
            let r = try CLI.run(["bench"] + arguments)
            #expect(r.status == 2, "\(arguments)")
            #expect(r.stderr.contains(message), "\(r.stderr)")
        }
    }
}
