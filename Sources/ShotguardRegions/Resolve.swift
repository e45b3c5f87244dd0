// Turns rules into screen rectangles for one moment's windows, and screen rectangles into image ones.

import ShotguardImaging
import ShotguardScreen

/// One rectangle to redact, and the rule that asked for it.
public struct RegionHit: Hashable, Sendable {
    /// The line of the rule that produced this hit.
    public var line: Int
    /// How to cover the rectangle.
    public var fill: Fill
    /// The rectangle, in screen coordinates (or image coordinates after `translated(toImageAt:)`).
    public var rect: Rect
    /// The matching window, for `window` rules; for `field` rules the window showing the field.
    public var windowID: UInt?
    /// The field hit, for `field` rules.
    public var field: AccessibleField?

    public init(line: Int, fill: Fill, rect: Rect, windowID: UInt? = nil, field: AccessibleField? = nil) {
        self.line = line
        self.fill = fill
        self.rect = rect
        self.windowID = windowID
        self.field = field
    }
}

/// A rule and everything it covers at one moment; `hits` is empty when it covers nothing.
public struct RuleResolution {
    public var rule: Rule
    public var hits: [RegionHit]
    /// Windows hit only because a `title~` pattern could not decide on their title within its
    /// budget (fail closed): worth a log line, since a rule may be too costly for some titles.
    public var undecided: [UInt]

    public init(rule: Rule, hits: [RegionHit], undecided: [UInt] = []) {
        self.rule = rule
        self.hits = hits
        self.undecided = undecided
    }
}

extension RegionsFile {
    /// Resolves every rule, in file order, against the screen and its windows.
    ///
    /// A `screen` rule covers its geometry of the screen; a `monitor` rule its geometry of each
    /// monitor it selects that is present. A `window` rule covers its geometry of
    /// the frame of each viewable window that meets all its matches, in stacking order, bottom
    /// first. Every rectangle is clipped to the screen, and empty ones are dropped.
    public func resolve(against context: ScreenContext) -> [RuleResolution] {
        rules.map { $0.resolve(against: context) }
    }

    /// The rules whose `title~` could not decide on a window's title within its budget, with
    /// those windows: each was redacted as a match. Empty in the ordinary case.
    public func undecided(against context: ScreenContext) -> [(rule: Rule, windows: [UInt])] {
        resolve(against: context).compactMap { $0.undecided.isEmpty ? nil : ($0.rule, $0.undecided) }
    }

    /// Every rectangle to redact, rule by rule in file order.
    public func hits(against context: ScreenContext) -> [RegionHit] {
        resolve(against: context).flatMap(\.hits)
    }
}

extension Rule {
    /// The rectangles this rule covers on `context`'s screen.
    public func hits(against context: ScreenContext) -> [RegionHit] { resolve(against: context).hits }

    /// The rectangles this rule covers on `context`'s screen, and the windows it hit only
    /// because a title pattern was undecided.
    public func resolve(against context: ScreenContext) -> RuleResolution {
        let screen = context.bounds
        switch target {
        case .screen:
            let rect = geometry?.resolve(in: screen) ?? screen
            return RuleResolution(rule: self, hits: rect.isEmpty ? [] : [RegionHit(line: line, fill: fill, rect: rect)])
        case .monitor:
            // A monitor that is not there hits nothing; the geometry is relative to each one.
            let rects = monitor.select(context.monitors).map { (geometry?.resolve(in: $0.frame) ?? $0.frame).intersection(screen) }
            return RuleResolution(rule: self, hits: rects.filter { !$0.isEmpty }.map { RegionHit(line: line, fill: fill, rect: $0) })
        case .window:
            var resolution = RuleResolution(rule: self, hits: [])
            for window in context.windows where window.isViewable {
                let result = evaluate(window)
                guard result != .noMatch else { continue }
                if result == .undecided { resolution.undecided.append(window.id) }
                // No geometry means the whole window, decorations and title bar included.
                let rect = (geometry?.resolve(in: window.frame) ?? window.outerFrame).intersection(screen)
                if !rect.isEmpty { resolution.hits.append(RegionHit(line: line, fill: fill, rect: rect, windowID: window.id)) }
            }
            return resolution
        case .field:
            return resolveFields(against: context)
        case .text:
            // Found in each image by the text pass (scannerRules(against:)), not beforehand.
            return RuleResolution(rule: self, hits: [])
        }
    }
}

extension Array where Element == RegionHit {
    /// These hits in the coordinates of an image whose pixels cover `origin` on screen: each
    /// rectangle moved by (-origin.x, -origin.y) and clipped to the image; empty ones dropped.
    public func translated(toImageAt origin: Rect) -> [RegionHit] {
        let image = Rect(x: 0, y: 0, width: origin.width, height: origin.height)
        return compactMap { hit in
            var moved = hit
            moved.rect = hit.rect.offsetBy(dx: -origin.x, dy: -origin.y).intersection(image)
            return moved.rect.isEmpty ? nil : moved
        }
    }

    /// What to cover, in order, for `StagedFills` and the streamed encoders.
    public var covers: [Cover] { map { (rect: $0.rect, fill: $0.fill) } }
}
