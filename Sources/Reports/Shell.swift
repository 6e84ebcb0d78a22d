import Foundation

/// POSIX shell quoting, so a printed command can be pasted into any shell: the one
/// quoting of every command FleetSim writes (the console, report.json's replay
/// strings and through them report.md, report.html and junit.xml; docs/report.md).
public enum Shell {
    /// Characters that never need quoting in a POSIX shell word.
    public static let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./-_".unicodeScalars)

    /// `arg` unchanged when every character is safe, else in single quotes, each `'`
    /// written as `'\''` (POSIX.1-2017, Shell Command Language, 2.2.2 Single-Quotes:
    /// nothing inside single quotes is special).
    public static func quote(_ arg: String) -> String {
        if !arg.isEmpty, arg.unicodeScalars.allSatisfy(safe.contains) { return arg }
        return "'" + arg.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    public static func command(_ args: [String]) -> String {
        args.map(quote).joined(separator: " ")
    }
}


extension Shell {
    /// The words of a command written by ``command(_:)``, each as written (quotes kept):
    /// split at the spaces outside single quotes, a backslash outside them escaping the
    /// next character (`'it'\''s'` is one word).
    public static func words(_ text: String) -> [String] {
        var words: [String] = []
        var word = ""
        var quoted = false, escaped = false
        for c in text {
            if escaped { word.append(c); escaped = false; continue }
            switch c {
            case "'": quoted.toggle(); word.append(c)
            case "\\" where !quoted: escaped = true; word.append(c)
            case " " where !quoted: words.append(word); word = ""
            default: word.append(c)
            }
        }
        words.append(word)
        return words
    }
}
