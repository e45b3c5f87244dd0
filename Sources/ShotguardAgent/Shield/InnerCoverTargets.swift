// What the shield covers inside each protected window while a program captures it alone.
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen
import ShotguardX11

/// The shield's inner covers (`ShieldInnerCovers`), one target per window, in its own
/// coordinates (its client area's origin): what `window` rules name of it (the whole window
/// by a child larger than any window, which the window clips, so that a resize needs no new
/// cover; its decorations, when it has any, by one more in the frame), and the fields `field`
/// rules found in it (each whole, as a window's own pixels show it whole).
enum InnerCoverTargets {
    static func of(_ protected: [ProtectedWindow], fields hits: [RegionHit], on context: ScreenContext) -> [InnerCoverTarget] {
        let whole = Int(ShieldInnerCovers.size)
        var targets = protected.map { protected in
            let frame = protected.window.frame
            let rects = protected.rects.map { rect in
                rect == protected.window.outerFrame ? Rect(x: 0, y: 0, width: whole, height: whole)
                    : rect.offsetBy(dx: -frame.x, dy: -frame.y)
            }
            // The whole window, decorations included, when it has any: its frame is covered too.
            let decorated = protected.window.outerFrame != frame && protected.rects.contains(protected.window.outerFrame)
            return InnerCoverTarget(window: protected.window.id, rects: rects, coversFrame: decorated,
                                    rgb: ShieldCover(rect: frame, fill: protected.fill).rgb)
        }
        for hit in hits where hit.field != nil {
            guard let id = hit.windowID, let window = context.windows.first(where: { $0.id == id }) else { continue }
            let rect = hit.zone.offsetBy(dx: -window.frame.x, dy: -window.frame.y)
            if let index = targets.firstIndex(where: { $0.window == id }) {
                if !targets[index].rects.contains(rect) { targets[index].rects.append(rect) }
            } else {
                targets.append(InnerCoverTarget(window: id, rects: [rect], rgb: ShieldCover(rect: rect, fill: hit.fill).rgb))
            }
        }
        return targets
    }
}
