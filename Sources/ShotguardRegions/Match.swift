// The conditions a `window` rule puts on a window: class, instance, exact title or title pattern.

/// One condition of a `window` rule. A window matches a rule when it meets all of them.
///
/// Not `Sendable`: a title pattern holds a compiled `Regex`, which is not `Sendable` in Swift 6.
public enum Match: CustomStringConvertible {
    /// `class=V`: the class half of `WM_CLASS`, compared without regard to case.
    case className(String)
    /// `instance=V`: the instance half of `WM_CLASS`, compared without regard to case.
    case instance(String)
    /// `title=V`: the whole title, compared exactly.
    case title(String)
    /// `title~V`: a regular expression found anywhere in the title.
    case titlePattern(TitlePattern)

    /// Whether `window` meets this condition. Viewability is the resolver's business, not this.
    public func matches(_ window: WindowInfo) -> Bool {
        switch self {
        case .className(let name): return window.className.lowercased() == name.lowercased()
        case .instance(let name): return window.instance.lowercased() == name.lowercased()
        case .title(let title): return window.title == title
        case .titlePattern(let pattern): return pattern.matches(window.title)
        }
    }

    /// The condition as a regions file spells it, quoted when needed: `title~"(?i)my bank"`.
    public var description: String {
        switch self {
        case .className(let name): return "class=" + quotedIfNeeded(name)
        case .instance(let name): return "instance=" + quotedIfNeeded(name)
        case .title(let title): return "title=" + quotedIfNeeded(title)
        case .titlePattern(let pattern): return "title~" + quotedIfNeeded(pattern.source)
        }
    }
}

/// A regular expression for `title~`, compiled once when the file is parsed.
public struct TitlePattern: CustomStringConvertible {
    /// The expression as written in the file, after unquoting.
    public let source: String
    /// The compiled expression.
    public let regex: Regex<AnyRegexOutput>

    /// Compiles `source` with Swift's regex syntax (`(?i)` for case-insensitive matching).
    public init(_ source: String) throws(TitlePatternSyntaxError) {
        do {
            regex = try Regex(source)
        } catch {
            throw TitlePatternSyntaxError(message: oneLine(String(describing: error)))
        }
        self.source = source
    }

    /// Whether the expression matches anywhere in `title`.
    public func matches(_ title: String) -> Bool {
        title.firstMatch(of: regex) != nil
    }

    public var description: String { source }
}

/// A `title~` expression that Swift's regex parser rejects; `message` is its reason, on one line.
public struct TitlePatternSyntaxError: Error, Equatable, Sendable {
    public var message: String
}

/// The first non-empty line of `text`, so a multi-line diagnostic fits in a one-line message.
private func oneLine(_ text: String) -> String {
    let lines = text.split(whereSeparator: \.isNewline)
    return lines.first.map { String($0) } ?? "invalid regular expression"
}

/// `value`, in double quotes with `"` and `\` escaped when it would not read back as one token.
func quotedIfNeeded(_ value: String) -> String {
    let plain = !value.isEmpty && !value.contains { $0 == " " || $0 == "\t" || $0 == "\"" || $0 == "\\" }
        && value.first != "#"
    if plain { return value }
    var quoted = "\""
    for character in value {
        if character == "\"" || character == "\\" { quoted.append("\\") }
        quoted.append(character)
    }
    return quoted + "\""
}
