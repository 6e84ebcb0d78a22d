import Testing
@testable import SimKernel

@Suite struct RandomStreamTests {
    /// Known answer: a stream from `splitMixSeed` is Java's `new SplittableRandom(seed)`,
    /// so its draws are SplitMix64's (the reference test vector from 1234567).
    @Test func splitMixSeededStreamIsSplitMix64() {
        var r = RandomStream(splitMixSeed: 1_234_567)
        #expect((0..<4).map { _ in r.next() } == [6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423, 4_593_380_528_125_082_431])
    }

    /// Known answers from OpenJDK 17's `new SplittableRandom(key).split()`: the first four
    /// `nextLong()`s of the child (as unsigned), for a key whose gamma keeps its bits (25
    /// bit transitions), one at the boundary whose bits are flipped (23: the count is
    /// always odd for an odd gamma) and one far below it (21).
    @Test func splitStreamsMatchJavaSplittableRandom() {
        func first(_ key: UInt64) -> [UInt64] {
            var r = RandomStream(splitOf: key)
            return (0..<4).map { _ in r.next() }
        }
        #expect(first(19) == [2_437_458_137_232_820_066, 15_082_391_247_699_767_768, 3_942_301_373_542_028_395, 2_237_008_742_509_424_744])
        #expect(RandomStream(splitOf: 19).gamma == 0xF8E9_039E_7A93_F1FD)
        #expect(first(87) == [8_125_795_141_754_414_745, 14_211_499_860_509_473_749, 1_646_884_916_380_879_571, 14_198_964_299_325_668_046])
        #expect(RandomStream(splitOf: 87).gamma == 0x3642_52D5_3229_76D3)
        #expect(first(11) == [4_571_796_205_088_123_569, 3_858_759_985_714_206_617, 15_428_535_668_955_324_928, 2_308_417_480_476_958_884])
        #expect(RandomStream(splitOf: 11).gamma == 0xAF54_364A_7B5E_CAAD)
    }

    /// Every stream's gamma is odd (so the seed visits all 2^64 values) with at least 24
    /// bit transitions, whatever the key.
    @Test func gammasAreOddWithEnoughTransitions() {
        var keys = SplitMix64(state: 2_024)
        for key in [0, 1, UInt64.max, 0x8000_0000_0000_0000] + (0..<10_000).map({ _ in keys.next() }) {
            let gamma = RandomStream(splitOf: key).gamma
            #expect(gamma & 1 == 1)
            #expect((gamma ^ (gamma >> 1)).nonzeroBitCount >= 24)
        }
    }

    /// Known answer: SplitMix64 from 1234567 (the reference test vector).
    @Test func splitMix64KnownAnswer() {
        var s = SplitMix64(state: 1_234_567)
        #expect((0..<3).map { _ in s.next() } == [6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423])
    }

    @Test func streamsDependOnSeedEntityAndPurposeOnly() {
        func firstDraws(_ seed: UInt64, _ entity: UInt64, _ purpose: StreamPurpose) -> [UInt64] {
            var r = RandomStream(seed: seed, entity: entity, purpose: purpose)
            return (0..<4).map { _ in r.next() }
        }
        #expect(firstDraws(42, 7, "user") == firstDraws(42, 7, "user"))
        #expect(firstDraws(42, 7, "user") != firstDraws(43, 7, "user"))
        #expect(firstDraws(42, 7, "user") != firstDraws(42, 8, "user"))
        #expect(firstDraws(42, 7, "user") != firstDraws(42, 7, "os"))
        // Entity 0 and seed 0 are ordinary inputs, not degenerate ones.
        #expect(firstDraws(0, 0, "user") != [0, 0, 0, 0])
    }

    @Test func purposeKeyIsFNV1aOfTheName() {
        // FNV-1a 64 of "a" is 0xaf63dc4c8601ec8c: the key depends on the bytes only.
        #expect(StreamPurpose("a").key == 0xAF63_DC4C_8601_EC8C)
        let literal: StreamPurpose = "a"
        #expect(literal.key == 0xAF63_DC4C_8601_EC8C)
        // A literal hashes its static bytes, a built name its UTF-8 view: the same key.
        let dotted: StreamPurpose = "user.screen"
        #expect(dotted.key == StreamPurpose("user." + "screen").key)
    }
}

@Suite struct DrawTests {
    @Test func uniformUsesTheTop53Bits() {
        var a = RandomStream(splitOf: 42)
        var b = RandomStream(splitOf: 42)
        for _ in 0..<100 { #expect(a.uniform() == Double(b.next() >> 11) * 0x1.0p-53) }
    }

    @Test func integerInRangeCoversTheRangeAndNothingElse() {
        var r = RandomStream(splitMixSeed: 9)
        var seen = [Int](repeating: 0, count: 7)
        for _ in 0..<7_000 {
            let v = r.int(in: -3...3)
            #expect((-3...3).contains(v))
            seen[Int(v) + 3] += 1
        }
        // Each value about 1,000 times; 6 standard deviations is about 180.
        #expect(seen.allSatisfy { abs($0 - 1_000) < 180 })
        #expect(r.int(in: 5...5) == 5)
        _ = r.int(in: Int64.min...Int64.max)  // the full range does not trap
    }

    @Test func chanceAtTheEdges() {
        var r = RandomStream(splitMixSeed: 1)
        #expect((0..<100).allSatisfy { _ in !r.chance(0) })
        #expect((0..<100).allSatisfy { _ in r.chance(1) })
        let hits = (0..<10_000).filter { _ in r.chance(0.25) }.count
        #expect(abs(hits - 2_500) < 260)
    }

    @Test func exponentialMean() {
        var r = RandomStream(splitMixSeed: 2)
        let n = 20_000.0
        let mean = (0..<20_000).reduce(0.0) { acc, _ in acc + r.exponential(mean: 14_400) } / n
        #expect(abs(mean - 14_400) < 14_400 * 0.04)
    }

    @Test func lognormalHitsItsMedianAndP99() {
        var r = RandomStream(splitMixSeed: 3)
        let sorted = (0..<20_000).map { _ in r.lognormal(median: 40, p99: 400) }.sorted()
        #expect(abs(sorted[10_000] - 40) < 40 * 0.05)
        #expect(abs(sorted[19_800] - 400) < 400 * 0.12)
    }

    @Test func normalMeanAndSpread() {
        var r = RandomStream(splitMixSeed: 4)
        let xs = (0..<20_000).map { _ in r.normal(mean: 10, sd: 2) }
        let mean = xs.reduce(0, +) / Double(xs.count)
        let sd = (xs.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(xs.count)).squareRoot()
        #expect(abs(mean - 10) < 0.06)
        #expect(abs(sd - 2) < 0.06)
    }

    @Test func weightedChoiceFollowsWeightsAndSkipsZeros() {
        var r = RandomStream(splitMixSeed: 5)
        var counts = [0, 0, 0]
        for _ in 0..<10_000 { counts[r.weightedChoice([0.6, 0, 0.4])] += 1 }
        #expect(counts[1] == 0)
        #expect(abs(counts[0] - 6_000) < 300)
    }

    @Test func poissonMean() {
        var r = RandomStream(splitMixSeed: 6)
        for mean in [0.5, 4.0, 50.0] {
            let avg = Double((0..<10_000).reduce(0) { acc, _ in acc + r.poisson(mean: mean) }) / 10_000
            #expect(abs(avg - mean) < max(0.05, mean * 0.03))
        }
    }

    @Test func distributionsAsScenarioFilesWriteThem() {
        var r = RandomStream(splitMixSeed: 7)
        #expect(Distribution.constant(5).sample(&r) == 5)
        for _ in 0..<1_000 {
            let u = Distribution.uniform(2, 3).sample(&r)
            #expect(u >= 2 && u < 3)
        }
        // Durations are never negative, whatever the distribution draws.
        #expect(Distribution.normal(mean: -1_000, sd: 1).sampleDuration(&r) == .zero)
    }
}
