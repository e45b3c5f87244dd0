// The kinds of secret a `text` rule looks for, and what a found one looks like.
import ShotguardBase
import ShotguardImaging

/// What a `text` rule finds.
public enum TextKind: String, Sendable, CaseIterable, Hashable {
    /// Payment card numbers: 13 to 19 digits, in the groups cards are printed in, Luhn-valid.
    case card
    /// E-mail addresses.
    case email
    /// International bank account numbers: a known country's length and a valid mod-97 checksum.
    case iban
    /// API keys and tokens: known shapes (AWS, GitHub, Slack, Stripe, OpenAI, Google) and long
    /// high-entropy tokens (see `KeyMatcher`).
    case key
    /// The rule's own regular expression.
    case pattern

    /// The kind as a regions file spells it: its name, or `pattern~"REGEX"` with its expression.
    var form: String { self == .pattern ? "pattern~\"REGEX\"" : rawValue }

    /// The kinds as a regions file spells them, for "expected" messages.
    public static let expectedForms = String(listing: allCases.map(\.form))
}

/// Where a match's text came from.
public enum TextSource: String, Sendable, Hashable {
    /// An application's accessible text (AT-SPI2): exact character extents.
    case accessible
    /// Optical character recognition of the image's pixels.
    case ocr
}

/// One secret found in an image: what it is, which rule asked, and the box to cover.
public struct TextHit: Sendable, Hashable {
    public var kind: TextKind
    /// The line of the rule that found it.
    public var line: Int
    /// The box around the match's words, with a margin, in image coordinates, clipped to the image.
    public var rect: Rect
    /// How to cover it: the rule's fill.
    public var fill: Fill
    public var source: TextSource

    public init(kind: TextKind, line: Int, rect: Rect, fill: Fill, source: TextSource) {
        self.kind = kind
        self.line = line
        self.rect = rect
        self.fill = fill
        self.source = source
    }
}
