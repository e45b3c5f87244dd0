// The windows the rules protect, whole: their frames wherever they are, for the parts of an image no screen showed.
import ShotguardImaging
import ShotguardScreen
import ShotguardText

/// A window a rule protects, with the rule that does.
public struct ProtectedWindow: Sendable {
    public let window: WindowInfo
    /// What the rules name of it, whole (not clipped to the screen, nothing cut out): each
    /// matching rule's geometry of its frame, or its outer frame.
    public let rects: [Rect]
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
            var matching = rules.filter { $0.target == .window && !$0.isAllow && $0.evaluate(window) != .noMatch }
            if window.requestsProtection { matching.append(Self.protectionRule) }
            guard let rule = matching.first else { return nil }
            let rects = matching.map { $0.geometry?.resolve(in: window.frame) ?? window.outerFrame }.filter { !$0.isEmpty }
            let fill: Fill = if case .solid = rule.fill { rule.fill } else { .black }
            return ProtectedWindow(window: window, rects: rects, line: rule.line, fill: fill, origin: rule.origin)
        }
    }
}
