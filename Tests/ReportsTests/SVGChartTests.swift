import Testing
@testable import Reports

/// A minimal well-formedness check: every tag closes in order, attributes are quoted,
/// and no raw `<`, `>` or bare `&` appears in text.
private func isWellFormed(_ svg: String) -> Bool {
    var stack: [Substring] = []
    var rest = svg[...]
    while let open = rest.firstIndex(of: "<") {
        let text = rest[..<open]
        if text.contains(">") { return false }
        if !entitiesAreValid(text) { return false }
        guard let close = rest[open...].firstIndex(of: ">") else { return false }
        let tag = rest[rest.index(after: open)..<close]
        if tag.contains("<") || tag.filter({ $0 == "\"" }).count % 2 != 0 { return false }
        if tag.hasPrefix("/") {
            guard stack.popLast() == tag.dropFirst() else { return false }
        } else if !tag.hasSuffix("/") {
            stack.append(tag.prefix { $0 != " " })
        }
        rest = rest[rest.index(after: close)...]
    }
    return stack.isEmpty && !rest.contains(">")
}

private func entitiesAreValid(_ text: Substring) -> Bool {
    var rest = text
    while let amp = rest.firstIndex(of: "&") {
        let after = rest[amp...]
        guard ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"].contains(where: { after.hasPrefix($0) }) else { return false }
        rest = rest[rest.index(after: amp)...]
    }
    return true
}

@Suite struct SVGChartTests {
    private let chart = SVGChart.bars(
        title: "<p95> & \"friends\"", labels: ["iOS 'low'", "android <doze>", "web & co"],
        values: [50, 100, .nan], unit: "s")

    @Test func isWellFormedAndEscaped() {
        #expect(chart.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(chart.hasSuffix("</svg>\n"))
        #expect(isWellFormed(chart))
        #expect(chart.contains("&lt;p95&gt; &amp; &quot;friends&quot;"))
        #expect(chart.contains("android &lt;doze&gt;"))
        #expect(chart.contains("iOS &apos;low&apos;"))
        #expect(!chart.contains("<p95>"))
        #expect(!chart.contains("<doze>"))
    }

    @Test func checkerRejectsBrokenMarkup() {
        #expect(!isWellFormed("<svg><text>a < b</text></svg>"))
        #expect(!isWellFormed("<svg><text>a & b</text></svg>"))
        #expect(!isWellFormed("<svg><g></svg>"))
        #expect(isWellFormed("<svg><g/><text>a &amp; b</text></svg>"))
    }

    @Test func drawsOneBarPerValueScaledToANiceAxis() {
        #expect(chart.components(separatedBy: "<rect").count - 1 == 1 + 3)  // background + bars
        // Plot height 240 − 72 = 168; axis max 100: 50 → 84.0, 100 → 168.0, NaN → 0.0.
        #expect(chart.contains("height=\"84.0\""))
        #expect(chart.contains("height=\"168.0\""))
        #expect(chart.contains("height=\"0.0\""))
        #expect(chart.contains(">n/a</text>"))
        #expect(chart.contains(">100</text>"))  // top tick label
        #expect(chart.contains("<title>web &amp; co: n/a s</title>"))
    }

    @Test func isDeterministicAndHandlesNoData() {
        #expect(SVGChart.bars(title: "t", labels: ["a"], values: [1.25], unit: "mAh")
            == SVGChart.bars(title: "t", labels: ["a"], values: [1.25], unit: "mAh"))
        let empty = SVGChart.bars(title: "empty", labels: [], values: [], unit: "")
        #expect(empty.contains(">no data</text>"))
        #expect(isWellFormed(empty))
        let tiny = SVGChart.bars(title: "tiny", labels: ["a", "b"], values: [-1, 0.004], unit: "%", width: 10, height: 10)
        #expect(tiny.contains("width=\"160\" height=\"120\""))
        #expect(isWellFormed(tiny))
    }

    @Test func niceCeilingPicksOneTwoFive() {
        #expect(SVGChart.niceCeiling(0) == 1)
        #expect(SVGChart.niceCeiling(-5) == 1)
        #expect(SVGChart.niceCeiling(7) == 10)
        #expect(SVGChart.niceCeiling(10) == 10)
        #expect(SVGChart.niceCeiling(12) == 20)
        #expect(SVGChart.niceCeiling(101) == 200)
        #expect(SVGChart.niceCeiling(450) == 500)
        #expect(SVGChart.niceCeiling(0.03) == 0.05)
        #expect(SVGChart.niceCeiling(.infinity) == 1)
        #expect(SVGChart.niceCeiling(3e9) == 5e9)
        #expect(SVGChart.niceCeiling(1e300) >= 1e300)
    }

    /// A polyline's points are the text the coordinates' one-decimal strings joined would
    /// be: signs, rounding ties, values past the 64-bit digits, and a non-finite
    /// coordinate as `0`.
    @Test func polylinePointsAreTheJoinedCoordinates() {
        let pairs: [(Double, Double)] = [(70, 44), (70.05, -0.05), (-3.25, 0.15), (1e25, 123_456.789), (.nan, .infinity), (0, -0.0)]
        var points = SVGPoints()
        for (x, y) in pairs { points.add(x, y) }
        #expect(points.text() == pairs.map { "\(ReportSVG.n($0.0)),\(ReportSVG.n($0.1))" }.joined(separator: " "))
        #expect(SVGPoints().text() == "")
    }
}
