// A line's background and ink: which way round its text is, and how far a word's ink reaches.
import ShotguardImaging

enum Ink {
    /// How far from the background a pixel's luminance is when it is ink.
    static let contrast = 48

    /// The most common luminance in `rect` (in bins of 16, the bin's middle): a line's background.
    static func background(_ grey: GreyImage, _ rect: Rect) -> Int {
        var bins = [Int](repeating: 0, count: 16)
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX { bins[Int(grey[x, y] >> 4)] += 1 }
        }
        return (bins.indices.max { bins[$0] < bins[$1] } ?? 0) * 16 + 8
    }

    static func isInk(_ value: UInt8, background: Int) -> Bool { abs(Int(value) - background) > contrast }

    /// Whether the ink in `rect` is mostly lighter than its background: Tesseract reads dark
    /// text on a light background, so such a line is inverted first.
    static func isLightOnDark(_ grey: GreyImage, _ rect: Rect, background: Int) -> Bool {
        var lighter = 0, darker = 0
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX {
                let value = Int(grey[x, y])
                if value > background + contrast { lighter += 1 } else if value < background - contrast { darker += 1 }
            }
        }
        return lighter > darker
    }

    /// `box` grown, within `line`, to the whole ink it touches: sideways while ink continues
    /// with gaps narrower than a space (a third of the box's height), and up and down while
    /// rows under it hold ink.
    static func extent(of box: Rect, in grey: GreyImage, line: Rect, background: Int) -> Rect {
        let box = box.intersection(line)
        guard !box.isEmpty else { return box }
        let gapLimit = max(2, box.height / 3)
        func columnHasInk(_ x: Int, _ top: Int, _ bottom: Int) -> Bool {
            (top..<bottom).contains { isInk(grey[x, $0], background: background) }
        }
        func rowHasInk(_ y: Int, _ left: Int, _ right: Int) -> Bool {
            (left..<right).contains { isInk(grey[$0, y], background: background) }
        }
        var left = box.x, right = box.maxX, top = box.y, bottom = box.maxY
        var gap = 0
        var x = left - 1
        while x >= line.x, gap < gapLimit {
            if columnHasInk(x, top, bottom) {
                left = x
                gap = 0
            } else {
                gap += 1
            }
            x -= 1
        }
        gap = 0
        x = right
        while x < line.maxX, gap < gapLimit {
            if columnHasInk(x, top, bottom) {
                right = x + 1
                gap = 0
            } else {
                gap += 1
            }
            x += 1
        }
        while top > line.y, rowHasInk(top - 1, left, right) { top -= 1 }
        while bottom < line.maxY, rowHasInk(bottom, left, right) { bottom += 1 }
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// Whether a dot stands between two words of a line (`left`, then `right`, image
    /// coordinates): a speck of ink apart from the letters, no wider or taller than a quarter
    /// of the words' height, its middle in the lowest 40% of their rows. OCR of 12-13 px text
    /// drops the dot of "globex.fr" now and then and splits the words there; the boxes it gives
    /// them may overlap, so the area looked at reaches half a height into each word.
    static func hasDot(between left: Rect, and right: Rect, in grey: GreyImage, background: Int) -> Bool {
        let top = max(0, min(left.y, right.y)), bottom = min(grey.height, max(left.maxY, right.maxY))
        let height = bottom - top
        let x0 = max(0, left.x + 1, min(left.maxX, right.x) - height / 2)
        let x1 = min(grey.width, right.maxX - 1, max(left.maxX, right.x) + height / 2)
        guard height > 0, x1 > x0 else { return false }
        let width = x1 - x0
        let size = max(2, height / 4)
        var ink = [Bool](repeating: false, count: width * height)
        for y in 0..<height {
            for x in 0..<width { ink[y * width + x] = isInk(grey[x0 + x, top + y], background: background) }
        }
        // Each piece of ink (pixels touching, diagonals too), by flood fill.
        var seen = [Bool](repeating: false, count: width * height)
        for start in ink.indices where ink[start] && !seen[start] {
            var stack = [start]
            seen[start] = true
            var minX = width, maxX = -1, minY = height, maxY = -1
            while let index = stack.popLast() {
                let x = index % width, y = index / width
                minX = min(minX, x)
                maxX = max(maxX, x)
                minY = min(minY, y)
                maxY = max(maxY, y)
                for dy in -1...1 {
                    for dx in -1...1 {
                        let nx = x + dx, ny = y + dy
                        guard nx >= 0, nx < width, ny >= 0, ny < height else { continue }
                        let neighbour = ny * width + nx
                        if ink[neighbour], !seen[neighbour] {
                            seen[neighbour] = true
                            stack.append(neighbour)
                        }
                    }
                }
            }
            // A piece cut by the area's edge may be part of a letter.
            guard minX > 0, maxX < width - 1, maxX - minX < size, maxY - minY < size else { continue }
            if (minY + maxY + 1) * 5 >= height * 6 { return true }
        }
        return hasTouchingDot(in: x0..<x1, of: grey, top: top, height: height, size: size, background: background)
    }

    /// A dot that the next letter's anti-aliasing touches (light text on dark: "hooli.xyz", the
    /// dot one piece with the foot of the `x`), in `columns`: at most `size` columns side by side
    /// whose ink lies all in the lowest 40% of the rows, in at most `size` rows, after a column
    /// with no ink at all (the space before the dot) and before a letter's column.
    private static func hasTouchingDot(in columns: Range<Int>, of grey: GreyImage, top: Int, height: Int, size: Int,
                                       background: Int) -> Bool {
        var run: (first: Int, low: Int, high: Int)?
        var afterEmpty = false
        for x in columns {
            let rows = (0..<height).filter { isInk(grey[x, top + $0], background: background) }
            guard let first = rows.first, let last = rows.last else {
                afterEmpty = true
                run = nil
                continue
            }
            guard first * 5 >= height * 3 else {
                // Ink above the dot's rows: a letter. A run of low columns before it ends here.
                if let dot = run, x - dot.first <= size, dot.high - dot.low < size { return true }
                run = nil
                afterEmpty = false
                continue
            }
            if let dot = run {
                run = (dot.first, min(dot.low, first), max(dot.high, last))
            } else if afterEmpty {
                run = (x, first, last)
            }
        }
        return false
    }
}
