// Finds a JPEG or lossy WebP image on the screen: block means of brightness, then a tolerant check.
import ShotguardImaging

/// Lossy coding changes single pixels but keeps the mean brightness of a block close, so the
/// search compares means of 8×8 blocks, read in constant time from a summed-area table of the
/// root, at every position; the few positions that pass get the whole-image comparison.
enum LossySearch {
    static let blockSize = 8
    /// Blocks compared at each position, the most textured first: they localise best.
    static let anchorCount = 12
    /// How far (in mean brightness, 0-255) a block may be off.
    static let meanTolerance = 6

    static func search(_ image: PixelBuffer, root: PixelBuffer, tolerance: MatchTolerance,
                       budget: inout RunningBudget) -> SearchResult {
        guard image.width <= root.width, image.height <= root.height else { return .notFound }
        guard image.width >= 2 * blockSize, image.height >= 2 * blockSize else { return .indistinct }
        let anchors = self.anchors(image)
        guard anchors.count >= 2 else { return .indistinct }
        let table = SummedBrightness(root)
        let slack = UInt32(meanTolerance * blockSize * blockSize)
        var candidates: [(Int, Int)] = []
        for y in 0...(root.height - image.height) {
            if y % 16 == 0, budget.timeIsUp { return .overBudget }
            for x in 0...(root.width - image.width) {
                var fits = true
                for anchor in anchors {
                    let sum = table.blockSum(x: x + anchor.x, y: y + anchor.y, size: blockSize)
                    if (sum > anchor.sum ? sum - anchor.sum : anchor.sum - sum) > slack { fits = false; break }
                }
                guard fits else { continue }
                candidates.append((x, y))
                if candidates.count > budget.limits.candidates { return .overBudget }
            }
        }
        var found: [Rect] = []
        for (x, y) in candidates {
            guard budget.spendVerification() else { return .overBudget }
            let comparison = ImageComparison.compare(image, root: root, x: x, y: y, tolerance: tolerance, stopEarly: true)
            if comparison.passes(tolerance) { found.append(Rect(x: x, y: y, width: image.width, height: image.height)) }
        }
        if found.count > 1 { return .ambiguous }
        return found.first.map(SearchResult.found) ?? .notFound
    }

    struct Anchor {
        let x: Int, y: Int
        let sum: UInt32
    }

    /// The image's most textured whole blocks (highest brightness variance), flat ones left out.
    static func anchors(_ image: PixelBuffer) -> [Anchor] {
        var scored: [(anchor: Anchor, variance: Int)] = []
        for top in stride(from: 0, through: image.height - blockSize, by: blockSize) {
            for left in stride(from: 0, through: image.width - blockSize, by: blockSize) {
                var sum = 0, squares = 0
                for row in top..<(top + blockSize) {
                    for column in left..<(left + blockSize) {
                        let value = brightness(image.pixels[row * image.width + column])
                        sum += value
                        squares += value * value
                    }
                }
                let count = blockSize * blockSize
                let variance = (squares * count - sum * sum) / (count * count)
                if variance >= 64 { scored.append((Anchor(x: left, y: top, sum: UInt32(sum)), variance)) }
            }
        }
        return scored.sorted { $0.variance > $1.variance }.prefix(anchorCount).map(\.anchor)
    }

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
