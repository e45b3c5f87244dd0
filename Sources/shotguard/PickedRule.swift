// The rule for a window or a part of one that the user picked: matches that name that window
// among those on screen, a geometry relative to it, and a comment saying what it is.
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen

/// A rule line and its comment, made from a picked window (and rectangle) and the windows on
/// screen. Pure: the command does the picking and the writing.
struct PickedRule {
    let line: String
    let comment: String

    /// The rule for `window` (its client), or for `rect` (on the root) inside its client area.
    /// Its class names it; where another window on screen has the same class, its instance too
    /// when that differs, else its title. Throws when nothing names the window in a rule.
    init(window: WindowInfo, rect: Rect?, among windows: [WindowInfo], date: String) throws(CLIError) {
        var matches: [String] = []
        let others = windows.filter { $0.id != window.id && $0.isViewable }
        let sameClass = others.filter { !window.className.isEmpty && $0.className.lowercased() == window.className.lowercased() }
        if !window.className.isEmpty { matches.append("class=" + Self.quoted(window.className)) }
        if window.className.isEmpty || !sameClass.isEmpty {
            let instanceTells = !window.instance.isEmpty
                && !sameClass.contains { $0.instance.lowercased() == window.instance.lowercased() }
                && !(window.className.isEmpty && others.contains { $0.instance.lowercased() == window.instance.lowercased() })
            if instanceTells {
                matches.append("instance=" + Self.quoted(window.instance))
            } else {
                guard !window.title.isEmpty else {
                    throw .failure("regions add --pick: window 0x\(String(window.id, radix: 16)) has no class or title that tells it from "
                        + "the others on screen; write its rule by hand (see 'shotguard windows')")
                }
                guard !window.title.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                    throw .failure("regions add --pick: window 0x\(String(window.id, radix: 16))'s title has control characters, which a "
                        + "rule cannot match exactly; write its rule by hand with title~ (see shotguard-regions(5))")
                }
                matches.append("title=" + Self.quoted(window.title, always: true))
            }
        }
        let name = window.className.isEmpty ? (window.instance.isEmpty ? "the window" : window.instance) : window.className
        if let rect {
            let part = rect.intersection(window.frame)
            guard !part.isEmpty else {
                throw .failure("regions add --pick: the rectangle \(rect) is not inside the window's client area \(window.frame)")
            }
            let relative = "\(part.width)x\(part.height)+\(part.x - window.frame.x)+\(part.y - window.frame.y)"
            line = (["window"] + matches + [relative]).joined(separator: " ")
            comment = "# \(part.width)x\(part.height) of \(Self.printable(name))'s window, picked \(date) (regions add --pick)"
        } else {
            line = (["window"] + matches).joined(separator: " ")
            comment = "# \(Self.printable(name))'s window, frame included, picked \(date) (regions add --pick)"
        }
    }

    /// A value as the regions file reads it: in double quotes (with `\"` and `\\`) when it holds
    /// blanks, quotes, a backslash or starts with `#`, or when `always`.
    static func quoted(_ value: String, always: Bool = false) -> String {
        let plain = !value.isEmpty && !value.hasPrefix("#") && !value.contains { " \t\"\\".contains($0) }
        guard always || !plain else { return value }
        return "\"" + value.flatMap { $0 == "\"" || $0 == "\\" ? ["\\", $0] : [$0] } + "\""
    }

    /// A name for a comment: one line, control characters escaped.
    private static func printable(_ text: String) -> String { String(text.escapingControlCharacters().prefix(80)) }
}
