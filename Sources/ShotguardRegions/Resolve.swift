// Turns rules into screen rectangles for one moment's windows, and screen rectangles into image ones.

import ShotguardText
import ShotguardImaging
import ShotguardScreen

/// One rectangle to redact, and the rule that asked for it.
public struct RegionHit: Hashable, Sendable {
    /// The line of the rule that produced this hit (0 for a window that asked for protection).
    public var line: Int
    /// How to cover the rectangle.
    public var fill: Fill
    /// The rectangle, in screen coordinates (or image coordinates after `translated(toImageAt:)`).
    public var rect: Rect
    /// The matching window, for `window` rules; for `field` rules the window showing the field.
    public var windowID: UInt?
    /// The field hit, for `field` rules.
    public var field: AccessibleField?
    /// The whole rectangle the rule names that this one is part of, before the windows above
    /// it and the allowed areas were cut out; `rect` itself when nothing was.
    public var zone: Rect
    /// Where the rule came from.
    public var origin: RuleOrigin

    public init(line: Int, fill: Fill, rect: Rect, windowID: UInt? = nil, field: AccessibleField? = nil,
                zone: Rect? = nil, origin: RuleOrigin = .user) {
        self.line = line
        self.fill = fill
        self.rect = rect
        self.windowID = windowID
        self.field = field
        self.zone = zone ?? rect
        self.origin = origin
    }
}

/// A rule and everything it covers at one moment; `hits` is empty when it covers nothing.
public struct RuleResolution {
    public var rule: Rule
    /// What to cover: the visible parts of what the rule names, less the areas allow rules keep
    /// visible. Always empty for an allow rule.
    public var hits: [RegionHit]
    /// Everything the rule names, each rectangle whole: before the windows above it and the
    /// allowed areas were cut out (a window wholly under others is here, not in `hits`). For an
    /// allow rule, what it names.
    public var zones: [RegionHit]
    /// Windows hit only because a `title~` pattern could not decide on their title within its
    /// budget (fail closed): worth a log line, since a rule may be too costly for some titles.
    public var undecided: [UInt]
    /// For an allow rule: the visible parts of what it names, the area it keeps visible.
    public var allowed: [RegionHit]
    /// For an allow rule: the parts of other rules' covers it kept visible (for reports).
    public var kept: [KeptVisible]

    public init(rule: Rule, hits: [RegionHit], zones: [RegionHit]? = nil, undecided: [UInt] = [],
                allowed: [RegionHit] = [], kept: [KeptVisible] = []) {
        self.rule = rule
        self.hits = hits
        self.zones = zones ?? hits
        self.undecided = undecided
        self.allowed = allowed
        self.kept = kept
    }
}

/// A part of a rule's cover that an allow rule kept visible.
public struct KeptVisible: Hashable, Sendable {
    /// The rectangle left uncovered, in screen coordinates.
    public var rect: Rect
    /// The line of the rule whose cover it was cut from (0 for a window that asked for protection).
    public var coverLine: Int
    /// Where that rule came from.
    public var coverOrigin: RuleOrigin
    /// The window the cover was on, for window and field rules.
    public var windowID: UInt?

    public init(rect: Rect, coverLine: Int, coverOrigin: RuleOrigin, windowID: UInt? = nil) {
        self.rect = rect
        self.coverLine = coverLine
        self.coverOrigin = coverOrigin
        self.windowID = windowID
    }
}

extension RegionsFile {
    /// Resolves every rule, in file order, against the screen and its windows, then the windows
    /// that ask for protection (`_SHOTGUARD_PROTECT`), when any does, as a last resolution of
    /// line 0.
    ///
    /// A `screen` rule covers its geometry of the screen; a `monitor` rule its geometry of each
    /// monitor it selects that is present. A `window` rule covers its geometry of the frame
    /// (no geometry: the outer frame) of each viewable window that meets all its matches, in
    /// stacking order, bottom first, and a `field` rule each field it selects: only what shows
    /// of them, the opaque areas of the opaque windows above cut out. Every rectangle is
    /// clipped to the screen, and empty ones are dropped. Last, the areas allow rules name are
    /// cut out of the covers they may uncover (`RuleOrigin.allowMayUncover`).
    public func resolve(against context: ScreenContext) -> [RuleResolution] {
        var resolutions = rules.map { $0.resolve(against: context) }
        if let protection = Self.protection(against: context) { resolutions.append(protection) }
        return Self.applyingAllows(resolutions)
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

    /// Every rectangle the covering rules name, whole (`RuleResolution.zones`): where a rule's
    /// pixels may be, were nothing above them and nothing allowed.
    public func zones(against context: ScreenContext) -> [RegionHit] {
        resolve(against: context).filter { !$0.rule.isAllow }.flatMap(\.zones)
    }
}

extension Rule {
    /// The rectangles this rule covers on `context`'s screen, allow rules of its file ignored.
    public func hits(against context: ScreenContext) -> [RegionHit] { resolve(against: context).hits }

    /// What this rule names on `context`'s screen, with the windows above cut out, and the
    /// windows it hit only because a title pattern was undecided; allow rules are not applied
    /// here (`RegionsFile.resolve` applies them). An allow rule's area is in `allowed`.
    public func resolve(against context: ScreenContext) -> RuleResolution {
        let screen = context.bounds
        var resolution: RuleResolution
        switch target {
        case .screen:
            let rect = geometry?.resolve(in: screen) ?? screen
            resolution = RuleResolution(rule: self, hits: rect.isEmpty ? [] : [hit(rect, zone: rect)])
        case .monitor:
            // A monitor that is not there hits nothing; the geometry is relative to each one.
            let rects = monitor.select(context.monitors).map { (geometry?.resolve(in: $0.frame) ?? $0.frame).intersection(screen) }
            resolution = RuleResolution(rule: self, hits: rects.filter { !$0.isEmpty }.map { hit($0, zone: $0) })
        case .window:
            resolution = RuleResolution(rule: self, hits: [], zones: [])
            for (index, window) in context.windows.enumerated() where window.isViewable {
                let result = evaluate(window)
                guard result != .noMatch else { continue }
                if result == .undecided { resolution.undecided.append(window.id) }
                // No geometry means the whole window, decorations and title bar included.
                let zone = (geometry?.resolve(in: window.frame) ?? window.outerFrame).intersection(screen)
                guard !zone.isEmpty else { continue }
                resolution.zones.append(hit(zone, zone: zone, windowID: window.id))
                resolution.hits += context.visibleParts(of: zone, ofWindowAt: index).rects.map {
                    hit($0, zone: zone, windowID: window.id)
                }
            }
        case .field:
            resolution = resolveFields(against: context)
        case .text:
            // Found in each image by the text pass (scannerRules(against:)), not beforehand.
            resolution = RuleResolution(rule: self, hits: [])
        }
        if isAllow {
            resolution.allowed = resolution.hits
            resolution.hits = []
        }
        return resolution
    }

    /// A hit of this rule.
    func hit(_ rect: Rect, zone: Rect, windowID: UInt? = nil, field: AccessibleField? = nil) -> RegionHit {
        RegionHit(line: line, fill: fill, rect: rect, windowID: windowID, field: field, zone: zone, origin: origin)
    }
}

extension Array where Element == RegionHit {
    /// These hits in the coordinates of an image whose pixels cover `origin` on screen: each
    /// rectangle (and its zone) moved by (-origin.x, -origin.y) and clipped to the image;
    /// hits left empty are dropped.
    public func translated(toImageAt origin: Rect) -> [RegionHit] {
        let image = Rect(x: 0, y: 0, width: origin.width, height: origin.height)
        return compactMap { hit in
            var moved = hit
            moved.rect = hit.rect.offsetBy(dx: -origin.x, dy: -origin.y).intersection(image)
            moved.zone = hit.zone.offsetBy(dx: -origin.x, dy: -origin.y).intersection(image)
            return moved.rect.isEmpty ? nil : moved
        }
    }

    /// What to cover, in order, for `StagedFills` and the streamed encoders.
    public var covers: [Cover] { map { (rect: $0.rect, fill: $0.fill) } }
}
