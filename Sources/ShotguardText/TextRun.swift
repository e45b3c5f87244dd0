// Text an application exposes (AT-SPI2), with exact boxes: matched as it is, never read by OCR.
import ShotguardImaging

/// One accessible object's visible text, as words with their boxes in screen coordinates.
public struct TextRun: Sendable, Hashable {
    /// The words in reading order; a run may hold several lines (`TextWord`s are split into
    /// lines where a word starts left of the one before it).
    public var words: [TextWord]
    /// The object's extents on screen: the area its text came from, which OCR then skips.
    public var bounds: Rect

    public init(words: [TextWord], bounds: Rect) {
        self.words = words
        self.bounds = bounds
    }

    /// The words split into lines: a new line where a word starts left of the previous one's
    /// start or wholly below it, so a match never joins the end of one line to the next.
    var lines: [[TextWord]] {
        var lines: [[TextWord]] = []
        for word in words {
            if let last = lines.last?.last, word.rect.x >= last.rect.x, word.rect.y < last.rect.maxY {
                lines[lines.count - 1].append(word)
            } else {
                lines.append([word])
            }
        }
        return lines
    }
}
