/// Picks the candidate a mistyped word most likely meant.
enum Suggestion {
    /// The closest candidate by edit distance (1 for words of up to three characters, else 2), or the
    /// only candidate the word is a prefix of; `nil` when nothing is close.
    static func closest(to word: String, among candidates: [String]) -> String? {
        guard !word.isEmpty else { return nil }
        let limit = word.count <= 3 ? 1 : 2
        let scored = candidates.map { (candidate: $0, distance: editDistance(word, $0)) }
        if let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= limit {
            return best.candidate
        }
        let extensions = candidates.filter { $0.hasPrefix(word) }
        return extensions.count == 1 ? extensions[0] : nil
    }

    /// The Levenshtein distance between two strings, counted in characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
