// A `text pattern~` regular expression: every match in a line of text, within PCRE2's limits.
import CPCRE2

/// A regular expression of a `text pattern~"REGEX"` rule, compiled once, matched by PCRE2 with a
/// fixed budget per attempt (as `title~` patterns are): text on screen is another program's, and
/// a pattern that backtracks without end on it must not stall the scan.
///
/// Immutable once made; PCRE2's compiled code and match context are only read while matching,
/// and each match gets its own match data, so one pattern serves several threads.
public final class TextPattern: @unchecked Sendable, CustomStringConvertible {
    /// The expression as written in the file, after unquoting.
    public let source: String
    private let code: OpaquePointer
    private let context: OpaquePointer

    /// The most steps one match attempt may take (PCRE2's match limit).
    public static let matchLimit: UInt32 = 200_000
    /// The deepest backtracking PCRE2 may keep for one attempt.
    public static let depthLimit: UInt32 = 10_000
    /// The most matches taken from one line: a pattern that matches every character gives no more.
    public static let maximumMatchesPerLine = 64
    /// The longest line examined, in UTF-8 bytes; the rest of a longer line is not searched.
    public static let maximumLineBytes = 4096

    /// Compiles `source`. Throws PCRE2's reason and the UTF-8 offset where it noticed the trouble.
    public init(_ source: String) throws(TextPatternSyntaxError) {
        self.source = source
        var errorCode: Int32 = 0
        var errorOffset = 0
        var pattern = source
        let code = pattern.withUTF8 { bytes in
            pcre2_compile_8(bytes.baseAddress, bytes.count, PCRE2_UTF | PCRE2_MATCH_INVALID_UTF, &errorCode, &errorOffset, nil)
        }
        guard let code else { throw TextPatternSyntaxError(message: Self.message(for: errorCode), offset: errorOffset) }
        guard let context = pcre2_match_context_create_8(nil) else {
            pcre2_code_free_8(code)
            throw TextPatternSyntaxError(message: "out of memory compiling the expression", offset: 0)
        }
        pcre2_set_match_limit_8(context, Self.matchLimit)
        pcre2_set_depth_limit_8(context, Self.depthLimit)
        self.code = code
        self.context = context
    }

    deinit {
        pcre2_match_context_free_8(context)
        pcre2_code_free_8(code)
    }

    public var description: String { source }

    /// Every non-empty match in `text`, as UTF-8 byte ranges, and whether the budget ran out
    /// (a match attempt hit a limit, or the line was cut): the caller then treats the line as
    /// undecided.
    func matches(in text: String) -> (ranges: [Range<Int>], exhausted: Bool) {
        var bytes = Array(text.utf8)
        var exhausted = false
        if bytes.count > Self.maximumLineBytes {
            bytes.removeSubrange(Self.maximumLineBytes...)
            exhausted = true
        }
        guard let data = pcre2_match_data_create_from_pattern_8(code, nil) else { return ([], true) }
        defer { pcre2_match_data_free_8(data) }
        var ranges: [Range<Int>] = []
        var offset = 0
        bytes.append(0)
        bytes.withUnsafeBufferPointer { buffer in
            let length = buffer.count - 1
            while offset <= length, ranges.count < Self.maximumMatchesPerLine {
                let result = pcre2_match_8(code, buffer.baseAddress, length, offset, 0, data, context)
                if result == PCRE2_ERROR_NOMATCH { return }
                guard result >= 0 else {
                    exhausted = true
                    return
                }
                let vector = pcre2_get_ovector_pointer_8(data)!
                let start = vector[0], end = vector[1]
                if end > start { ranges.append(start..<end) }
                // An empty match moves on by one byte; PCRE2_MATCH_INVALID_UTF copes with a
                // start inside a character.
                offset = end > start ? end : end + 1
            }
        }
        return (ranges, exhausted)
    }

    /// Whether the expression matches anywhere in `text` (one attempt, within the budget): the
    /// one matcher `title~` rules use too.
    public func search(_ text: String) -> PatternSearch {
        var text = text
        guard text.utf8.count <= Self.maximumLineBytes else { return .undecided }
        guard let data = pcre2_match_data_create_from_pattern_8(code, nil) else { return .undecided }
        defer { pcre2_match_data_free_8(data) }
        return text.withUTF8 { subject in
            // An empty buffer may have no base address; PCRE2 wants a pointer even for length 0.
            let empty: [UInt8] = [0]
            let result = empty.withUnsafeBufferPointer { fallback in
                pcre2_match_8(code, subject.baseAddress ?? fallback.baseAddress, subject.count, 0, 0, data, context)
            }
            if result >= 0 { return .match }
            // Match, depth or heap limit, or any other failure: not decided, so not "no match".
            return result == PCRE2_ERROR_NOMATCH ? .noMatch : .undecided
        }
    }

    private static func message(for code: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = pcre2_get_error_message_8(code, &buffer, buffer.count)
        guard length > 0 else { return "invalid regular expression" }
        return String(decoding: buffer.prefix(Int(length)), as: UTF8.self)
    }
}

/// What one search decided.
public enum PatternSearch: Sendable, Equatable {
    case match, noMatch
    /// The budget ran out (a pattern that backtracks without end on this text, or text longer
    /// than the pattern examines).
    case undecided
}

/// A `text pattern~` expression that PCRE2 rejects: its reason on one line, and the UTF-8
/// offset in the expression where it noticed.
public struct TextPatternSyntaxError: Error, Equatable, Sendable {
    public var message: String
    public var offset: Int
}
