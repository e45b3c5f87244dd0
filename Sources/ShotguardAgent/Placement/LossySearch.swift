// Finds a JPEG or lossy WebP image on the screen: block means of brightness, then a tolerant check.
import ShotguardImaging

/// Lossy coding changes single pixels but keeps the mean brightness of a block close, so the
/// search compares means of 8×8 blocks, read in constant time from a summed-area table of the
/// root, at every position; the few positions that pass get the whole-image comparison.
enum LossySearch {
    static let blockSize = 8
    /// Blocks compared at each position, the most distinctive first: they localise best.
    static let anchorCount = 12
    /// How far (in mean brightness, 0-255) a block may be off.
    static let meanTolerance = 6

    static func search(_ image: PixelBuffer, root: PixelBuffer, tolerance: MatchTolerance,
                       budget: inout RunningBudget) -> SearchResult {
        guard image.width <= root.width, image.height <= root.height else { return .notFound }
        guard image.width >= 2 * blockSize, image.height >= 2 * blockSize else { return .indistinct }
        let anchors = self.anchors(image)
        guard !anchors.isEmpty else { return .indistinct }
        let table = SummedBrightness(root)
        let strict = search(image, root: root, table: table, anchors: anchors, missing: 0, tolerance: tolerance, budget: &budget)
        guard strict == .notFound else { return strict }
        // The most distinctive blocks may be the cursor's, drawn into the image and on no
        // screen: a place where all but the blocks under one cursor fit is tried too.
        return search(image, root: root, table: table, anchors: anchors, missing: cursorAnchors, tolerance: tolerance, budget: &budget)
    }

    /// Anchors a cursor may spoil: the blocks of a square two blocks across (an arrow of
    /// 12×19 pixels touches four; the anchors are spread over the image).
    static let cursorAnchors = 4

    /// The search with `missing` anchors allowed off, when they are within a cursor's reach of
    /// each other.
    private static func search(_ image: PixelBuffer, root: PixelBuffer, table: SummedBrightness, anchors: [Anchor], missing: Int,
                               tolerance: MatchTolerance, budget: inout RunningBudget) -> SearchResult {
        let slack = UInt32(meanTolerance * blockSize * blockSize)
        // Positions next to the right one pass the block means too (moving a block by a pixel
        // changes its mean little), so passing positions are grouped into places a few pixels
        // across, each tried best first; the caps count places, not positions.
        var places: [Place] = []
        for y in 0...(root.height - image.height) {
            if y % 16 == 0, budget.timeIsUp { return .overBudget }
            for x in 0...(root.width - image.width) {
                var error: UInt32 = 0
                var fits = true
                var off: [Anchor] = []
                for anchor in anchors {
                    let sum = table.blockSum(x: x + anchor.x, y: y + anchor.y, size: blockSize)
                    let difference = sum > anchor.sum ? sum - anchor.sum : anchor.sum - sum
                    if difference > slack {
                        // Every block off lies within one cursor's reach of every other.
                        guard off.count < missing,
                              off.allSatisfy({ abs($0.x - anchor.x) <= cursorReach && abs($0.y - anchor.y) <= cursorReach }) else {
                            fits = false
                            break
                        }
                        off.append(anchor)
                        continue
                    }
                    error += difference
                }
                guard fits else { continue }
                if let index = places.firstIndex(where: { abs($0.x - x) <= placeRadius && abs($0.y - y) <= placeRadius }) {
                    places[index].positions.append((x, y, error))
                } else {
                    places.append(Place(x: x, y: y, positions: [(x, y, error)]))
                    if places.count > budget.limits.candidates { return .overBudget }
                }
            }
        }
        var found: [Rect] = []
        for place in places {
            for (x, y, _) in place.positions.sorted(by: { $0.2 < $1.2 }).prefix(triesPerPlace) {
                guard budget.spendVerification() else { return .overBudget }
                let comparison = ImageComparison.compare(image, root: root, x: x, y: y, tolerance: tolerance, stopEarly: true)
                if comparison.passes(tolerance) {
                    found.append(Rect(x: x, y: y, width: image.width, height: image.height))
                    break
                }
            }
        }
        if found.count > 1 { return .ambiguous }
        return found.first.map(SearchResult.found) ?? .notFound
    }

    /// How far apart two anchors spoilt by one cursor may be, each way (an arrow of 12×19
    /// pixels, or twice that on a large screen, touches blocks this far apart at most).
    static let cursorReach = 3 * blockSize

    /// How far apart (in pixels, each way) positions may be and still count as one place.
    static let placeRadius = 3
    /// Positions of one place compared over the whole image, the closest block means first.
    static let triesPerPlace = 3

    /// Neighbouring positions whose block means all fit, with their summed error.
    struct Place {
        let x: Int, y: Int
        var positions: [(Int, Int, UInt32)]
    }

    struct Anchor {
        let x: Int, y: Int
        let sum: UInt32
    }

    /// Blocks whose mean changes most when moved a few pixels: half chosen for moving sideways
    /// (vertical edges, ends of words), half for moving up or down (lines of text, horizontal
    /// edges), so that together they pin both coordinates; a line of text alone changes
    /// little when moved along itself, a straight edge nothing. Each half is spread over the
    /// image: the best of each cell of a 4×3 grid first.
    static func anchors(_ image: PixelBuffer) -> [Anchor] {
        let table = SummedBrightness(image)
        let shift = 4
        var across: [(anchor: Anchor, score: UInt32, cell: Int)] = []
        var down: [(anchor: Anchor, score: UInt32, cell: Int)] = []
        func change(_ sum: UInt32, _ x: Int, _ y: Int) -> UInt32 {
            let moved = table.blockSum(x: x, y: y, size: blockSize)
            return moved > sum ? moved - sum : sum - moved
        }
        for top in stride(from: shift, through: image.height - blockSize - shift, by: blockSize) {
            for left in stride(from: shift, through: image.width - blockSize - shift, by: blockSize) {
                let sum = table.blockSum(x: left, y: top, size: blockSize)
                let anchor = Anchor(x: left, y: top, sum: sum)
                let cell = min(3, left * 4 / image.width) + 4 * min(2, top * 3 / image.height)
                let sideways = max(change(sum, left - shift, top), change(sum, left + shift, top))
                let vertical = max(change(sum, left, top - shift), change(sum, left, top + shift))
                if sideways >= minimumScore { across.append((anchor, sideways, cell)) }
                if vertical >= minimumScore { down.append((anchor, vertical, cell)) }
            }
        }
        let half = anchorCount / 2
        let first = spread(across, count: half), second = spread(down, count: half)
        guard !first.isEmpty, !second.isEmpty else { return [] }
        var chosen: [Anchor] = []
        for anchor in zip(first, second).flatMap({ [$0, $1] }) + first.dropFirst(second.count) + second.dropFirst(first.count)
        where !chosen.contains(where: { $0.x == anchor.x && $0.y == anchor.y }) {
            chosen.append(anchor)
        }
        return chosen
    }

    /// The `count` best by score, taking the best of each grid cell before any second one.
    private static func spread(_ scored: [(anchor: Anchor, score: UInt32, cell: Int)], count: Int) -> [Anchor] {
        var firsts: [Anchor] = [], seconds: [Anchor] = []
        var usedCells = Set<Int>()
        for entry in scored.sorted(by: { $0.score > $1.score }) {
            if usedCells.insert(entry.cell).inserted { firsts.append(entry.anchor) } else if seconds.count < count { seconds.append(entry.anchor) }
        }
        return Array((firsts + seconds).prefix(count))
    }

    /// A block whose sum moves less than this (a mean of 2 levels) when shifted is flat that way.
    static let minimumScore = UInt32(2 * blockSize * blockSize)

    /// Luma (BT.601 weights) of a 0xXXRRGGBB pixel, 0-255.
    @inline(__always)
    static func brightness(_ pixel: UInt32) -> Int {
        (77 * Int(pixel >> 16 & 0xFF) + 150 * Int(pixel >> 8 & 0xFF) + 29 * Int(pixel & 0xFF)) >> 8
    }
}

/// A summed-area table of the root's brightness. Sums wrap modulo 2^32, which leaves the
/// difference for any block smaller than 2^32 / 255 pixels exact.
struct SummedBrightness {
    let stride: Int
    private let sums: [UInt32]

    init(_ root: PixelBuffer) {
        stride = root.width + 1
        var sums = [UInt32](repeating: 0, count: (root.width + 1) * (root.height + 1))
        let width = root.width
        root.pixels.withUnsafeBufferPointer { pixels in
            sums.withUnsafeMutableBufferPointer { table in
                for y in 0..<root.height {
                    var rowSum: UInt32 = 0
                    let above = y * (width + 1), here = (y + 1) * (width + 1)
                    for x in 0..<width {
                        rowSum &+= UInt32(LossySearch.brightness(pixels[y * width + x]))
                        table[here + x + 1] = table[above + x + 1] &+ rowSum
                    }
                }
            }
        }
        self.sums = sums
    }

    /// The brightness summed over the `size`×`size` block at (x, y).
    @inline(__always)
    func blockSum(x: Int, y: Int, size: Int) -> UInt32 {
        let top = y * stride + x, bottom = (y + size) * stride + x
        return sums[bottom + size] &- sums[bottom] &- sums[top + size] &+ sums[top]
    }
}
