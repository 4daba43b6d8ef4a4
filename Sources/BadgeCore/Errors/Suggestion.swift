/// "Did you mean" suggestions for mistyped names (options, anchors, colours).
public enum Suggestion {
    /// The candidate closest to `word` by Damerau-Levenshtein distance (an adjacent
    /// swap costs 1), ignoring `-` and case, if it is within a third of the word's
    /// length (at least 1, at most 3); nil otherwise. Ties go to the first candidate
    /// in sorted order, so the answer is deterministic.
    public static func closest(to word: String, among candidates: [String]) -> String? {
        // Names are short; a long word is no typo of one, and the distance costs
        // length × length, so hostile input cannot make this slow.
        guard word.utf8.count <= 64 else { return nil }
        let key = normalise(word)
        guard !key.isEmpty else { return nil }
        let limit = max(1, min(3, key.count / 3))
        var best: (String, Int)?
        for candidate in candidates.sorted() {
            let distance = editDistance(key, normalise(candidate))
            if distance <= limit, distance < (best?.1 ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.0
    }

    private static func normalise(_ text: String) -> [Character] {
        Array(text.lowercased().filter { $0 != "-" && $0 != "_" })
    }

    /// Optimal string alignment distance between two character arrays.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, table[i - 2][j - 2] + 1)
                }
                table[i][j] = value
            }
        }
        return table[a.count][b.count]
    }
}
