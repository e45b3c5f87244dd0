// A title~ regular expression, matched by PCRE2 within a fixed budget: a hostile title cannot stall.
import ShotguardText

/// What matching a title decided.
public typealias TitleMatchResult = PatternSearch

/// A regular expression for `title~`, compiled once when the file is parsed: the text rules'
/// `TextPattern`, with its budget.
///
/// PCRE2 syntax (Perl's): `(?i)` for case-insensitive matching, `\d`, `^` and `$` anchor to
/// the ends of the title. Matching stops after `TextPattern.matchLimit` backtracking steps, and
/// a title longer than `maximumTitleBytes` is undecided, which counts as a match: the window
/// is redacted, since a rule that might apply must be applied.
public struct TitlePattern: CustomStringConvertible {
    /// The expression as written in the file, after unquoting.
    public var source: String { compiled.source }
    private let compiled: TextPattern

    /// The longest title examined, in UTF-8 bytes.
    public static let maximumTitleBytes = TextPattern.maximumLineBytes

    /// Compiles `source`. Throws with PCRE2's reason and the offset of the trouble.
    public init(_ source: String) throws(TitlePatternSyntaxError) {
        do throws(TextPatternSyntaxError) {
            compiled = try TextPattern(source)
        } catch {
            throw TitlePatternSyntaxError(message: error.message, offset: error.offset)
        }
    }

    /// Whether the expression matches anywhere in `title`; undecided counts as a match.
    public func matches(_ title: String) -> Bool { evaluate(title) != .noMatch }

    /// Whether the expression matches anywhere in `title`, or that it could not be decided
    /// within the budget.
    public func evaluate(_ title: String) -> TitleMatchResult { compiled.search(title) }

    public var description: String { source }
}

/// A `title~` expression that PCRE2 rejects; `message` is its reason, on one line, and
/// `offset` the UTF-8 offset in the expression where it noticed.
public struct TitlePatternSyntaxError: Error, Equatable, Sendable {
    public var message: String
    public var offset: Int
}
