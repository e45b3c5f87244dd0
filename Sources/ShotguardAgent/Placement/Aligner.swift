// Finds where on the screen an image's pixels came from: the whole screen, a window, a region.
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen

/// How an image was placed on the screen.
struct Alignment {
    /// `scaled`: the whole screen made smaller (`ScaledScreen`); its rectangle is the screen's.
    enum Method: String { case screen, monitor, window, search, scaled, fallback }

    let method: Method
    /// The image's rectangle in screen coordinates.
    let rect: Rect
    let windowID: UInt?
    /// Whether the pixels were checked against the screen at event time and matched, but for
    /// one small cluster (cursor, caret). False only for a screen-sized image that differs
    /// more: it sits at the origin, but what it shows is not the screen at the event.
    var verified = true
    /// The box around every pixel where the image differs from the event-time screen, in
    /// screen coordinates; nil when none differ. When `verified` is false, whatever the image
    /// shows there was not on the screen the rules were resolved against: unless rules cover
    /// this box (`differenceIsCovered(by:)`), the image must be treated as unplaced.
    var difference: Rect?
    /// Each separate area where the image differs, in screen coordinates (see
    /// `DifferenceTiles`); empty when none differ or when only the box is known.
    var differingAreas: [Rect] = []
    /// The parts of the image that were compared with the screen, in screen coordinates, when
    /// not all of it was: a window's own image, the rest of it past the screen's edge or under
    /// other windows. Nil when the whole image was.
    var compared: [Rect]?

    init(method: Method, rect: Rect, windowID: UInt?, verified: Bool = true, difference: Rect? = nil,
         differingAreas: [Rect] = [], compared: [Rect]? = nil) {
        self.method = method
        self.rect = rect
        self.windowID = windowID
        self.verified = verified
        self.difference = difference
        self.differingAreas = differingAreas
        self.compared = compared
    }

    /// The differing pixels' area, in whole tiles, as a fraction of the image.
    var differingFraction: Double {
        Double(differingAreas.reduce(0) { $0 + $1.area }) / Double(max(1, rect.area))
    }

    /// Whether `rects` (screen coordinates, e.g. the rules' redactions) together cover every
    /// pixel of `difference`. True when nothing differs.
    func differenceIsCovered(by rects: [Rect]) -> Bool {
        guard let box = difference else { return true }
        var covered = [Bool](repeating: false, count: box.area)
        for rect in rects {
            let part = rect.intersection(box)
            guard part.area > 0 else { continue }
            for y in part.y..<part.maxY {
                let start = (y - box.y) * box.width + (part.x - box.x)
                for index in start..<(start + part.width) { covered[index] = true }
            }
        }
        return !covered.contains(false)
    }
}

/// Places images on the event-time screen. Captures come opaque (fourth byte 0xFF), as decoded
/// opaque PNG pixels are, so rows compare as plain bytes.
enum Aligner {
    /// `image` with every pixel's fourth byte set to 0xFF, for an image with alpha.
    static func opaque(_ image: PixelBuffer) -> PixelBuffer {
        var copy = image
        copy.pixels.withUnsafeMutableBufferPointer { pixels in
            for index in pixels.indices { pixels[index] |= 0xFF00_0000 }
        }
        return copy
    }

    /// Where `image` sits on `root`. A screen-sized image sits at the origin: verified when it
    /// matches; when it does not, nil if `verify`, else an unverified alignment with its
    /// difference. One the size of a monitor is checked against each monitor of that size, one the size of a context window is checked against that window; anything
    /// else is searched for within `budget`. Nil when it is not found, found at more than one
    /// place, or the budget ran out. `tolerance` follows the file: `.lossy` for JPEG and lossy
    /// WebP, `.exact` otherwise.
    static func align(_ image: PixelBuffer, root: PixelBuffer, context: ScreenContext, verify: Bool,
                      tolerance: MatchTolerance = .exact, budget: SearchBudget = .standard) -> Alignment? {
        locate(image, root: root, context: context, verify: verify, tolerance: tolerance, budget: budget).alignment
    }

    /// `align` on each of `screens` in turn (the event-time screen first): the first screen the
    /// image matches exactly wins; failing that, the one it differs from least (an editor's
    /// save with an arrow drawn on it, placed on the screen of its read rather than on today's,
    /// where a window now covers everything), the first among equals. Nil when it is on none of
    /// them. `screen` is the index of the chosen one.
    static func alignOnBest(_ image: PixelBuffer, screens: [(root: PixelBuffer, context: ScreenContext)], verify: Bool,
                            tolerance: MatchTolerance = .exact) -> (alignment: Alignment, screen: Int)? {
        var unverified: (alignment: Alignment, screen: Int)?
        for (index, screen) in screens.enumerated() {
            guard let alignment = align(image, root: screen.root, context: screen.context, verify: verify,
                                        tolerance: tolerance) else { continue }
            if alignment.verified { return (alignment, index) }
            // An alignment without differing areas (found by a search) tells nothing to compare.
            func share(_ found: Alignment) -> Double { found.differingAreas.isEmpty ? .infinity : found.differingFraction }
            if unverified.map({ share(alignment) < share($0.alignment) }) ?? true { unverified = (alignment, index) }
        }
        return unverified
    }

    /// `align`, with why an image was not placed.
    static func locate(_ image: PixelBuffer, root: PixelBuffer, context: ScreenContext, verify: Bool,
                       tolerance: MatchTolerance = .exact, budget: SearchBudget = .standard) -> (alignment: Alignment?, search: SearchResult?) {
        let candidate = image.hasAlpha ? opaque(image) : image
        if image.width == root.width, image.height == root.height {
            let comparison = ImageComparison.compare(candidate, root: root, x: 0, y: 0, tolerance: tolerance, stopEarly: false)
            let same = comparison.passes(tolerance)
            guard same || !verify else { return (nil, .notFound) }
            return (Alignment(method: .screen, rect: root.bounds, windowID: nil, verified: same, difference: comparison.differing,
                              differingAreas: comparison.tiles.areas(width: image.width, height: image.height)), nil)
        }
        // A monitor-sized image (scrot -M, flameshot screen) is tried at each monitor of that
        // size; monitors are matched by geometry, never by their index (which changes).
        for monitor in context.monitors
        where monitor.frame.width == image.width && monitor.frame.height == image.height && root.bounds.intersection(monitor.frame) == monitor.frame {
            let frame = monitor.frame
            let comparison = ImageComparison.compare(candidate, root: root, x: frame.x, y: frame.y, tolerance: tolerance, stopEarly: true)
            if comparison.passes(tolerance) {
                return (Alignment(method: .monitor, rect: frame, windowID: nil, difference: shifted(comparison.differing, by: frame)), nil)
            }
        }
        if !verify, let nearest = nearestMonitor(candidate, root: root, context: context, tolerance: tolerance) {
            return (nearest, nil)
        }
        for window in context.windows.reversed()
        where window.frame.width == image.width && window.frame.height == image.height {
            let frame = window.frame
            guard root.bounds.intersection(frame) == frame else { continue }
            let comparison = ImageComparison.compare(candidate, root: root, x: frame.x, y: frame.y, tolerance: tolerance, stopEarly: true)
            if comparison.passes(tolerance) {
                return (Alignment(method: .window, rect: frame, windowID: window.id, difference: shifted(comparison.differing, by: frame)), nil)
            }
        }
        if let window = ownImage(candidate, root: root, context: context, tolerance: tolerance) {
            return (window, nil)
        }
        var running = budget.started()
        let result = tolerance.lossy
            ? LossySearch.search(candidate, root: root, tolerance: tolerance, budget: &running)
            : ExactSearch.search(candidate, root: root, budget: &running)
        guard let rect = result.rect else { return (nil, result) }
        let comparison = ImageComparison.compare(candidate, root: root, x: rect.x, y: rect.y, tolerance: tolerance, stopEarly: false)
        return (Alignment(method: .search, rect: rect, windowID: nil, difference: shifted(comparison.differing, by: rect)), result)
    }

    /// Of a window, at least this much must show (on the screen, under no other window) for its
    /// own image to be placed by what shows alone.
    static let leastShowingShare = 0.1

    /// An image the size of a window of which only a part shows: the rest past the screen's
    /// edge or under other windows. A program that reads the window's own pixels (`maim -i`
    /// redirects the window to read all of it) writes the part that does not show as the
    /// window's own, not as the screen shows it. Placed at the window when what shows matches
    /// the screen there (`leastShowingShare` of the window, 8 pixels each way at least); its
    /// `compared` parts say what was compared, and the examiner covers the rest
    /// (`UncomparedParts`).
    private static func ownImage(_ image: PixelBuffer, root: PixelBuffer, context: ScreenContext,
                                 tolerance: MatchTolerance) -> Alignment? {
        for (index, window) in context.windows.enumerated().reversed()
        where window.isViewable && window.frame.width == image.width && window.frame.height == image.height {
            let frame = window.frame
            let onScreen = root.bounds.intersection(frame)
            var showing = DisjointRects(onScreen)
            let above = context.windows[(index + 1)...].filter(\.isViewable).map { $0.outerFrame.intersection(onScreen) }
                .filter { !$0.isEmpty }
            guard above.allSatisfy({ showing.subtract($0) }), showing.rects != [frame],
                  onScreen.width >= 8, onScreen.height >= 8,
                  Double(showing.area) >= leastShowingShare * Double(frame.area),
                  hasDetail(root, in: showing.rects) else { continue }
            let part = image.cropped(to: onScreen.offsetBy(dx: -frame.x, dy: -frame.y))
            let comparison = ImageComparison.compare(part, root: root, x: onScreen.x, y: onScreen.y, tolerance: tolerance,
                                                     masked: above.map { $0.offsetBy(dx: -onScreen.x, dy: -onScreen.y) })
            if comparison.passes(tolerance) {
                return Alignment(method: .window, rect: frame, windowID: window.id, difference: shifted(comparison.differing, by: onScreen),
                                 compared: showing.rects)
            }
        }
        return nil
    }

    /// Whether what shows of a window on `root` has detail enough to tell one window's image from
    /// another's: a pixel in 200 differing from its left neighbour, 64 at least. An empty
    /// terminal's rows, or a flat colour, match any picture with the same rows.
    private static func hasDetail(_ root: PixelBuffer, in rects: [Rect]) -> Bool {
        let needed = max(64, rects.reduce(0) { $0 + $1.area } / 200)
        var found = 0
        for rect in rects where rect.width > 1 {
            for y in rect.y..<rect.maxY {
                let row = y * root.width
                for x in (rect.x + 1)..<rect.maxX where root.pixels[row + x] & 0xFF_FFFF != root.pixels[row + x - 1] & 0xFF_FFFF {
                    found += 1
                    if found >= needed { return true }
                }
            }
        }
        return false
    }

    /// A monitor-sized image that matches no monitor exactly: the monitor of its size where it
    /// differs least, unverified, with its differing areas (an animation on that monitor).
    private static func nearestMonitor(_ image: PixelBuffer, root: PixelBuffer, context: ScreenContext,
                                       tolerance: MatchTolerance) -> Alignment? {
        var best: Alignment?
        for monitor in context.monitors
        where monitor.frame.width == image.width && monitor.frame.height == image.height && root.bounds.intersection(monitor.frame) == monitor.frame {
            let frame = monitor.frame
            let comparison = ImageComparison.compare(image, root: root, x: frame.x, y: frame.y, tolerance: tolerance, stopEarly: false)
            let areas = comparison.tiles.areas(width: image.width, height: image.height).map { $0.offsetBy(dx: frame.x, dy: frame.y) }
            let alignment = Alignment(method: .monitor, rect: frame, windowID: nil, verified: false,
                                      difference: shifted(comparison.differing, by: frame), differingAreas: areas)
            if best == nil || alignment.differingFraction < best!.differingFraction { best = alignment }
        }
        return best
    }

    private static func shifted(_ box: Rect?, by origin: Rect) -> Rect? {
        box.map { Rect(x: $0.x + origin.x, y: $0.y + origin.y, width: $0.width, height: $0.height) }
    }
}
