// The part of a window's image that lies past the screen's edge: what covers it, as nothing there can be compared.
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen

/// An image of a window that reaches past the screen's edge (`maim -i` reads the window's own
/// pixels, the part off the screen too) is placed by its part on the screen (`Aligner`). Its
/// part off the screen was never on the screen the agent grabbed: nothing there can be
/// compared, and the rules, resolved on the screen, name nothing there. What they protect there
/// is covered from the windows' own frames instead:
///
/// - a window a rule protects (on this screen, or at any moment since the read) is covered over
///   its whole outer frame off the screen, whatever part of it the rule names and whatever lies
///   above it (a window's own pixels hold nothing of the windows above it);
/// - with a `field` rule in force the whole part off the screen is covered: a field there has no
///   place on the screen to be found at;
/// - `screen` and `monitor` rules name nothing off the screen, and `text` rules are read in the
///   image itself by the text pass.
enum OffScreenPart {
    /// What to cover of `placed` (screen coordinates) off `context`'s screen; empty when it lies
    /// on the screen.
    static func covers(of placed: Rect, on context: ScreenContext, rules: RegionsFile?, meanwhile: [RegionHit]) -> [RegionHit] {
        let parts = placed.subtracting(context.bounds)
        guard !parts.isEmpty, let rules else { return [] }
        if let field = rules.rules.first(where: { $0.target == .field && !$0.isAllow }) {
            return parts.map { RegionHit(line: field.line, fill: field.fill, rect: $0, zone: placed, origin: field.origin) }
        }
        var covers: [RegionHit] = []
        var seen = Set<UInt>()
        for zone in rules.zones(against: context) + meanwhile {
            guard let id = zone.windowID, seen.insert(id).inserted,
                  let window = context.windows.first(where: { $0.id == id }) else { continue }
            let frame = boundingBox(window.outerFrame, window.frame)
            covers += parts.map { $0.intersection(frame) }.filter { !$0.isEmpty }.map {
                RegionHit(line: zone.line, fill: zone.fill, rect: $0, windowID: id, zone: frame, origin: zone.origin)
            }
        }
        return covers
    }

    private static func boundingBox(_ a: Rect, _ b: Rect) -> Rect {
        let x = min(a.x, b.x), y = min(a.y, b.y)
        return Rect(x: x, y: y, width: max(a.maxX, b.maxX) - x, height: max(a.maxY, b.maxY) - y)
    }
}
