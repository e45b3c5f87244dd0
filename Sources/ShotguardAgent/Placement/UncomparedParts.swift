// The parts of a window's own image that were never on the screen as it shows them: what covers them, as nothing there can be compared.
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen

/// A window's own image (`maim -i` reads all of a window, the parts past the screen's edge and
/// under other windows too) is placed by what shows of the window (`Aligner`). The rest was
/// compared with nothing, and the rules, resolved on the screen as it shows, name nothing there
/// (the parts of a window under another are cut out of its covers, a rule's rectangle past the
/// edge is dropped). What they protect there is covered from the windows' own frames instead:
///
/// - a window a rule protects (`RegionsFile.protectedWindows`, or protected at any moment since
///   the read) is covered over its whole outer frame where the image was not compared, whatever
///   part of it the rule names and whichever window is above which: the part of a window under
///   the vault is covered too, as the screen showed the vault there;
/// - with a `field` rule in force all of it is covered: a field there has no place on the
///   screen to be found at;
/// - `screen` and `monitor` rules name what shows on the screen, which was compared, and
///   `text` rules are read in the image itself by the text pass.
struct UncomparedParts {
    /// The most rectangles the parts not compared are cut into; past it all of the image
    /// counts as not compared (more is covered, never less).
    static let limit = 256

    private struct Protected {
        /// Its outer frame and client area together.
        let frame: Rect
        let client: Rect
        let id: UInt
        let line: Int
        let fill: Fill
        let origin: RuleOrigin
    }

    private let protected: [Protected]
    private let field: Rule?

    init(on context: ScreenContext, rules: RegionsFile?, meanwhile: [RegionHit]) {
        field = rules?.rules.first { $0.target == .field && !$0.isAllow }
        var protected = (rules?.protectedWindows(against: context) ?? []).map {
            Protected(frame: $0.window.outerFrame.union($0.window.frame), client: $0.window.frame, id: $0.window.id,
                      line: $0.line, fill: $0.fill, origin: $0.origin)
        }
        for hit in meanwhile {
            guard let id = hit.windowID, !protected.contains(where: { $0.id == id }),
                  let window = context.windows.first(where: { $0.id == id }) else { continue }
            // A mosaic of a part never compared would keep what it could not check: solid.
            let fill: Fill = if case .solid = hit.fill { hit.fill } else { .black }
            protected.append(Protected(frame: window.outerFrame.union(window.frame), client: window.frame, id: id,
                                       line: hit.line, fill: fill, origin: hit.origin))
        }
        self.protected = protected
    }

    /// What to cover of `placed` (screen coordinates) outside `compared`; empty when all of it
    /// was compared (nil).
    func covers(of placed: Rect, compared: [Rect]?) -> [RegionHit] {
        guard let compared else { return [] }
        var uncompared = DisjointRects(placed, limit: Self.limit)
        if !compared.allSatisfy({ uncompared.subtract($0) }) { uncompared = DisjointRects(placed, limit: Self.limit) }
        guard !uncompared.isEmpty else { return [] }
        if let field {
            return uncompared.rects.map { RegionHit(line: field.line, fill: .black, rect: $0, zone: placed, origin: field.origin) }
        }
        return protected.flatMap { window in
            uncompared.intersections(with: window.frame).map {
                RegionHit(line: window.line, fill: window.fill, rect: $0, windowID: window.id, zone: window.frame, origin: window.origin)
            }
        }
    }

    /// Whether a window the rules protect, other than `windowID`, is as large as `size`: a
    /// window's own image placed by a part of it might be that one's, hidden where it is.
    func another(than windowID: UInt?, asLargeAs size: Rect) -> Bool {
        protected.contains { $0.id != windowID && $0.client.width == size.width && $0.client.height == size.height }
    }
}
