// Resolves `field` rules: the accessible fields they select, at the fields' screen extents.

import ShotguardImaging
import ShotguardScreen

extension Rule {
    /// The fields this rule selects on `context`. Without accessibility information
    /// (`.notQueried`, `.unavailable`) a field rule hits nothing; the caller says why.
    func resolveFields(against context: ScreenContext) -> RuleResolution {
        var resolution = RuleResolution(rule: self, hits: [])
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
            let rect = (geometry?.resolve(in: field.rect) ?? field.rect).intersection(context.bounds)
            if !rect.isEmpty {
                resolution.hits.append(RegionHit(line: line, fill: fill, rect: rect, windowID: window?.id, field: field))
            }
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
