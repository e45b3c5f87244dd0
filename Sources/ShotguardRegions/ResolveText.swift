// Text rules as the scanner takes them: each one's window conditions resolved to rectangles on screen.
import ShotguardImaging
import ShotguardScreen
import ShotguardText

extension RegionsFile {
    /// The `text` rules, in file order.
    public var textRules: [Rule] { rules.filter { $0.target == .text } }

    /// Whether the text pass must run: some rule is a `text` rule.
    public var hasTextRules: Bool { rules.contains { $0.target == .text } }

    /// Whether a `text` rule has window conditions (`in …`), which need the screen's windows.
    public var hasWindowLimitedTextRules: Bool { textRules.contains { !$0.matches.isEmpty } }

    /// The `text` rules for a `TextScanner`. A rule with window conditions is limited to the
    /// frames (title bar included) of the viewable windows on `context` that meet them, in
    /// screen coordinates, whole where they reach past the screen's edge (a window's own image
    /// shows that part too); a title pattern that cannot decide counts as met. A rule whose
    /// conditions no window meets is limited to nothing.
    public func scannerRules(against context: ScreenContext) -> [TextRule] {
        textRules.compactMap { rule in
            guard let selector = rule.text else { return nil }
            var areas: [Rect]?
            if !rule.matches.isEmpty {
                areas = context.windows.filter { $0.isViewable && rule.evaluate($0) != .noMatch }
                    .map(\.outerFrame).filter { !$0.isEmpty }
            }
            return TextRule(kind: selector.kind, pattern: selector.pattern, line: rule.line, fill: rule.fill, areas: areas)
        }
    }
}
