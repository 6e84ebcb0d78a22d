/// Renders a GitHub-flavoured Markdown table (for `report.md`).
///
/// Rules:
/// - The number of columns is the longest of the header and the rows; missing cells are
///   empty. Every line is `| cell | cell |`, cells padded to their column's width
///   (counted in `Character`s, at least 3) so the source reads as a grid.
/// - `|` in a cell is escaped as `\|`; line breaks (`\n`, `\r`) become spaces, so a cell
///   never breaks the table.
/// - Alignment per column (default left) sets the delimiter row (`---`, `---:`,
///   `:---:`) and the padding side.
/// - No columns at all renders as the empty string; otherwise the text ends with a
///   newline.
public enum MarkdownTable {
    /// How a column's cells are aligned.
    public enum Alignment: Sendable, Equatable {
        case left, right, center
    }

    /// The table text.
    /// - Parameters:
    ///   - header: the column titles.
    ///   - rows: the body, one array of cells per row.
    ///   - alignments: per column; columns beyond the array are left-aligned.
    /// - Complexity: O(total characters of all cells).
    public static func render(header: [String], rows: [[String]], alignments: [Alignment] = []) -> String {
        let columns = rows.reduce(header.count) { Swift.max($0, $1.count) }
        guard columns > 0 else { return "" }
        let table = ([header] + rows).map { row in
            (0..<columns).map { $0 < row.count ? escape(row[$0]) : "" }
        }
        var widths = [Int](repeating: 3, count: columns)
        for row in table {
            for (column, cell) in row.enumerated() { widths[column] = Swift.max(widths[column], cell.count) }
        }
        let alignment = (0..<columns).map { $0 < alignments.count ? alignments[$0] : .left }

        var out = line(table[0], widths: widths, alignment: alignment)
        out += "|" + (0..<columns).map { delimiter(width: widths[$0], alignment[$0]) }.joined(separator: "|") + "|\n"
        for row in table.dropFirst() { out += line(row, widths: widths, alignment: alignment) }
        return out
    }

    private static func line(_ cells: [String], widths: [Int], alignment: [Alignment]) -> String {
        var out = "|"
        for (column, cell) in cells.enumerated() {
            out += " " + pad(cell, to: widths[column], alignment[column]) + " |"
        }
        return out + "\n"
    }

    private static func delimiter(width: Int, _ alignment: Alignment) -> String {
        switch alignment {
        case .left: return String(repeating: "-", count: width + 2)
        case .right: return String(repeating: "-", count: width + 1) + ":"
        case .center: return ":" + String(repeating: "-", count: width) + ":"
        }
    }

    private static func pad(_ cell: String, to width: Int, _ alignment: Alignment) -> String {
        let missing = width - cell.count
        switch alignment {
        case .left: return cell + String(repeating: " ", count: missing)
        case .right: return String(repeating: " ", count: missing) + cell
        case .center:
            let before = missing / 2
            return String(repeating: " ", count: before) + cell + String(repeating: " ", count: missing - before)
        }
    }

    private static func escape(_ cell: String) -> String {
        var out = ""
        for character in cell {
            switch character {
            case "|": out += "\\|"
            case "\n", "\r", "\r\n": out += " "
            default: out.append(character)
            }
        }
        return out
    }
}
