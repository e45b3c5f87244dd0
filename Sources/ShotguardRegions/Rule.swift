// One line of a regions file: what to cover, and with what.

import ShotguardText
import ShotguardImaging
import ShotguardScreen

/// What a rule's geometry is relative to.
public enum Target: String, Sendable, CaseIterable {
    /// The client area of every viewable window that meets all the rule's matches.
    case window
    /// The root window.
    case screen
    /// A RandR monitor: the one named by `name=`, the primary one, or every one.
    case monitor
    /// Each showing accessible field (AT-SPI2) the rule selects: its geometry is relative to
    /// the field's extents.
    case field
    /// Text the rule's kind finds in the image itself (card numbers, e-mail addresses…): checked
    /// in each image by the text pass, not resolved to rectangles beforehand.
    case text
}

/// One rule of a regions file.
///
/// Not `Sendable`, because a `title~` match holds a compiled PCRE2 pattern.
public struct Rule {
    /// The 1-based line the rule was written on.
    public var line: Int
    /// What the geometry is relative to.
    public var target: Target
    /// Conditions a window must all meet; empty for `screen` rules. For `field` rules they
    /// apply to the window that shows the field.
    public var matches: [Match]
    /// What a `field` rule selects; nil for other targets.
    public var field: FieldSelector?
    /// The part of the target to cover; nil covers the whole target.
    public var geometry: Geometry?
    /// How to cover it; `.black` unless the rule says `fill=`.
    public var fill: Fill
    /// For `monitor` rules, the monitors the geometry is relative to.
    public var monitor: MonitorSelector
    /// The rule's text without its comment, trimmed, for listings and messages.
    public var source: String
    /// `allow TARGET ...`: the rule keeps what it names visible, cutting it out of other
    /// rules' covers (see `RuleOrigin.allowMayUncover`); it covers nothing itself.
    public var isAllow: Bool
    /// The file the rule came from, or the window property.
    public var origin: RuleOrigin
    /// What a `text` rule looks for; nil for other targets.
    public var text: TextSelector? = nil

    public init(line: Int, target: Target, matches: [Match] = [], geometry: Geometry? = nil,
                fill: Fill = .black, monitor: MonitorSelector = .all, source: String, field: FieldSelector? = nil,
                isAllow: Bool = false, origin: RuleOrigin = .user) {
        self.line = line
        self.target = target
        self.matches = matches
        self.geometry = geometry
        self.fill = fill
        self.monitor = monitor
        self.source = source
        self.field = field
        self.isAllow = isAllow
        self.origin = origin
    }

    /// Whether `window` meets every match of this rule (viewability is checked by the resolver).
    /// A `title~` that cannot decide within its budget counts as met.
    public func matches(_ window: WindowInfo) -> Bool { evaluate(window) != .noMatch }

    /// Whether `window` meets every match: `.noMatch` when one is not met, else `.undecided`
    /// when a title pattern ran out of budget, else `.match`.
    public func evaluate(_ window: WindowInfo) -> TitleMatchResult {
        var result = TitleMatchResult.match
        for match in matches {
            switch match.evaluate(window) {
            case .noMatch: return .noMatch
            case .undecided: result = .undecided
            case .match: break
            }
        }
        return result
    }
}
