import Testing
import SimKernel
@testable import Reports

@Suite struct FixedDecimalTests {
    /// Goldens from Python's `Decimal(x).quantize(..., ROUND_HALF_UP)` (exact value of the
    /// double, ties away from zero).
    @Test(arguments: [
        (0.125, 2, "0.13"), (-0.125, 2, "-0.13"), (2.5, 0, "3"), (-2.5, 0, "-3"),
        (0.5, 0, "1"), (1.5, 0, "2"), (1.0, 3, "1.000"), (0.0, 0, "0"),
        (1.005, 2, "1.00"), (2.675, 2, "2.67"), (0.045, 2, "0.04"),
        // Where rounding x·10ⁿ computed in floating point would give the wrong answer:
        (81848.765, 2, "81848.76"), (6.5399065, 6, "6.539906"), (0.0353335, 6, "0.035333"),
        (0.1, 20, "0.10000000000000000555"), (123.456, 10, "123.4560000000"), (123.456, 0, "123"),
        (1e20, 0, "100000000000000000000"), (1e20, 2, "100000000000000000000.00"),
        (-0.0, 2, "0.00"), (-0.0000005, 6, "0.000000"), (-0.0000001, 6, "0.000000"),
        (.leastNonzeroMagnitude, 6, "0.000000"), (0.001, -3, "0"), (-1234.5678, 1, "-1234.6"),
    ] as [(Double, Int, String)])
    func formatsExactDecimalValue(x: Double, digits: Int, expected: String) {
        #expect(FixedDecimal.format(x, digits: digits) == expected)
    }

    @Test func largestDoubleIsPrintedExactly() {
        let expected = "179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368"
        #expect(FixedDecimal.format(.greatestFiniteMagnitude, digits: 0) == expected)
        #expect(FixedDecimal.format(-.greatestFiniteMagnitude, digits: 1) == "-" + expected + ".0")
    }

    @Test func nonFiniteHasNoText() {
        #expect(FixedDecimal.format(.nan, digits: 2) == nil)
        #expect(FixedDecimal.format(.infinity, digits: 0) == nil)
        #expect(FixedDecimal.format(-.infinity, digits: 6) == nil)
    }

    /// Microseconds shown as seconds with 6 digits read back the exact integer, checked
    /// against integer-only formatting on seeded values of every magnitude.
    @Test func secondsFromMicrosecondsAreExact() {
        var rng = RandomStream(splitMixSeed: 7)
        for _ in 0..<20_000 {
            let bits = rng.next() % 52
            let magnitude = Int64(rng.next() & ((1 << bits) - 1))
            let micros = rng.next() & 1 == 0 ? magnitude : -magnitude
            let fraction = String(micros.magnitude % 1_000_000)
            let expected = (micros < 0 ? "-" : "") + String(micros.magnitude / 1_000_000) + "."
                + String(repeating: "0", count: 6 - fraction.count) + fraction
            guard case .number(let x, let digits) = ReportValue.seconds(micros) else {
                Issue.record("not a number"); return
            }
            #expect(FixedDecimal.format(x, digits: digits) == expected, "µs \(micros)")
        }
    }

    /// The 128-bit path and the arbitrary-precision one write the same text: seeded
    /// random doubles over the whole exponent range, values a report holds, exact
    /// halves (ties), subnormals, the edges of the fast path (2^67, 18 digits) and signs.
    @Test func theFastPathWritesWhatTheExactPathWrites() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> UInt64 { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state }
        var values: [Double] = [0, -0.0, 0.5, -0.5, 1.5, 2.5, 0.125, 0.0625, 1e-300, Double.leastNonzeroMagnitude, -Double.leastNonzeroMagnitude, 2.2250738585072014e-308,
                                0x1p67, 0x1p67.nextDown, 0x1p67.nextUp, 0x1p66 * 1.5, 1e18, 123_456.789, 0.1, 0.7, 2.675]
        for _ in 0..<20_000 { values.append(Double(bitPattern: next())) }  // any exponent, NaNs skipped below
        for _ in 0..<20_000 { values.append(Double(Int64(bitPattern: next()) % 10_000_000_000) / 1_000) }  // report-like
        for _ in 0..<5_000 { values.append(Double(Int64(bitPattern: next()) % 1_000_000) / 1_024) }  // dyadic: ties
        for x in values where x.isFinite {
            for digits in [0, 1, 2, 3, 4, 6, 7, 9, 12, 17, 18] {
                let fast = FixedDecimal.formatSmall(x, fractionDigits: digits)
                if let fast { #expect(fast == FixedDecimal.formatExact(x, fractionDigits: digits), "\(x) at \(digits)") }
                if x.magnitude < 0x1p67 { #expect(fast != nil, "\(x) at \(digits) missed the fast path") }
            }
        }
    }

    /// What report.json writes: `format`'s text appended to what the buffer holds, on the
    /// fast path and off it (1e300, 19 digits), with the digits clamped, and `null` for
    /// a value without text; texts longer than the buffer's first room (1,100 digits)
    /// grow it.
    @Test func writeAppendsTheFormattedText() {
        for x in [0, -0.0, 0.25, -1.5, 2.675, 123_456.789, 1e300, -1e-300, .nan, .infinity, -.infinity] as [Double] {
            for digits in [-1, 0, 3, 18, 19, 1_100] {
                var out = ByteSink(capacity: 0)
                out.append(UInt8(ascii: "["))
                FixedDecimal.write(x, digits: digits, into: &out)
                #expect(String(decoding: out.bytes(), as: UTF8.self) == "[" + (FixedDecimal.format(x, digits: digits) ?? "null"), "\(x) at \(digits)")
            }
        }
    }
}
