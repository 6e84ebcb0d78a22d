/// A polyline's `points` attribute, `x,y x,y …`, each coordinate at one decimal as
/// ``ReportSVG/n(_:_:)`` writes it (a non-finite one as `0`), built in one byte buffer.
/// A week's load chart has thousands of points; a `String` per coordinate and a join
/// cost about 2,700 instructions a point (docs/performance.md, "The report: packed
/// series, one buffer").
struct SVGPoints: ~Copyable {
    private var bytes = ByteSink(capacity: 1 << 14)

    /// Appends the point (`x`, `y`).
    mutating func add(_ x: Double, _ y: Double) {
        if bytes.count > 0 { bytes.append(UInt8(ascii: " ")) }
        coordinate(x)
        bytes.append(UInt8(ascii: ","))
        coordinate(y)
    }

    private mutating func coordinate(_ value: Double) {
        if value.isFinite { FixedDecimal.write(value, digits: 1, into: &bytes) } else { bytes.append(UInt8(ascii: "0")) }
    }

    /// The attribute's text.
    consuming func text() -> String { String(decoding: bytes.bytes(), as: UTF8.self) }
}
