// Turns rules into screen rectangles for one moment's windows, and screen rectangles into image ones.

import ShotguardImaging

/// One rectangle to redact, and the rule that asked for it.
public struct RegionHit: Hashable, Sendable {
    /// The line of the rule that produced this hit.
    public var line: Int
    /// How to cover the rectangle.
    public var fill: Fill
    /// The rectangle, in screen coordinates (or image coordinates after `translated(toImageAt:)`).
    public var rect: Rect
    /// The matching window, for `window` rules.
    public var windowID: UInt?

    public init(line: Int, fill: Fill, rect: Rect, windowID: UInt? = nil) {
        self.line = line
        self.fill = fill
        self.rect = rect
        self.windowID = windowID
    }
}

/// A rule and everything it covers at one moment; `hits` is empty when it covers nothing.
public struct RuleResolution {
    public var rule: Rule
    public var hits: [RegionHit]

    public init(rule: Rule, hits: [RegionHit]) {
        self.rule = rule
        self.hits = hits
    }
}

extension RegionsFile {
    /// Resolves every rule, in file order, against the screen and its windows.
    ///
    /// A `screen` rule covers its geometry of the screen. A `window` rule covers its geometry of
    /// the frame of each viewable window that meets all its matches, in stacking order, bottom
    /// first. Every rectangle is clipped to the screen, and empty ones are dropped.
    public func resolve(against context: ScreenContext) -> [RuleResolution] {
        rules.map { RuleResolution(rule: $0, hits: $0.hits(against: context)) }
    }

    /// Every rectangle to redact, rule by rule in file order.
    public func hits(against context: ScreenContext) -> [RegionHit] {
        resolve(against: context).flatMap(\.hits)
    }
}

extension Rule {
    /// The rectangles this rule covers on `context`'s screen.
    public func hits(against context: ScreenContext) -> [RegionHit] {
        let screen = context.bounds
        switch target {
        case .screen:
            let rect = geometry?.resolve(in: screen) ?? screen
            return rect.isEmpty ? [] : [RegionHit(line: line, fill: fill, rect: rect)]
        case .window:
            return context.windows.compactMap { window in
                guard window.isViewable, matches(window) else { return nil }
                // No geometry means the whole window, decorations and title bar included.
                let rect = (geometry?.resolve(in: window.frame) ?? window.outerFrame).intersection(screen)
                return rect.isEmpty ? nil : RegionHit(line: line, fill: fill, rect: rect, windowID: window.id)
            }
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
}
