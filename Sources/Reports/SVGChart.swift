/// Tiny, dependency-free SVG charts for `report.html` (inline `<svg>` elements).
///
/// Rules:
/// - The text is a pure function of the arguments: coordinates and numbers are written
///   by ``FixedDecimal`` (coordinates with 1 digit), the axis scale is found with basic
///   arithmetic only (no `log`/`pow`, whose last bits may differ between C libraries).
/// - Every piece of caller text (title, labels, unit) is XML-escaped (`& < > " '`).
/// - One element per line; the output starts with `<svg` and ends with `</svg>\n`.
public enum SVGChart {
    /// A vertical bar chart, one bar per value, on an axis from 0 to a "nice" maximum
    /// (1, 2 or 5 × 10ⁿ at or above the largest value) with 4 grid lines.
    ///
    /// Values that are negative or not finite draw no bar; a non-finite value is
    /// labelled `n/a`. Labels pair with values by position (missing labels are empty,
    /// extra labels ignored). `width` and `height` are clamped to at least 160 × 120.
    /// Each bar carries a `<title>` tooltip `label: value unit`.
    /// - Complexity: O(values + total label length).
    public static func bars(
        title: String, labels: [String], values: [Double], unit: String,
        width: Int = 640, height: Int = 240
    ) -> String {
        let w = Double(Swift.max(width, 160)), h = Double(Swift.max(height, 120))
        let left = 56.0, right = 12.0, top = 36.0, bottom = 36.0
        let plotWidth = w - left - right, plotHeight = h - top - bottom
        let largest = values.reduce(0.0) { $1.isFinite ? Swift.max($0, $1) : $0 }
        let axisMax = niceCeiling(largest)
        let digits = axisMax >= 100 ? 0 : axisMax >= 10 ? 1 : axisMax >= 1 ? 2 : 3

        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(w, 0))\" height=\"\(n(h, 0))\""
            + " viewBox=\"0 0 \(n(w, 0)) \(n(h, 0))\" role=\"img\" font-family=\"sans-serif\" font-size=\"11\">\n"
        out += "<title>\(XMLText.escape(title))</title>\n"
        out += "<rect x=\"0\" y=\"0\" width=\"\(n(w, 0))\" height=\"\(n(h, 0))\" fill=\"#ffffff\"/>\n"
        out += "<text x=\"\(n(left, 1))\" y=\"20.0\" font-size=\"14\" font-weight=\"bold\">\(XMLText.escape(title))</text>\n"
        if !unit.isEmpty {
            out += "<text x=\"\(n(left - 6, 1))\" y=\"\(n(top - 6, 1))\" text-anchor=\"end\" fill=\"#555555\">\(XMLText.escape(unit))</text>\n"
        }
        for tick in 0...4 {
            let y = top + plotHeight - plotHeight * Double(tick) / 4
            out += "<line x1=\"\(n(left, 1))\" y1=\"\(n(y, 1))\" x2=\"\(n(left + plotWidth, 1))\" y2=\"\(n(y, 1))\""
                + " stroke=\"\(tick == 0 ? "#333333" : "#dddddd")\" stroke-width=\"1\"/>\n"
            out += "<text x=\"\(n(left - 6, 1))\" y=\"\(n(y + 4, 1))\" text-anchor=\"end\" fill=\"#555555\">"
                + "\(n(axisMax * Double(tick) / 4, digits))</text>\n"
        }
        if values.isEmpty {
            out += "<text x=\"\(n(left + plotWidth / 2, 1))\" y=\"\(n(top + plotHeight / 2, 1))\" text-anchor=\"middle\""
                + " fill=\"#555555\">no data</text>\n"
        }
        let slot = plotWidth / Double(Swift.max(values.count, 1))
        for (i, value) in values.enumerated() {
            let label = i < labels.count ? labels[i] : ""
            let valueText = value.isFinite ? n(value, digits) : "n/a"
            let barHeight = value.isFinite && value > 0 ? plotHeight * value / axisMax : 0
            let x = left + slot * Double(i) + slot * 0.15
            let y = top + plotHeight - barHeight
            let center = left + slot * (Double(i) + 0.5)
            let tooltip = unit.isEmpty ? "\(label): \(valueText)" : "\(label): \(valueText) \(unit)"
            out += "<rect x=\"\(n(x, 1))\" y=\"\(n(y, 1))\" width=\"\(n(slot * 0.7, 1))\" height=\"\(n(barHeight, 1))\""
                + " fill=\"#4e79a7\"><title>\(XMLText.escape(tooltip))</title></rect>\n"
            out += "<text x=\"\(n(center, 1))\" y=\"\(n(y - 4, 1))\" text-anchor=\"middle\">\(valueText)</text>\n"
            out += "<text x=\"\(n(center, 1))\" y=\"\(n(top + plotHeight + 16, 1))\" text-anchor=\"middle\">\(XMLText.escape(label))</text>\n"
        }
        out += "</svg>\n"
        return out
    }

    /// The smallest of 1, 2, 5 × 10ⁿ that is ≥ `x` (1 when `x` ≤ 0).
    /// - Complexity: O(|n|), at most a few hundred steps for any finite `x`.
    static func niceCeiling(_ x: Double) -> Double {
        guard x > 0, x.isFinite else { return 1 }
        var step = 1.0
        while step * 10 <= x, step < 1e307 { step *= 10 }
        while step > x, step > 1e-300 { step /= 10 }
        for multiple in [1.0, 2.0, 5.0, 10.0] where multiple * step >= x { return multiple * step }
        return 10 * step
    }

    private static func n(_ x: Double, _ digits: Int) -> String {
        FixedDecimal.format(x, digits: digits) ?? "0"
    }
}
