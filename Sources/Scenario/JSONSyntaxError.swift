/// Why a byte sequence is not JSON, and where: 1-based line and column (columns
/// count Unicode scalars), the JSON path reached so far, what the grammar expected
/// and what the text has there.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    /// The innermost path the parser had entered, e.g. `$.fleet[0].battery`.
    public var path: String
    public var expected: String
    /// E.g. `"]"`, `the end of the file`, `the byte 0xFF (not valid UTF-8)`.
    public var found: String

    public init(line: Int, column: Int, path: String, expected: String, found: String) {
        self.line = line; self.column = column; self.path = path; self.expected = expected; self.found = found
    }

    public var description: String {
        "line \(line), column \(column): \(path): expected \(expected), found \(found)"
    }
}
