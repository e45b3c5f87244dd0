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
    /// The line's text, words separated by one space.
    let scalars: [Unicode.Scalar]
    /// For each scalar, the index of its word; -1 for the spaces between words.
    let wordIndex: [Int]

    init(_ words: [TextWord]) {
        var scalars: [Unicode.Scalar] = []
        var wordIndex: [Int] = []
        for (index, word) in words.enumerated() {
            if index > 0 {
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
