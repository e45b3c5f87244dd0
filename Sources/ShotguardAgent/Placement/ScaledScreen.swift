// Finds a screenshot of the whole screen made smaller: scrot -t's thumbnail, a screenshot run through convert -resize.
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen

/// A smaller copy of the whole screen cannot be found pixel for pixel: every scaler (imlib2's,
/// ImageMagick's, Pillow's) mixes the pixels differently. Its shape is the screen's, so the
/// screen is made as small by averaging, and the two are compared a few pixels at a time by
/// their mean colour. Where rules protect the screen, the copy is covered over the rectangles
/// made as small, and a few pixels more (a scaler draws on the pixels around each one).
enum ScaledScreen {
    /// A copy narrower or lower than this shows nothing of a window that can be read.
    static let smallestSide = 48
    /// Blocks of this many pixels (each way) of the copy are compared by their mean colour.
    static let blockSize = 4
    /// How far a block's mean may be from the screen's, per channel (0-255).
    static let blockTolerance = 16
    /// The share of blocks that may be further (the cursor, a clock that ticked).
    static let outlierShare = 0.02
    /// The share of blocks that must differ from the copy's own mean colour by
    /// `2 * blockTolerance`: a flat picture matches a flat desktop, and is no copy of it.
    static let distinctShare = 0.05
    /// Pixels around each rectangle covered too: a scaler's filter reaches this far.
    static let margin = 3
    /// How a read must be tied to the image for it to be taken for a smaller copy: the image is
    /// the reader's own, or one a process it started or piped to wrote, or one that appeared
    /// beside what it named, or one a program taken for an unnamed reader wrote. Not a read that
    /// merely covered the screen (`area`) or came close in time: a photo shown full screen and
    /// saved smaller matches the screen as well.
    static let links: Set<ReadLink> = [.sameProcess, .writer, .childOfReader, .channelOfReader, .folder, .copy, .recorder,
                                       .inferred]

    /// The first of `screens` that `image` is a smaller copy of, if any; `masked` gives, for
    /// each screen, the rectangles where the two need not agree (what the rules cover there).
    static func find(_ image: PixelBuffer, screens: [(root: PixelBuffer, context: ScreenContext)],
                     masked: (Int) -> [Rect] = { _ in [] }) -> Int? {
        screens.indices.first { index in
            isSmallerCopy(image, of: screens[index].root, masked: masked(index))
        }
    }

    /// Whether `image` has the shape of `root`, smaller, and its colours block by block but
    /// where `masked` (screen coordinates) covers: the shield's covers may be up on the screen
    /// the agent grabbed and not in the copy, or the other way round.
    static func isSmallerCopy(_ image: PixelBuffer, of root: PixelBuffer, masked: [Rect] = []) -> Bool {
        let (width, height) = (image.width, image.height)
        guard width >= smallestSide, height >= smallestSide, width < root.width, height < root.height,
              abs(width * root.height - height * root.width) <= root.width + root.height else { return false }
        let shrunk = shrink(root, toWidth: width, height: height)
        let columns = width / blockSize, rows = height / blockSize
        guard columns > 0, rows > 0 else { return false }
        let hidden = masked.map { RegionHit(line: 0, fill: .black, rect: $0, windowID: nil) }
        let maskedInImage = scaled(hidden, screen: root.bounds, image: image.bounds).map(\.rect)
        var outliers = 0, compared = 0
        var means: [(Int, Int, Int)] = []
        means.reserveCapacity(columns * rows)
        for row in 0..<rows {
            for column in 0..<columns {
                let ours = mean(image, column * blockSize, row * blockSize)
                means.append(ours)
                let block = Rect(x: column * blockSize, y: row * blockSize, width: blockSize, height: blockSize)
                if maskedInImage.contains(where: { !$0.intersection(block).isEmpty }) { continue }
                compared += 1
                let screen = mean(shrunk, column * blockSize, row * blockSize)
                if abs(ours.0 - screen.0) > blockTolerance || abs(ours.1 - screen.1) > blockTolerance
                    || abs(ours.2 - screen.2) > blockTolerance {
                    outliers += 1
                }
            }
        }
        // Most of it must be compared: a copy of a screen the rules cover nearly whole says little.
        guard compared * 2 >= columns * rows else { return false }
        let blocks = Double(columns * rows)
        guard Double(outliers) <= outlierShare * Double(compared) else { return false }
        let overall = means.reduce((0, 0, 0)) { ($0.0 + $1.0, $0.1 + $1.1, $0.2 + $1.2) }
        let average = (overall.0 / means.count, overall.1 / means.count, overall.2 / means.count)
        let distinct = means.filter {
            max(abs($0.0 - average.0), abs($0.1 - average.1), abs($0.2 - average.2)) > 2 * blockTolerance
        }.count
        return Double(distinct) >= distinctShare * blocks
    }

    /// The rules' rectangles on the screen (`screen` its size) as rectangles of the copy
    /// (`image` its size), each grown by `margin` and clipped to the copy.
    static func scaled(_ hits: [RegionHit], screen: Rect, image: Rect) -> [RegionHit] {
        let scaleX = Double(image.width) / Double(screen.width), scaleY = Double(image.height) / Double(screen.height)
        return hits.compactMap { hit in
            var copy = hit
            let left = Int((Double(hit.rect.x - screen.x) * scaleX).rounded(.down)) - margin
            let top = Int((Double(hit.rect.y - screen.y) * scaleY).rounded(.down)) - margin
            let right = Int((Double(hit.rect.maxX - screen.x) * scaleX).rounded(.up)) + margin
            let bottom = Int((Double(hit.rect.maxY - screen.y) * scaleY).rounded(.up)) + margin
            copy.rect = Rect(x: left, y: top, width: right - left, height: bottom - top).intersection(image)
            return copy.rect.isEmpty ? nil : copy
        }
    }

    /// `root` made `width`×`height` by averaging the pixels each new pixel stands for.
    static func shrink(_ root: PixelBuffer, toWidth width: Int, height: Int) -> PixelBuffer {
        var small = PixelBuffer(width: width, height: height)
        let spans = { (count: Int, total: Int) in
            (0..<count).map { index in (index * total / count, max(index * total / count + 1, (index + 1) * total / count)) }
        }
        let columns = spans(width, root.width), rows = spans(height, root.height)
        root.pixels.withUnsafeBufferPointer { pixels in
            for (y, rowSpan) in rows.enumerated() {
                for (x, columnSpan) in columns.enumerated() {
                    var red = 0, green = 0, blue = 0
                    for sourceY in rowSpan.0..<rowSpan.1 {
                        let start = sourceY * root.width
                        for sourceX in columnSpan.0..<columnSpan.1 {
                            let pixel = pixels[start + sourceX]
                            red += Int(pixel >> 16 & 0xFF)
                            green += Int(pixel >> 8 & 0xFF)
                            blue += Int(pixel & 0xFF)
                        }
                    }
                    let count = (rowSpan.1 - rowSpan.0) * (columnSpan.1 - columnSpan.0)
                    small[x, y] = 0xFF00_0000 | UInt32(red / count) << 16 | UInt32(green / count) << 8 | UInt32(blue / count)
                }
            }
        }
        return small
    }

    /// The mean red, green and blue of the block at (`left`, `top`).
    private static func mean(_ image: PixelBuffer, _ left: Int, _ top: Int) -> (Int, Int, Int) {
        var red = 0, green = 0, blue = 0
        for y in top..<(top + blockSize) {
            for x in left..<(left + blockSize) {
                let pixel = image[x, y]
                red += Int(pixel >> 16 & 0xFF)
                green += Int(pixel >> 8 & 0xFF)
                blue += Int(pixel & 0xFF)
            }
        }
        let count = blockSize * blockSize
        return (red / count, green / count, blue / count)
    }
}
