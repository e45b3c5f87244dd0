// A line of words with their boxes, as OCR or the accessibility bus gives them, joined for matching.
import ShotguardImaging

/// One word of a line and its box (screen or image coordinates: whichever the line uses).
public struct TextWord: Sendable, Hashable {
    public var text: String
    public var rect: Rect

    public init(text: String, rect: Rect) {
        self.text = text
        self.rect = rect
    }
}

/// A line's words joined by single spaces, as Unicode scalars, with the word each scalar came
/// from: matchers find ranges of scalars, and a range becomes the words it touches.
struct LineText {
    /// The line's text, words separated by one space (or none, where `joiningTightGaps`).
    let scalars: [Unicode.Scalar]
    /// For each scalar, the index of its word; -1 for the spaces between words.
    let wordIndex: [Int]

    /// The line with a space between every two words; with `joiningTightGaps`, without one
    /// where the gap between two words is much narrower than the line's usual space (see
    /// `isTight`): OCR splits words at a wide letter pair, at an underscore (which it may drop
    /// altogether), at a kerned dot.
    /// With `joiningAtPunctuation` too, without one where a word ends or the next begins with
    /// `.`, `_`, `-` or `@`: OCR puts spaces there ("alice _dubois@", "example. com", "4777-5768 -2981").
    init(_ words: [TextWord], joiningTightGaps: Bool = false, joiningAtPunctuation: Bool = false) {
        var scalars: [Unicode.Scalar] = []
        var wordIndex: [Int] = []
        var joined = joiningTightGaps ? Self.tightGaps(words) : []
        if joiningAtPunctuation {
            let marks: Set<Unicode.Scalar> = [".", "_", "-", "@"]
            for index in words.indices.dropFirst() {
                if let last = words[index - 1].text.unicodeScalars.last, marks.contains(last) { joined.insert(index) }
                if let first = words[index].text.unicodeScalars.first, marks.contains(first) { joined.insert(index) }
            }
        }
        for (index, word) in words.enumerated() {
            if index > 0, !joined.contains(index) {
                scalars.append(" ")
                wordIndex.append(-1)
            }
            for scalar in word.text.unicodeScalars {
                // A word's own spaces (an accessible text's words never have any; OCR's neither)
                // would split it for the matchers as any other space does.
                scalars.append(scalar)
                wordIndex.append(index)
            }
        }
        self.scalars = scalars
        self.wordIndex = wordIndex
    }

    /// The indices of the words whose gap to the word before is tight: at most 2 px, or under
    /// 60% of the median gap of a line of four or more words (where real spaces are the usual
    /// gap), or under a third of the words' height in a shorter line.
    static func tightGaps(_ words: [TextWord]) -> Set<Int> {
        guard words.count > 1 else { return [] }
        let gaps = (1..<words.count).map { words[$0].rect.x - words[$0 - 1].rect.maxX }
        let heights = words.map(\.rect.height).sorted()
        let limit: Int
        if gaps.count >= 3 {
            limit = gaps.sorted()[gaps.count / 2] * 6 / 10
        } else {
            limit = heights[heights.count / 2] / 3
        }
        return Set((1..<words.count).filter { gaps[$0 - 1] <= max(2, limit) })
    }

    /// The words that scalars `range` touch, first to last; nil when it touches none.
    func words(in range: Range<Int>) -> ClosedRange<Int>? {
        let touched = range.lazy.map { self.wordIndex[$0] }.filter { $0 >= 0 }
        guard let first = touched.first, let last = touched.max() else { return nil }
        return first...last
    }

    var string: String {
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars)
        return text
    }
}

extension Unicode.Scalar {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    var isASCIIUpper: Bool { ("A"..."Z").contains(self) }
    var isASCIILower: Bool { ("a"..."z").contains(self) }
    var isASCIIAlphanumeric: Bool { isASCIIDigit || isASCIILetter }
    /// The digit's value; only for ASCII digits.
    var digitValue: Int { Int(value) - 48 }
}
