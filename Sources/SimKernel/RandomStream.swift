/// SplitMix64 (Steele, Lea & Flood 2014): used only to derive stream seeds.
public struct SplitMix64: Sendable {
    public var state: UInt64
    public init(state: UInt64) { self.state = state }
    @inlinable public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// xoshiro256** 1.0 (Blackman & Vigna): the generator behind every draw in a world.
///
/// FleetSim carries its own generator and draw functions because the standard
/// library does not promise its random algorithms across releases.
public struct RandomStream: Sendable {
    @usableFromInline var s0, s1, s2, s3: UInt64

    /// A stream whose state is the given four words (must not all be zero).
    public init(state: (UInt64, UInt64, UInt64, UInt64)) {
        (s0, s1, s2, s3) = state
        if s0 | s1 | s2 | s3 == 0 { s0 = 1 }
    }

    /// A stream seeded from the first four outputs of SplitMix64 started at `splitMixSeed`.
    public init(splitMixSeed: UInt64) {
        var sm = SplitMix64(state: splitMixSeed)
        self.init(state: (sm.next(), sm.next(), sm.next(), sm.next()))
    }

    /// The stream for one (seed, entity, purpose) triple. Streams of different
    /// entities or purposes are independent, so adding a device or a new kind of draw
    /// never shifts anyone else's draws.
    public init(seed: UInt64, entity: UInt64, purpose: StreamPurpose) {
        var mixer = SplitMix64(state: seed)
        var x = mixer.next()
        mixer = SplitMix64(state: x ^ (entity &* 0xD605_BBB5_8C8A_BBA5))
        x = mixer.next()
        self.init(splitMixSeed: x ^ purpose.key)
    }

    @inlinable public mutating func next() -> UInt64 {
        let result = rotl(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotl(s3, 45)
        return result
    }

    @inlinable func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 &- k)) }
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

    @inlinable static func fnv1a<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return h
    }
}
