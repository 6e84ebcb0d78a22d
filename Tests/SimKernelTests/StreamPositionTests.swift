import Testing
@testable import SimKernel

/// A stream kept as a position and rebuilt at each use (``StreamKeys``) must make the
/// draws the full stream makes, at every position up to the bound, and stop there.
@Suite struct StreamPositionTests {
    static let triples: [(seed: UInt64, entity: UInt64, purpose: StreamPurpose)] = [
        (42, 7, "user"), (1, 999_999, "user.screen"), (0, 0, "os"), (.max, .max, "push.lifecycle"),
    ]

    static func same(_ a: RandomStream, _ b: RandomStream) -> Bool { a.seed == b.seed && a.gamma == b.gamma }

    /// Known answers, computed apart from this code from the derivation's definition
    /// (SplitMix64 of the seed, of the entity, `SplittableRandom.split()` of the purpose's
    /// key): the draws after positions 0, 1 and 2, and the last draw a position allows
    /// (from position 2^32 - 2).
    @Test func rebuiltStreamsMatchKnownAnswers() {
        func draws(_ seed: UInt64, _ entity: UInt64, _ purpose: StreamPurpose) -> [UInt64] {
            let keys = StreamKeys(seed: seed)
            return [0, 1, 2, UInt32.max - 1].map {
                var stream = keys.stream(entity: entity, purpose: purpose, at: StreamPosition(draws: $0))
                return stream.next()
            }
        }
        #expect(draws(42, 7, "user") == [17_502_937_190_628_819_317, 12_041_252_075_350_283_499, 925_909_911_587_703_443, 5_217_437_280_818_074_668])
        #expect(draws(1, 999_999, "user.screen") == [18_329_797_275_961_647_747, 1_492_332_693_946_888_923, 5_230_174_185_755_154_844, 10_665_828_917_275_470_921])
        #expect(draws(0, 0, "os") == [6_360_142_099_666_844_867, 11_316_247_196_378_566_986, 11_116_048_508_284_961_506, 16_468_467_608_961_548_476])
    }

    /// The stream rebuilt at position n is the full stream after n draws: its state and
    /// its next draws, from the start, after one draw, and after many.
    @Test func rebuiltStreamIsTheFullStreamAfterThatManyDraws() {
        for (seed, entity, purpose) in Self.triples {
            let keys = StreamKeys(seed: seed)
            var full = RandomStream(seed: seed, entity: entity, purpose: purpose)
            #expect(Self.same(keys.stream(entity: entity, purpose: purpose, at: .start), full))
            var n: UInt32 = 0
            for target: UInt32 in [0, 1, 2, 3, 1_000, 65_537, 200_000] {
                while n < target { _ = full.next(); n += 1 }
                var rebuilt = keys.stream(entity: entity, purpose: purpose, at: StreamPosition(draws: n))
                #expect(Self.same(rebuilt, full))
                var copy = full
                #expect((0..<3).map { _ in rebuilt.next() } == (0..<3).map { _ in copy.next() })
            }
        }
    }

    /// Far positions and those next to the bound: rebuilding at n + k is rebuilding at n
    /// and drawing k times.
    @Test func farPositionsAreTheNearOnesStepped() {
        for (seed, entity, purpose) in Self.triples {
            let keys = StreamKeys(seed: seed)
            for n: UInt32 in [1 << 31, UInt32.max - 5, UInt32.max - 1] {
                var stepped = keys.stream(entity: entity, purpose: purpose, at: StreamPosition(draws: n))
                for k in 1...min(5, UInt32.max - n) {
                    _ = stepped.next()
                    #expect(Self.same(keys.stream(entity: entity, purpose: purpose, at: StreamPosition(draws: n + k)), stepped))
                }
            }
        }
    }

    /// A use moves the position by exactly the draws made: none, one, several, a
    /// rejection's extra ones (an integer in a range that rejects half its draws); and
    /// its draws are the full stream's.
    @Test func aUseMovesThePositionByItsDraws() {
        let keys = StreamKeys(seed: 2_024)
        var full = RandomStream(seed: 2_024, entity: 3, purpose: "continuation")
        var position = StreamPosition.start
        var made: [UInt64] = []
        let nothing: Int = keys.withStream(entity: 3, purpose: "continuation", at: &position) { _ in 7 }
        #expect(nothing == 7 && position == .start)
        made.append(keys.withStream(entity: 3, purpose: "continuation", at: &position) { $0.next() })
        #expect(position.draws == 1)
        made += keys.withStream(entity: 3, purpose: "continuation", at: &position) { rng in (0..<5).map { _ in rng.next() } }
        #expect(position.draws == 6)
        #expect(made == (0..<6).map { _ in full.next() })
        // 2^63 + 1 values: a draw is rejected with probability about one half.
        var expected = full
        let range: ClosedRange<Int64> = 0...(Int64.max / 2 + 1)
        for _ in 0..<20 {
            let value = keys.withStream(entity: 3, purpose: "continuation", at: &position) { $0.int(in: range) }
            #expect(value == expected.int(in: range))
            #expect(Self.same(keys.stream(entity: 3, purpose: "continuation", at: position), expected))
        }
        #expect(position.draws > 6 + 20)
    }

    /// The bound: draws may reach position 2^32 - 1 exactly.
    @Test func drawsReachTheBound() {
        let keys = StreamKeys(seed: 5)
        var position = StreamPosition(draws: UInt32.max - 3)
        var expected = keys.stream(entity: 9, purpose: "stepSync", at: position)
        let made = keys.withStream(entity: 9, purpose: "stepSync", at: &position) { rng in (0..<3).map { _ in rng.next() } }
        #expect(made == (0..<3).map { _ in expected.next() })
        #expect(position.draws == UInt32.max)
        // A use that does not draw is fine at the bound.
        keys.withStream(entity: 9, purpose: "stepSync", at: &position) { _ in }
        #expect(position.draws == UInt32.max)
    }

    /// A draw past the bound traps (it would otherwise wrap to the stream's start and
    /// replay its draws).
    @Test func aDrawPastTheBoundTraps() async {
        await #expect(processExitsWith: .failure) {
            let keys = StreamKeys(seed: 5)
            var position = StreamPosition(draws: UInt32.max - 1)
            keys.withStream(entity: 9, purpose: "stepSync", at: &position) { rng in _ = rng.next(); _ = rng.next() }
        }
    }

    /// The body may not put another stream in the rebuilt one's place.
    @Test func replacingTheStreamTraps() async {
        await #expect(processExitsWith: .failure) {
            let keys = StreamKeys(seed: 5)
            var position = StreamPosition.start
            keys.withStream(entity: 9, purpose: "stepSync", at: &position) { $0 = RandomStream(splitMixSeed: 1) }
        }
    }
}
