/// "Did you mean ...?" for misspelled keys and names.
///
/// The rule: a candidate equal ignoring case wins; otherwise the candidate at the
/// smallest edit distance (insertions, deletions, substitutions and swaps of two
/// neighbours each cost 1), if that distance is at most a third of the longer
/// word's length, clamped to 1...3. Ties go to the earlier candidate, so the
/// suggestion is deterministic. Words longer than 64 characters get no suggestion.
public enum KeySuggestion {
    public static let maximumLength = 64

    public static func closest(to word: String, among candidates: [String]) -> String? {
        let a = Array(word.lowercased().unicodeScalars)
        guard !a.isEmpty, a.count <= maximumLength else { return nil }
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let b = Array(candidate.lowercased().unicodeScalars)
            guard b.count <= maximumLength else { continue }
            if a == b { return candidate }
            let limit = min(3, max(1, max(a.count, b.count) / 3))
            let d = distance(a, b)
            if d <= limit, d < (best?.distance ?? Int.max) { best = (candidate, d) }
        }
        return best?.name
    }

    /// Optimal string alignment distance (Levenshtein plus adjacent transpositions).
    /// - Complexity: O(a.count × b.count).
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        let width = b.count + 1
        var previous2 = [Int](repeating: 0, count: width)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: width)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d = min(d, previous2[j - 2] + 1)
                }
                current[j] = d
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
