// The windows the rules protect, whole: their frames wherever they are, for the parts of an image no screen showed.
import ShotguardImaging
import ShotguardScreen
import ShotguardText

/// A window a rule protects, with the rule that does.
public struct ProtectedWindow: Sendable {
    public let window: WindowInfo
    public let line: Int
    /// The rule's fill when it is solid; black for a mosaic (the part covered was never seen).
    public let fill: Fill
    public let origin: RuleOrigin
}

extension RegionsFile {
    /// Every viewable window a `window` rule (not an allow rule) matches, a title pattern that
    /// cannot decide counting as a match, and every one that asks for protection
    /// (`_SHOTGUARD_PROTECT`), in stacking order, each once: whole, wherever it lies (on the
    /// screen, past its edge or under other windows), whatever part of it a rule's geometry
    /// names. What a rule names of a window resolves on the screen as it shows (`resolve`); a
    /// window's own image shows all of it.
    public func protectedWindows(against context: ScreenContext) -> [ProtectedWindow] {
        context.windows.filter(\.isViewable).compactMap { window in
            let rule = rules.first { $0.target == .window && !$0.isAllow && $0.evaluate(window) != .noMatch }
                ?? (window.requestsProtection ? Self.protectionRule : nil)
            guard let rule else { return nil }
            let fill: Fill = if case .solid = rule.fill { rule.fill } else { .black }
            return ProtectedWindow(window: window, line: rule.line, fill: fill, origin: rule.origin)
        }
    }
}
