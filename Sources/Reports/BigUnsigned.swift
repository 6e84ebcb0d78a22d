/// A small arbitrary-precision unsigned integer, used only where reports need exact
/// decimal text: fixed-digit formatting of `Double`s (``FixedDecimal``) and the exact
/// 128-bit sum of a ``LatencyHistogram``.
///
/// Rules:
/// - Little-endian base-2³² limbs; the representation is always normalised (no high
///   zero limbs; zero is the empty array), so synthesised equality is value equality.
/// - Only the handful of operations those two callers need; every loop is bounded by the
///   number of limbs or by the caller's digit count.
struct BigUnsigned: Equatable, Sendable {
    /// Little-endian base-2³² digits, without high zero limbs.
    private(set) var limbs: [UInt32]

    /// - Complexity: O(1).
    init(_ value: UInt64) {
        limbs = [UInt32(truncatingIfNeeded: value), UInt32(truncatingIfNeeded: value >> 32)]
        normalize()
    }

    /// The value `high · 2⁶⁴ + low`.
    /// - Complexity: O(1).
    init(high: UInt64, low: UInt64) {
        limbs = [
            UInt32(truncatingIfNeeded: low), UInt32(truncatingIfNeeded: low >> 32),
            UInt32(truncatingIfNeeded: high), UInt32(truncatingIfNeeded: high >> 32),
        ]
        normalize()
    }

    /// Parses a non-empty string of ASCII decimal digits (no sign, no separators).
    /// Returns nil for anything else, or for more than `maxDigits` digits.
    /// - Complexity: O(d²/9) for d digits.
    init?<S: StringProtocol>(decimal text: S, maxDigits: Int = 400) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= maxDigits else { return nil }
        self.init(0)
        for byte in bytes {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            multiply(by: 10)
            add(UInt32(byte - 0x30))
        }
    }

    /// True when the value is zero.
    var isZero: Bool { limbs.isEmpty }

    /// The value as (high, low) 64-bit words, or nil when it needs more than 128 bits.
    /// - Complexity: O(1).
    var words128: (high: UInt64, low: UInt64)? {
        guard limbs.count <= 4 else { return nil }
        var w = [UInt64](repeating: 0, count: 4)
        for (i, limb) in limbs.enumerated() { w[i] = UInt64(limb) }
        return (w[2] | w[3] << 32, w[0] | w[1] << 32)
    }

    /// `self *= factor`.
    /// - Complexity: O(limbs).
    mutating func multiply(by factor: UInt32) {
        var carry: UInt64 = 0
        for i in limbs.indices {
            let product = UInt64(limbs[i]) * UInt64(factor) + carry
            limbs[i] = UInt32(truncatingIfNeeded: product)
            carry = product >> 32
        }
        if carry != 0 { limbs.append(UInt32(truncatingIfNeeded: carry)) }
        normalize()
    }

    /// `self += addend`.
    /// - Complexity: O(limbs) worst case, O(1) amortised.
    mutating func add(_ addend: UInt32) {
        var carry = UInt64(addend)
        var i = 0
        while carry != 0 {
            if i == limbs.count { limbs.append(0) }
            let sum = UInt64(limbs[i]) + carry
            limbs[i] = UInt32(truncatingIfNeeded: sum)
            carry = sum >> 32
            i += 1
        }
    }

    /// `self <<= bits` (bits ≥ 0).
    /// - Complexity: O(limbs + bits/32).
    mutating func shiftLeft(_ bits: Int) {
        guard bits > 0, !isZero else { return }
        let whole = bits / 32, part = bits % 32
        if part != 0 {
            var carry: UInt32 = 0
            for i in limbs.indices {
                let limb = limbs[i]
                limbs[i] = (limb << UInt32(part)) | carry
                carry = limb >> UInt32(32 - part)
            }
            if carry != 0 { limbs.append(carry) }
        }
        if whole > 0 { limbs.insert(contentsOf: repeatElement(0, count: whole), at: 0) }
    }

    /// `self >>= bits` (bits ≥ 0), discarding the bits shifted out.
    /// - Complexity: O(limbs).
    mutating func shiftRight(_ bits: Int) {
        guard bits > 0 else { return }
        let whole = bits / 32, part = bits % 32
        guard whole < limbs.count else { limbs = []; return }
        limbs.removeFirst(whole)
        if part != 0 {
            for i in limbs.indices {
                let next = i + 1 < limbs.count ? limbs[i + 1] : 0
                limbs[i] = (limbs[i] >> UInt32(part)) | (next << UInt32(32 - part))
            }
        }
        normalize()
    }

    /// Bit `index` (0 = least significant); false beyond the top.
    /// - Complexity: O(1).
    func bit(_ index: Int) -> Bool {
        guard index >= 0 else { return false }
        let limb = index / 32
        guard limb < limbs.count else { return false }
        return (limbs[limb] >> UInt32(index % 32)) & 1 == 1
    }

    /// The value in decimal, without leading zeros ("0" for zero).
    /// - Complexity: O(limbs²).
    var decimalString: String {
        guard !isZero else { return "0" }
        var rest = limbs
        var chunks: [UInt32] = []  // base-10⁹ digits, least significant first
        while !rest.isEmpty {
            var remainder: UInt64 = 0
            for i in rest.indices.reversed() {
                let current = remainder << 32 | UInt64(rest[i])
                rest[i] = UInt32(truncatingIfNeeded: current / 1_000_000_000)
                remainder = current % 1_000_000_000
            }
            chunks.append(UInt32(truncatingIfNeeded: remainder))
            while rest.last == 0 { rest.removeLast() }
        }
        var text = String(chunks[chunks.count - 1])
        for chunk in chunks.dropLast().reversed() {
            let digits = String(chunk)
            text += String(repeating: "0", count: 9 - digits.count) + digits
        }
        return text
    }

    private mutating func normalize() {
        while limbs.last == 0 { limbs.removeLast() }
    }
}
