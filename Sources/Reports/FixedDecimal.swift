/// Fixed-digit decimal text for a `Double`, computed by FleetSim's own code.
///
/// Rules (these make report output byte-identical across machines and releases):
/// - The decimal value rounded is the *exact* value of the `Double` (every finite double
///   is a dyadic rational, so it has a finite decimal expansion); it is never multiplied
///   by 10ⁿ in floating point first. Ties round half away from zero.
/// - Exactly `digits` fraction digits (0 means no decimal point); `digits` is clamped to
///   `0...1074`, enough for the exact expansion of any double.
/// - A result whose digits are all zero has no minus sign: `-0.0` and `-0.0000001` at
///   6 digits both print `0.000000`.
/// - No locale, no `String(format:)`, no grouping separators, no exponent notation.
/// - Non-finite values have no decimal text: `format` returns nil.
public enum FixedDecimal {
    /// The largest number of fraction digits honoured.
    public static let maxDigits = 1074

    /// `x` written with exactly `digits` fraction digits, or nil when `x` is NaN or infinite.
    ///
    /// - Complexity: O(digits) in 128-bit integers for up to 18 digits and magnitudes
    ///   below 2^67 (every value a report holds); otherwise O((digits + e)²/1000) for a
    ///   value of binary exponent e in arbitrary precision.
    public static func format(_ x: Double, digits: Int) -> String? {
        guard x.isFinite else { return nil }
        let fractionDigits = Swift.min(Swift.max(digits, 0), maxDigits)
        return formatSmall(x, fractionDigits: fractionDigits) ?? formatExact(x, fractionDigits: fractionDigits)
    }

    /// Appends `x`'s text with `digits` fraction digits (the UTF-8 of
    /// ``format(_:digits:)``) to `out`, or `null` when it has none: what report.json
    /// writes, without a `String` per number.
    static func write(_ x: Double, digits: Int, into out: inout ByteSink) {
        guard x.isFinite else { out.append("null"); return }
        let fractionDigits = Swift.min(Swift.max(digits, 0), maxDigits)
        if fractionDigits <= smallDigits {
            let room = out.reserve(smallTextBytes)
            if let n = smallText(x, fractionDigits: fractionDigits, into: room) {
                out.commit(n)
                return
            }
        }
        var text = formatExact(x, fractionDigits: fractionDigits)
        text.withUTF8 { out.append($0) }
    }

    /// ``smallText(_:fractionDigits:into:)``'s text as a `String`.
    static func formatSmall(_ x: Double, fractionDigits: Int) -> String? {
        guard fractionDigits <= smallDigits else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: smallTextBytes) { buffer in
            smallText(x, fractionDigits: fractionDigits, into: buffer.baseAddress!).map {
                String(decoding: UnsafeBufferPointer(start: buffer.baseAddress!, count: $0), as: UTF8.self)
            }
        }
    }

    /// The most fraction digits ``smallText(_:fractionDigits:into:)`` writes.
    static let smallDigits = 18
    /// The most bytes it writes: a sign, 39 digits (below 2^127) and a point.
    static let smallTextBytes = 48

    /// The text in 128-bit integer arithmetic, written at `out` (at most
    /// ``smallTextBytes``), for the values reports hold (up to 18 digits, magnitudes below
    /// 2^67): the significand times 10^digits fits in 113 bits, so the shift and its
    /// rounding bit are exact. Its length, or nil, with nothing written, when it does
    /// not apply.
    static func smallText(_ x: Double, fractionDigits: Int, into out: UnsafeMutablePointer<UInt8>) -> Int? {
        let magnitude = x.magnitude
        let significand: UInt64, exponent: Int
        if magnitude.isNormal {
            significand = magnitude.significandBitPattern | (1 << 52)
            exponent = Int(magnitude.exponent) - 52
        } else {
            significand = magnitude.significandBitPattern
            exponent = -1074
        }
        guard exponent <= 14 else { return nil }
        let product = UInt128(significand) * UInt128(tenPowers64[fractionDigits])  // < 2^113
        var scaled: UInt128
        if exponent >= 0 {
            scaled = product << exponent  // < 2^127: at most 39 digits
        } else if -exponent >= 128 {
            scaled = 0  // below 2^-15 of a unit in the last place: rounds to zero
        } else {
            let shift = -exponent
            scaled = product >> shift
            if (product >> (shift - 1)) & 1 == 1 { scaled += 1 }
        }
        let isZero = scaled == 0
        if scaled <= UInt128(UInt64.max) {
            // The usual case, in 64 bits: the digits written backwards where they go, the
            // integer part at least "0" and the fraction padded with zeros.
            let value = UInt64(scaled)
            let negative = x.sign == .minus && !isZero
            let digits = Swift.max(decimalLength(value), fractionDigits + 1)
            let length = (negative ? 1 : 0) + digits + (fractionDigits > 0 ? 1 : 0)
            if negative { out[0] = UInt8(ascii: "-") }
            if fractionDigits == 0 {
                writeDigits(value, endingAt: out + length)
            } else {
                let unit = tenPowers64[fractionDigits]
                let point = out + length - fractionDigits - 1
                writeDigits(value / unit, endingAt: point)
                point[0] = UInt8(ascii: ".")
                writeDigits(value % unit, endingAt: out + length, width: fractionDigits)
            }
            return length
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { digits in
            // Decimal digits, least significant first: 19 at a time while above 64 bits.
            var n = 0
            while scaled > UInt128(UInt64.max) {
                let (high, low) = scaled.quotientAndRemainder(dividingBy: UInt128(tenPowers64[19]))
                var chunk = UInt64(low)
                for _ in 0..<19 { digits[n] = UInt8(chunk % 10); n += 1; chunk /= 10 }
                scaled = high
            }
            var rest = UInt64(scaled)
            repeat { digits[n] = UInt8(rest % 10); n += 1; rest /= 10 } while rest != 0
            while n <= fractionDigits { digits[n] = 0; n += 1 }
            var length = 0
            if x.sign == .minus && !isZero { out[0] = UInt8(ascii: "-"); length = 1 }
            for i in stride(from: n - 1, through: 0, by: -1) {
                if i == fractionDigits - 1 { out[length] = UInt8(ascii: "."); length += 1 }
                out[length] = UInt8(ascii: "0") + digits[i]
                length += 1
            }
            return length
        }
    }

    /// How many decimal digits `value` has (1 for 0).
    @inline(__always) static func decimalLength(_ value: UInt64) -> Int {
        var length = 1
        while length < 20 && value >= tenPowers64[length] { length += 1 }
        return length
    }

    /// "00" to "99", two bytes a pair.
    static let digitPairs: [UInt8] = (0..<100).flatMap { [UInt8(ascii: "0") + UInt8($0 / 10), UInt8(ascii: "0") + UInt8($0 % 10)] }

    /// Writes `value`'s decimal digits so that the last ends just before `end`, two at a
    /// time, padded on the left with zeros to `width` digits (at least one digit).
    @inline(__always) static func writeDigits(_ value: UInt64, endingAt end: UnsafeMutablePointer<UInt8>, width: Int = 1) {
        var rest = value, p = end, written = 0
        digitPairs.withUnsafeBufferPointer { pairs in
            while rest >= 100 {
                let pair = Int(rest % 100) &* 2
                rest /= 100
                p -= 2
                p[0] = pairs[pair]
                p[1] = pairs[pair &+ 1]
                written &+= 2
            }
            if rest >= 10 {
                let pair = Int(rest) &* 2
                p -= 2
                p[0] = pairs[pair]
                p[1] = pairs[pair &+ 1]
                written &+= 2
            } else {
                p -= 1
                p[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest)
                written &+= 1
            }
        }
        while written < width {
            p -= 1
            p[0] = UInt8(ascii: "0")
            written &+= 1
        }
    }

    static func formatExact(_ x: Double, fractionDigits: Int) -> String {
        let magnitude = x.magnitude

        // magnitude == significand · 2^exponent exactly.
        var scaled: BigUnsigned
        let exponent: Int
        if magnitude.isNormal {
            scaled = BigUnsigned(magnitude.significandBitPattern | (1 << 52))
            exponent = Int(magnitude.exponent) - 52
        } else {  // zero or subnormal
            scaled = BigUnsigned(magnitude.significandBitPattern)
            exponent = -1074
        }

        // scaled = round(magnitude · 10^digits), half away from zero.
        var remaining = fractionDigits
        while remaining > 0 {
            let step = Swift.min(remaining, 9)
            scaled.multiply(by: tenPowers[step])
            remaining -= step
        }
        if exponent >= 0 {
            scaled.shiftLeft(exponent)
        } else {
            let roundsUp = scaled.bit(-exponent - 1)
            scaled.shiftRight(-exponent)
            if roundsUp { scaled.add(1) }
        }

        var text = scaled.decimalString
        let negative = x.sign == .minus && !scaled.isZero
        if fractionDigits > 0 {
            if text.count <= fractionDigits {
                text = String(repeating: "0", count: fractionDigits + 1 - text.count) + text
            }
            text.insert(".", at: text.index(text.endIndex, offsetBy: -fractionDigits))
        }
        return negative ? "-" + text : text
    }

    private static let tenPowers64: [UInt64] = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
        10_000_000_000, 100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000,
        1_000_000_000_000_000, 10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000,
        10_000_000_000_000_000_000,
    ]

    private static let tenPowers: [UInt32] = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
    ]
}
