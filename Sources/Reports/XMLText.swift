/// Text inside XML and HTML documents (junit.xml, report.html, the SVG charts, explore's
/// junit.xml): one escape, so every document escapes the same characters.
public enum XMLText {
    /// `text` with the five XML special characters escaped.
    /// - Complexity: O(length).
    public static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
