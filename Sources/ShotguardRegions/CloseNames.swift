// Names that look like a mistyped one: what `regions check` suggests for a class no window has.

/// Finds, among the names on screen, those a rule may have meant.
public enum CloseNames {
    /// The longest name compared; a longer one (any program sets its own class) is skipped.
    public static let maximumLength = 256

    /// The names of `candidates` that look like `name`, in their order, without repeats: the
    /// same but for case, one the start of the other without regard to case (at least three
    /// characters long, as `keepass` for `KeePassXC`), or a few edits apart without regard to
    /// case (one for names up to 4 characters, two up to 8, three beyond; a swap of two
    /// neighbours is one edit, as in `Vualt` for `Vault`).
    public static func close(to name: String, among candidates: [String]) -> [String] {
        let wanted = Array(name.lowercased())
        guard !wanted.isEmpty, wanted.count <= maximumLength else { return [] }
        var found: [String] = []
        for candidate in candidates where !candidate.isEmpty && !found.contains(candidate) {
            let other = Array(candidate.lowercased())
            guard other.count <= maximumLength else { continue }
            let shorter = min(wanted.count, other.count)
            let isPrefix = shorter >= 3 && (wanted.starts(with: other) || other.starts(with: wanted))
            if isPrefix || distance(wanted, other, limit: allowedEdits(wanted.count)) != nil {
                found.append(candidate)
            }
        }
        return found
    }

    private static func allowedEdits(_ length: Int) -> Int {
        length <= 4 ? 1 : length <= 8 ? 2 : 3
    }

    /// The optimal string alignment distance between `a` and `b` (insertions, deletions,
    /// substitutions and swaps of neighbours), or nil when it is over `limit`.
    static func distance(_ a: [Character], _ b: [Character], limit: Int) -> Int? {
        guard abs(a.count - b.count) <= limit else { return nil }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            current[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { best = min(best, before[j - 2] + 1) }
                current[j] = best
            }
            (before, previous, current) = (previous, current, before)
        }
        let result = a.isEmpty ? b.count : previous[b.count]
        return result <= limit ? result : nil
    }
}
