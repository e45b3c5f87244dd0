// Allow rules and windows that ask for protection: the last two steps of resolving a regions file.

import ShotguardImaging
import ShotguardScreen

extension RegionsFile {
    /// The rule that stands for `_SHOTGUARD_PROTECT`: line 0, black, the whole outer frame.
    public static var protectionRule: Rule {
        Rule(line: 0, target: .window, source: "_SHOTGUARD_PROTECT=1", origin: .windowProperty)
    }

    /// The windows that ask for protection, covered as a `window` rule without geometry would
    /// cover them (frame included, windows above cut out); nil when no viewable window asks.
    static func protection(against context: ScreenContext) -> RuleResolution? {
        let rule = protectionRule
        var resolution = RuleResolution(rule: rule, hits: [], zones: [])
        for (index, window) in context.windows.enumerated() where window.isViewable && window.requestsProtection {
            let zone = window.outerFrame.intersection(context.bounds)
            guard !zone.isEmpty else { continue }
            resolution.zones.append(rule.hit(zone, zone: zone, windowID: window.id))
            resolution.hits += context.visibleParts(of: zone, ofWindowAt: index).rects.map {
                rule.hit($0, zone: zone, windowID: window.id)
            }
        }
        return resolution.zones.isEmpty ? nil : resolution
    }

    /// `resolutions` with every allow rule's area cut out of the covers it may uncover, and
    /// what it kept visible recorded on the allow rule. A cut that would split a cover into
    /// more than `DisjointRects.defaultLimit` pieces is not made: that part stays covered.
    static func applyingAllows(_ resolutions: [RuleResolution]) -> [RuleResolution] {
        let allows = resolutions.indices.filter { resolutions[$0].rule.isAllow && !resolutions[$0].allowed.isEmpty }
        guard !allows.isEmpty else { return resolutions }
        var result = resolutions
        for coverIndex in result.indices where !result[coverIndex].rule.isAllow {
            let cover = result[coverIndex].rule
            let applicable = allows.filter { result[$0].rule.origin.allowMayUncover(cover.origin) }
            guard !applicable.isEmpty else { continue }
            var hits: [RegionHit] = []
            for hit in result[coverIndex].hits {
                var area = DisjointRects(hit.rect)
                for allowIndex in applicable {
                    for allowed in result[allowIndex].allowed where !area.isEmpty {
                        let parts = area.intersections(with: allowed.rect)
                        guard !parts.isEmpty, area.subtract(allowed.rect) else { continue }
                        result[allowIndex].kept += parts.map {
                            KeptVisible(rect: $0, coverLine: hit.line, coverOrigin: hit.origin, windowID: hit.windowID)
                        }
                    }
                }
                hits += area.rects.map { rect in
                    var piece = hit
                    piece.rect = rect
                    return piece
                }
            }
            result[coverIndex].hits = hits
        }
        return result
    }
}
