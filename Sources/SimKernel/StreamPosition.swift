/// A random stream kept as the number of draws it has made: 4 bytes where the stream is
/// 16 (docs/performance.md#streams-as-positions).
///
/// The rule: a ``RandomStream``'s state after `n` draws is `seed₀ + n·gamma`, where
/// `seed₀` and `gamma` are a pure function of (world seed, entity, purpose). So an
/// entity that keeps only `n` can rebuild its stream where it left off, draw, and store
/// the new `n` (``StreamKeys/withStream(entity:purpose:at:_:)``): the draws are the
/// ones the full stream would have made, by construction.
///
/// The bound: a position is at most `UInt32.max` draws. A draw past it traps, naming the
/// reason, rather than wrapping to the start of the sequence. It is far beyond any run:
/// a run lasts at most 366 days, and 2^32 draws in them are 136 a second, all day, from
/// one entity's stream for one purpose (a device's busiest stream draws a few hundred
/// a day in the shipped scenarios).
public struct StreamPosition: Sendable, Equatable {
    /// How many times the stream has stepped (`RandomStream.next()`; a draw may step more
    /// than once, as a rejection does).
    public let draws: UInt32

    /// A stream that has not drawn yet.
    public static var start: StreamPosition { StreamPosition(draws: 0) }

    @inlinable public init(draws: UInt32) { self.draws = draws }
}

/// The random streams of one world seed, derived from (entity, purpose) when they are used
/// (``StreamPosition`` states the rule). The seed's first SplitMix64 step, common to every
/// stream of the world, is done once here; each use derives the entity's key (one mix),
/// the stream's start and gamma (one mix each), and advances by multiplication.
public struct StreamKeys: Sendable {
    /// The world seed's first SplitMix64 output.
    @usableFromInline let world: UInt64

    public init(seed: UInt64) {
        var mixer = SplitMix64(state: seed)
        world = mixer.next()
    }

    /// The stream of `entity` for `purpose` after `position` draws:
    /// `RandomStream(seed:entity:purpose:)` after `position.draws` calls of `next()`.
    @inlinable @inline(__always) public func stream(entity: UInt64, purpose: StreamPurpose, at position: StreamPosition) -> RandomStream {
        var mixer = SplitMix64(state: world ^ (entity &* 0xD605_BBB5_8C8A_BBA5))
        var stream = RandomStream(splitOf: mixer.next() ^ purpose.key)
        stream.seed &+= UInt64(position.draws) &* stream.gamma
        return stream
    }

    /// Rebuilds the stream of (`entity`, `purpose`) at `position`, lets `body` draw from
    /// it, and moves `position` past the draws made. Traps if they pass the position's
    /// bound (``StreamPosition``), or if `body` put another stream in its place.
    @inlinable @inline(__always) public func withStream<Result>(entity: UInt64, purpose: StreamPurpose, at position: inout StreamPosition,
                                             _ body: (inout RandomStream) throws -> Result) rethrows -> Result {
        let start = stream(entity: entity, purpose: purpose, at: position)
        var stream = start
        let result = try body(&stream)
        precondition(stream.gamma == start.gamma, "a stream rebuilt from its position was replaced by another")
        // The draws made, counted by stepping the start to where the stream ended: one
        // add and compare per draw, and none for a use that did not draw.
        let room = UInt64(UInt32.max - position.draws)
        var seed = start.seed
        var steps: UInt64 = 0
        while seed != stream.seed {
            precondition(steps < room, "a random stream drew more than 2^32 - 1 times: its position (StreamPosition) is 32 bits")
            seed &+= start.gamma
            steps += 1
        }
        position = StreamPosition(draws: position.draws + UInt32(truncatingIfNeeded: steps))
        return result
    }
}

