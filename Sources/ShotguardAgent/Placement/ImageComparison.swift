// Compares an image with the event-time screen at one position: where they differ, and by how much.
import Glibc
import ShotguardImaging

/// How closely an image must match the screen, by how it was stored.
struct MatchTolerance: Sendable {
    /// Lossless images (PNG, lossless WebP) must equal the screen pixel for pixel, but for a
    /// cluster (the cursor, a caret). Lossy ones (JPEG, lossy WebP) are compared in blocks.
    let lossy: Bool
    /// Lossy: the mean brightness error (0-255) above which an 8×8 block differs.
    let blockError: Int
    /// Lossy: a pixel whose brightness is further off than this differs, whatever its block.
    let pixelError: Int
    /// Lossy: the bound on the mean brightness error over the whole image.
    let meanError: Double
    /// The largest box (width and height) that all differing pixels may fill: a cursor or a
    /// caret, never a pop-up. Lossy: counted in whole blocks, so one block more.
    let cluster: Int

    static let exact = MatchTolerance(lossy: false, blockError: 0, pixelError: 0, meanError: 0, cluster: 64)
    /// On dense 5×7-pixel text in saturated colours at JPEG quality 75 with 4:2:0 chroma
    /// (scrot's default) the worst block was off by 10, the worst pixel by 48, and the mean
    /// over crops of nothing but such text up to 4.9; a pop-up's border, fill or text is off
    /// by far more.
    static let lossy = MatchTolerance(lossy: true, blockError: 16, pixelError: 96, meanError: 8, cluster: 72)

    /// The tolerance for an image as it was decoded.
    static func forImage(_ decoded: DecodedImage) -> MatchTolerance { decoded.isLossy ? .lossy : .exact }
}

/// Where an image differs from the screen at one position.
struct Comparison {
    /// The box around every differing pixel (lossy: every differing block), in image
    /// coordinates; nil when none differ.
    var differing: Rect?
    /// The differing tiles, for a comparison that ran to the end: separate areas apart (an
    /// animation in one corner, a clock in another), each the box of one group of touching tiles.
    var tiles = DifferenceTiles(width: 0, height: 0)
    /// The mean brightness error (lossy only; 0 for exact comparisons).
    var meanError = 0.0
    /// Whether the comparison stopped early because the difference was already too large.
    var abandoned = false

    /// Whether the image passes as the screen there: differences only as one small cluster.
    func passes(_ tolerance: MatchTolerance) -> Bool {
        guard !abandoned, meanError <= tolerance.meanError || !tolerance.lossy else { return false }
        guard let box = differing else { return true }
        return box.width <= tolerance.cluster && box.height <= tolerance.cluster
    }
}

enum ImageComparison {
    /// Compares `image` with `root` at (x, y), which must fit. With `stopEarly`, gives up
    /// (`abandoned`) as soon as the differing box outgrows the cluster: for trying candidates.
    static func compare(_ image: PixelBuffer, root: PixelBuffer, x: Int, y: Int,
                        tolerance: MatchTolerance, stopEarly: Bool) -> Comparison {
        precondition(x >= 0 && y >= 0 && x + image.width <= root.width && y + image.height <= root.height)
        return tolerance.lossy
            ? compareLossy(image, root: root, x: x, y: y, tolerance: tolerance, stopEarly: stopEarly)
            : compareExact(image, root: root, x: x, y: y, tolerance: tolerance, stopEarly: stopEarly)
    }

    private static func compareExact(_ image: PixelBuffer, root: PixelBuffer, x: Int, y: Int,
                                     tolerance: MatchTolerance, stopEarly: Bool) -> Comparison {
        var box = BoxBuilder()
        var tiles = DifferenceTiles(width: image.width, height: image.height)
        let width = image.width
        let abandoned = image.pixels.withUnsafeBufferPointer { pixels in
            root.pixels.withUnsafeBufferPointer { screen in
                for row in 0..<image.height {
                    let source = row * width
                    let target = (y + row) * root.width + x
                    if memcmp(pixels.baseAddress! + source, screen.baseAddress! + target, width * 4) == 0 { continue }
                    var first = -1, last = -1
                    for column in 0..<width where (pixels[source + column] ^ screen[target + column]) & 0x00FF_FFFF != 0 {
                        if first < 0 { first = column }
                        last = column
                        tiles.mark(x: column, y: row)
                    }
                    if first >= 0 { box.add(Rect(x: first, y: row, width: last - first + 1, height: 1)) }
                    if stopEarly, box.exceeds(tolerance.cluster) { return true }
                }
                return false
            }
        }
        return Comparison(differing: box.rect, tiles: tiles, abandoned: abandoned)
    }

    /// Lossy: compares brightness (luma), which JPEG and WebP keep at full resolution; colour
    /// is subsampled and blurred (a thin red line on white comes back pink, 120 levels off),
    /// so it is not compared pixel by pixel. Sums |ΔY| over 8×8 blocks of the image's own grid
    /// (the grid a JPEG was coded on): a block differs when its mean is over `blockError`, a
    /// pixel when it alone is over `pixelError`.
    private static func compareLossy(_ image: PixelBuffer, root: PixelBuffer, x: Int, y: Int,
                                     tolerance: MatchTolerance, stopEarly: Bool) -> Comparison {
        let width = image.width, height = image.height, blockSize = 8
        var box = BoxBuilder()
        var tiles = DifferenceTiles(width: image.width, height: image.height)
        var total = 0
        var sums = [Int](repeating: 0, count: (width + blockSize - 1) / blockSize)
        let abandoned = image.pixels.withUnsafeBufferPointer { pixels in
            root.pixels.withUnsafeBufferPointer { screen in
                for bandTop in stride(from: 0, to: height, by: blockSize) {
                    let bandHeight = min(blockSize, height - bandTop)
                    for index in sums.indices { sums[index] = 0 }
                    for row in bandTop..<(bandTop + bandHeight) {
                        let source = row * width
                        let target = (y + row) * root.width + x
                        var first = -1, last = -1
                        for column in 0..<width {
                            let error = abs(LossySearch.brightness(pixels[source + column]) - LossySearch.brightness(screen[target + column]))
                            sums[column >> 3] += error
                            if error > tolerance.pixelError {
                                if first < 0 { first = column }
                                last = column
                                tiles.mark(x: column, y: row)
                            }
                        }
                        if first >= 0 { box.add(Rect(x: first, y: row, width: last - first + 1, height: 1)) }
                    }
                    for (index, sum) in sums.enumerated() {
                        total += sum
                        let blockWidth = min(blockSize, width - index * blockSize)
                        if sum > tolerance.blockError * blockWidth * bandHeight {
                            box.add(Rect(x: index * blockSize, y: bandTop, width: blockWidth, height: bandHeight))
                            tiles.mark(x: index * blockSize, y: bandTop)
                        }
                    }
                    if stopEarly, box.exceeds(tolerance.cluster) { return true }
                }
                return false
            }
        }
        return Comparison(differing: box.rect, tiles: tiles, meanError: Double(total) / Double(max(1, width * height)),
                          abandoned: abandoned)
    }
}

/// The bounding box of the rectangles added so far.
struct BoxBuilder {
    private(set) var rect: Rect?

    mutating func add(_ other: Rect) {
        guard let current = rect else { rect = other; return }
        let minX = min(current.x, other.x), minY = min(current.y, other.y)
        let maxX = max(current.maxX, other.maxX), maxY = max(current.maxY, other.maxY)
        rect = Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    func exceeds(_ size: Int) -> Bool { rect.map { $0.width > size || $0.height > size } ?? false }
}

extension ImageComparison {
    /// Compares `image` with `root` at (x, y) as `compare` does, but leaves out every pixel of
    /// `masked` (image coordinates): where the rules cover, any difference will be covered (the
    /// shield's covers in a snapshot, a window gone meanwhile). Runs to the end: for an image
    /// that did not match as it is.
    static func compare(_ image: PixelBuffer, root: PixelBuffer, x: Int, y: Int, tolerance: MatchTolerance,
                        masked: [Rect]) -> Comparison {
        precondition(x >= 0 && y >= 0 && x + image.width <= root.width && y + image.height <= root.height)
        let width = image.width, height = image.height
        var mask = [Bool](repeating: false, count: width * height)
        for rect in masked {
            let part = rect.intersection(Rect(x: 0, y: 0, width: width, height: height))
            guard !part.isEmpty else { continue }
            for row in part.y..<part.maxY { for column in part.x..<part.maxX { mask[row * width + column] = true } }
        }
        var box = BoxBuilder()
        var tiles = DifferenceTiles(width: width, height: height)
        var total = 0, counted = 0
        image.pixels.withUnsafeBufferPointer { pixels in
            root.pixels.withUnsafeBufferPointer { screen in
                if !tolerance.lossy {
                    for row in 0..<height {
                        let source = row * width, target = (y + row) * root.width + x
                        for column in 0..<width where !mask[source + column]
                            && (pixels[source + column] ^ screen[target + column]) & 0x00FF_FFFF != 0 {
                            box.add(Rect(x: column, y: row, width: 1, height: 1))
                            tiles.mark(x: column, y: row)
                        }
                    }
                    return
                }
                for bandTop in stride(from: 0, to: height, by: 8) {
                    for blockLeft in stride(from: 0, to: width, by: 8) {
                        var sum = 0, inBlock = 0
                        for row in bandTop..<min(bandTop + 8, height) {
                            let source = row * width, target = (y + row) * root.width + x
                            for column in blockLeft..<min(blockLeft + 8, width) where !mask[source + column] {
                                let error = abs(LossySearch.brightness(pixels[source + column]) - LossySearch.brightness(screen[target + column]))
                                if error > tolerance.pixelError {
                                    box.add(Rect(x: column, y: row, width: 1, height: 1))
                                    tiles.mark(x: column, y: row)
                                }
                                sum += error
                                inBlock += 1
                            }
                        }
                        total += sum
                        counted += inBlock
                        if inBlock > 0, sum > tolerance.blockError * inBlock {
                            box.add(Rect(x: blockLeft, y: bandTop, width: min(8, width - blockLeft), height: min(8, height - bandTop)))
                            tiles.mark(x: blockLeft, y: bandTop)
                        }
                    }
                }
            }
        }
        return Comparison(differing: box.rect, tiles: tiles, meanError: Double(total) / Double(max(1, counted)))
    }
}
