// The conditions a `window` rule puts on a window: class, instance, title, title pattern, type.
import ShotguardText
import ShotguardScreen

/// One condition of a `window` rule. A window matches a rule when it meets all of them.
///
/// Not `Sendable`: a title pattern holds a compiled PCRE2 pattern.
public enum Match: CustomStringConvertible {
    /// `class=V`: the class half of `WM_CLASS`, compared without regard to case.
    case className(String)
    /// `instance=V`: the instance half of `WM_CLASS`, compared without regard to case.
    case instance(String)
    /// `title=V`: the whole title, compared exactly.
    case title(String)
    /// `title~V`: a regular expression found anywhere in the title.
    case titlePattern(TitlePattern)
    /// `type=T[,T...]`: the window has one of these `_NET_WM_WINDOW_TYPE`s.
    case windowTypes(Set<WindowType>)

    /// Whether `window` meets this condition. Viewability is the resolver's business, not this.
    /// A title pattern that cannot decide within its budget counts as met (see `evaluate`).
    public func matches(_ window: WindowInfo) -> Bool { evaluate(window) != .noMatch }

    /// Whether `window` meets this condition, or, for a title pattern, that its budget ran out.
    public func evaluate(_ window: WindowInfo) -> TitleMatchResult {
        if case .titlePattern(let pattern) = self { return pattern.evaluate(window.title) }
        return isMet(by: window) ? .match : .noMatch
    }

    private func isMet(by window: WindowInfo) -> Bool {
        switch self {
        case .className(let name): return window.className.lowercased() == name.lowercased()
        case .instance(let name): return window.instance.lowercased() == name.lowercased()
        case .title(let title): return window.title == title
        case .titlePattern(let pattern): return pattern.matches(window.title)
        case .windowTypes(let types): return window.types.contains { types.contains($0) }
        }
    }

    /// The condition as a regions file spells it, quoted when needed: `title~"(?i)my bank"`.
    public var description: String {
        switch self {
        case .className(let name): return "class=" + quotedIfNeeded(name)
        case .instance(let name): return "instance=" + quotedIfNeeded(name)
        case .title(let title): return "title=" + quotedIfNeeded(title)
        case .titlePattern(let pattern): return "title~" + quotedIfNeeded(pattern.source)
        case .windowTypes(let types): return "type=" + types.sorted().map(\.rawValue).joined(separator: ",")
        }
    }
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
