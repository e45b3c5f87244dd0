// A title~ regular expression, matched by PCRE2 within a fixed budget: a hostile title cannot stall.
import CPCRE2

/// What matching a title decided.
public enum TitleMatchResult: Sendable, Equatable {
    case match, noMatch
    /// The budget ran out (a pattern that backtracks without end on this title, or a title
    /// longer than `TitlePattern.maximumTitleBytes`). Counted as a match: the window is
    /// redacted, since a rule that might apply must be applied.
    case undecided
}

/// A regular expression for `title~`, compiled once when the file is parsed.
///
/// PCRE2 syntax (Perl's): `(?i)` for case-insensitive matching, `\d`, `^` and `$` anchor to
/// the ends of the title. Matching stops after `matchLimit` backtracking steps, and only the
/// first `maximumTitleBytes` of a title are examined.
public struct TitlePattern: CustomStringConvertible {
    /// The expression as written in the file, after unquoting.
    public let source: String
    private let compiled: CompiledPattern

    /// The most steps one match may take (PCRE2's match limit). Real patterns on real titles
    /// need a few hundred; `(a+)+$` on 21 letters needs millions.
    public static let matchLimit: UInt32 = 200_000
    /// The deepest backtracking PCRE2 may keep for one match.
    public static let depthLimit: UInt32 = 10_000
    /// The longest title examined, in UTF-8 bytes; a longer one is undecided.
    public static let maximumTitleBytes = 4096

    /// Compiles `source`. Throws with PCRE2's reason and the offset of the trouble.
    public init(_ source: String) throws(TitlePatternSyntaxError) {
        self.source = source
        compiled = try CompiledPattern(source)
    }

    /// Whether the expression matches anywhere in `title`; undecided counts as a match.
    public func matches(_ title: String) -> Bool { evaluate(title) != .noMatch }

    /// Whether the expression matches anywhere in `title`, or that it could not be decided
    /// within the budget.
    public func evaluate(_ title: String) -> TitleMatchResult {
        var title = title
        guard title.utf8.count <= Self.maximumTitleBytes else { return .undecided }
        return title.withUTF8 { compiled.match($0) }
    }

    public var description: String { source }
}

/// A `title~` expression that PCRE2 rejects; `message` is its reason, on one line, and
/// `offset` the UTF-8 offset in the expression where it noticed.
public struct TitlePatternSyntaxError: Error, Equatable, Sendable {
    public var message: String
    public var offset: Int
}

/// Owns the compiled code and the match context with its limits; freed with the last rule.
private final class CompiledPattern {
    let code: OpaquePointer
    let context: OpaquePointer

    init(_ source: String) throws(TitlePatternSyntaxError) {
        var errorCode: Int32 = 0
        var errorOffset = 0
        var pattern = source
        // UTF: titles are UTF-8 text; MATCH_INVALID_UTF: should one not be, it still matches.
        let code = pattern.withUTF8 { bytes in
            pcre2_compile_8(bytes.baseAddress, bytes.count, PCRE2_UTF | PCRE2_MATCH_INVALID_UTF,
                            &errorCode, &errorOffset, nil)
        }
        guard let code else {
            throw TitlePatternSyntaxError(message: Self.message(for: errorCode), offset: errorOffset)
        }
        guard let context = pcre2_match_context_create_8(nil) else {
            pcre2_code_free_8(code)
            throw TitlePatternSyntaxError(message: "out of memory compiling the expression", offset: 0)
        }
        pcre2_set_match_limit_8(context, TitlePattern.matchLimit)
        pcre2_set_depth_limit_8(context, TitlePattern.depthLimit)
        self.code = code
        self.context = context
    }

    deinit {
        pcre2_match_context_free_8(context)
        pcre2_code_free_8(code)
    }

    func match(_ subject: UnsafeBufferPointer<UInt8>) -> TitleMatchResult {
        guard let data = pcre2_match_data_create_from_pattern_8(code, nil) else { return .undecided }
        defer { pcre2_match_data_free_8(data) }
        // An empty buffer may have no base address; PCRE2 wants a pointer even for length 0.
        let empty: [UInt8] = [0]
        let result = empty.withUnsafeBufferPointer { fallback in
            pcre2_match_8(code, subject.baseAddress ?? fallback.baseAddress, subject.count, 0, 0, data, context)
        }
        if result >= 0 { return .match }
        if result == PCRE2_ERROR_NOMATCH { return .noMatch }
        // Match, depth or heap limit, or any other failure: not decided, so not "no match".
        return .undecided
    }

    static func message(for code: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = pcre2_get_error_message_8(code, &buffer, buffer.count)
        guard length > 0 else { return "invalid regular expression" }
        return String(decoding: buffer.prefix(Int(length)), as: UTF8.self)
    }
}
