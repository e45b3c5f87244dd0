// Resolves `field` rules: the accessible fields they select, at the fields' screen extents.

import ShotguardText
import ShotguardImaging
import ShotguardScreen

extension Rule {
    /// The fields this rule selects on `context`, each less the opaque windows above the window
    /// that shows it (the topmost at its centre: should that be a window above the field's own,
    /// less is cut out, never more). Without accessibility information (`.notQueried`,
    /// `.unavailable`) a field rule hits nothing; the caller says why.
    func resolveFields(against context: ScreenContext) -> RuleResolution {
        var resolution = RuleResolution(rule: self, hits: [], zones: [])
        guard let selector = field else { return resolution }
        for field in context.fields.fields {
            let fieldResult = selector.evaluate(field)
            guard fieldResult != .noMatch else { continue }
            let window = context.window(showing: field.rect)
            var result = fieldResult
            if !matches.isEmpty {
                // Window conditions need the window; a field in no known window cannot meet them.
                guard let window else { continue }
                let windowResult = evaluate(window)
                guard windowResult != .noMatch else { continue }
                if windowResult == .undecided { result = .undecided }
            }
            if result == .undecided, let window { resolution.undecided.append(window.id) }
            let zone = (geometry?.resolve(in: field.rect) ?? field.rect).intersection(context.bounds)
            guard !zone.isEmpty else { continue }
            resolution.zones.append(hit(zone, zone: zone, windowID: window?.id, field: field))
            let visible = window.flatMap { context.index(ofWindow: $0.id) }
                .map { context.visibleParts(of: zone, ofWindowAt: $0).rects } ?? [zone]
            resolution.hits += visible.map { hit($0, zone: zone, windowID: window?.id, field: field) }
        }
        return resolution
    }
}

extension RegionsFile {
    /// The `field` rules, in file order.
    public var fieldRules: [Rule] { rules.filter { $0.target == .field } }

    /// Every role some `field` rule asks for; empty when no rule names a field, and then the
    /// accessibility bus need not be asked at all.
    public var fieldRoles: Set<FieldRole> {
        fieldRules.reduce(into: []) { $0.formUnion($1.field?.roles ?? []) }
    }
}
