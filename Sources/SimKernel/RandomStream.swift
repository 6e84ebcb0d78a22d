/// SplitMix64 (Steele, Lea & Flood 2014) with the golden-ratio gamma: derives stream keys.
public struct SplitMix64: Sendable {
    public var state: UInt64
    public init(state: UInt64) { self.state = state }
    @inlinable public mutating func next() -> UInt64 {
        state &+= RandomStream.goldenGamma
        return RandomStream.mix64(state)
    }
}

/// The generator behind every draw in a world: SplitMix with a per-stream gamma, the
/// algorithm of Java's `SplittableRandom` (Steele, Lea & Flood, "Fast splittable
/// pseudorandom number generators", OOPSLA 2014). The state is a counter `seed` and an
/// odd increment `gamma`; each draw adds `gamma` to `seed` and returns `mix64(seed)`.
///
/// Why this one: a world holds about ten streams per device, so the state's size is
/// memory at a million devices. This one is 16 bytes (xoshiro256**, used up to
/// FleetSim 0.1.0, is 32). Each stream has its own gamma, chosen by `mixGamma` from
/// its key, so two streams are not shifted copies of one sequence, as every stream of a
/// single-gamma SplitMix64 would be; the paper reports that the generator passes
/// TestU01's BigCrush, including for streams made by splitting. Its period is 2^64 per
/// stream, far more than a stream draws in a run.
///
/// FleetSim carries its own generator and draw functions because the standard
/// library does not promise its random algorithms across releases.
public struct RandomStream: Sendable {
    @usableFromInline var seed: UInt64
    @usableFromInline let gamma: UInt64

    /// 2^64 divided by the golden ratio, rounded to odd: the gamma of unsplit streams. A
    /// computed value, so that code inlined into other modules reads no global.
    @inlinable static var goldenGamma: UInt64 { 0x9E37_79B9_7F4A_7C15 }

    /// The stream Java's `new SplittableRandom(splitMixSeed)` is: the golden gamma, so its
    /// draws are SplitMix64's from `splitMixSeed`.
    public init(splitMixSeed: UInt64) {
        seed = splitMixSeed
        gamma = Self.goldenGamma
    }

    /// The stream Java's `new SplittableRandom(parent).split()` returns: the parent's
    /// first draw as the seed, and its next counter value through `mixGamma` as the gamma.
    @inlinable @inline(__always) init(splitOf parent: UInt64) {
        seed = Self.mix64(parent &+ Self.goldenGamma)
        gamma = Self.mixGamma(parent &+ 2 &* Self.goldenGamma)
    }

    /// The stream for one (seed, entity, purpose) triple. Streams of different
    /// entities or purposes are independent, so adding a device or a new kind of draw
    /// never shifts anyone else's draws. (``StreamKeys`` derives the same stream, from
    /// the seed's first step computed once per world.)
    public init(seed: UInt64, entity: UInt64, purpose: StreamPurpose) {
        self = StreamKeys(seed: seed).stream(entity: entity, purpose: purpose, at: .start)
    }

    @inlinable public mutating func next() -> UInt64 {
        seed &+= gamma
        return Self.mix64(seed)
    }

    /// Stafford's variant 13 of MurmurHash3's 64-bit finaliser (`SplittableRandom.mix64`).
    @inlinable static func mix64(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `SplittableRandom.mixGamma`: MurmurHash3's finaliser, forced odd, and with every
    /// other bit flipped when it has fewer than 24 bit transitions (neighbouring bits that
    /// differ), since a gamma of long runs of equal bits makes successive seeds differ in
    /// few bits, which the mix does not hide well.
    @inlinable @inline(__always) static func mixGamma(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 33)) &* 0xFF51_AFD7_ED55_8CCD
        z = (z ^ (z >> 33)) &* 0xC4CE_B9FE_1A85_EC53
        z = (z ^ (z >> 33)) | 1
        let transitions = (z ^ (z >> 1)).nonzeroBitCount
        return transitions < 24 ? z ^ 0xAAAA_AAAA_AAAA_AAAA : z
    }
}

/// A named purpose of a random stream, hashed with FNV-1a so that the key depends on
/// the name only (never on declaration order or Swift's per-process hashing). A literal
/// purpose is hashed from its static bytes: a world's set-up names about fourteen
/// streams per device, and hashing them through `String`'s UTF-8 view cost about 300
/// instructions each.
public struct StreamPurpose: Sendable, ExpressibleByStringLiteral, Hashable {
    public let key: UInt64
    public init(_ name: String) { key = Self.fnv1a(name.utf8) }
    public init(stringLiteral value: StaticString) { key = value.withUTF8Buffer { Self.fnv1a($0) } }
    /// A purpose by its key, for a purpose used so often that hashing its name each time
    /// would show: the key written out as a constant, which a test pins to the name's.
    @inlinable public init(key: UInt64) { self.key = key }

    @inlinable static func fnv1a<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return h
    }
}
