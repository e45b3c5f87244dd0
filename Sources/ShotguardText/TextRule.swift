// What one `text` rule asks the scanner for: a kind, the windows it is limited to, its fill.
import ShotguardImaging

/// One `text` rule, as the scanner needs it: the regions layer turns a `text` line of the
/// regions file into this, with its window conditions resolved to rectangles on screen.
public struct TextRule: Sendable {
    public var kind: TextKind
    /// The expression of a `pattern` rule; nil for the other kinds.
    public var pattern: TextPattern?
    /// The line of the regions file, for hits and reports.
    public var line: Int
    public var fill: Fill
    /// The screen rectangles the rule is limited to (the windows its `in` conditions select);
    /// nil for a rule that applies everywhere. A match counts when its box meets one of them.
    public var areas: [Rect]?

    public init(kind: TextKind, pattern: TextPattern? = nil, line: Int, fill: Fill = .black, areas: [Rect]? = nil) {
        self.kind = kind
        self.pattern = pattern
        self.line = line
        self.fill = fill
        self.areas = areas
    }
}

/// A match of one rule in one line: the words it covers.
struct LineMatch: Equatable {
    /// The index of the rule in the scanner's list.
    var rule: Int
    /// The first and last word the match touches.
    var words: ClosedRange<Int>
}

enum LineMatcher {
    /// Every match of `rules` in a line of `words`, rule by rule. A pattern that runs out of its
    /// budget on the line matches the whole line: a rule that might apply is applied.
    static func matches(_ words: [TextWord], rules: [TextRule]) -> [LineMatch] {
        guard !words.isEmpty else { return [] }
        // Matched as OCR spaced it, and again with the spaces it may have put inside a word taken out.
        var found: [LineMatch] = []
        for line in [LineText(words), LineText(words, joiningTightGaps: true),
                     LineText(words, joiningTightGaps: true, joiningAtPunctuation: true)] {
            for match in matches(line, rules: rules) where !found.contains(match) { found.append(match) }
        }
        return found
    }

    private static func matches(_ line: LineText, rules: [TextRule]) -> [LineMatch] {
        var found: [LineMatch] = []
        for (index, rule) in rules.enumerated() {
            let ranges: [Range<Int>]
            switch rule.kind {
            case .card: ranges = CardMatcher.find(in: line)
            case .email: ranges = EmailMatcher.find(in: line)
            case .iban: ranges = IBANMatcher.find(in: line)
            case .key: ranges = KeyMatcher.find(in: line)
            case .pattern:
                guard let pattern = rule.pattern else { continue }
                ranges = patternRanges(pattern, in: line)
            }
            for range in ranges {
                if let words = line.words(in: range) { found.append(LineMatch(rule: index, words: words)) }
            }
        }
        return found
    }

    /// The pattern's matches as scalar ranges; the whole line when the budget ran out.
    private static func patternRanges(_ pattern: TextPattern, in line: LineText) -> [Range<Int>] {
        let text = line.string
        let (bytes, exhausted) = pattern.matches(in: text)
        if exhausted { return [0..<line.scalars.count] }
        // UTF-8 offsets to scalar offsets.
        var scalarAt: [Int] = []
        scalarAt.reserveCapacity(text.utf8.count + 1)
        for (index, scalar) in line.scalars.enumerated() {
            for _ in 0..<UTF8.width(scalar) { scalarAt.append(index) }
        }
        scalarAt.append(line.scalars.count)
        return bytes.map { scalarAt[$0.lowerBound]..<(scalarAt[$0.upperBound - 1] + 1) }
    }
}
