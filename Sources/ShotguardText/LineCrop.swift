// One candidate line made ready for OCR: its crop, scale and polarity, its neighbours painted out.
import ShotguardImaging

/// What Tesseract reads of one candidate line, and how its boxes map back to the image.
///
/// The crop leaves room above and below for ascenders and descenders too thin to have made
/// runs; the parts of it that other candidate lines take (the line above's descenders, the one
/// below's ascenders) are painted over with the background: they are not this line's ink, and
/// Tesseract would read them as lines of their own (a second time) or as noise in this one.
struct LineCrop {
    let line: Rect
    /// The area read, in image coordinates.
    let crop: Rect
    /// The whole factor the crop is scaled up by.
    let scale: Int
    /// The line's background luminance (`Ink.background`).
    let background: Int
    /// The part of the crop this line's ink may reach: the crop less the rows of the lines
    /// above and below it, so a box grown to its ink never takes a neighbour's.
    let reach: Rect
    /// The crop scaled, inverted when its text is light on dark, its neighbours painted out.
    let image: GreyImage

    /// The crop scaled by the least whole factor (at most 4) that makes the line `targetHeight` high.
    init(_ line: Rect, of grey: GreyImage, besides lines: [Rect], targetHeight: Int) {
        self.init(line, of: grey, besides: lines, scale: min(4, max(1, (targetHeight + line.height - 1) / line.height)))
    }

    /// The crop scaled by `scale` (at least 1; a line read again for an IBAN may take 5).
    init(_ line: Rect, of grey: GreyImage, besides lines: [Rect], scale: Int) {
        self.line = line
        let padX = max(4, line.height / 3), padY = max(4, line.height / 2 + 2)
        let bounds = Rect(x: 0, y: 0, width: grey.width, height: grey.height)
        let padded = { (line: Rect) in
            Rect(x: line.x - padX, y: line.y - padY, width: line.width + 2 * padX, height: line.height + 2 * padY).intersection(bounds)
        }
        let background = Ink.background(grey, padded(line))
        self.background = background
        let crop = padded(Self.inkReach(of: line, in: grey, background: background))
        self.crop = crop
        self.scale = max(1, scale)
        var top = crop.y, bottom = crop.maxY
        var painted: [Rect] = []
        for other in lines where other != line && !other.intersection(crop).isEmpty {
            // Only the rows outside this line's own: lines that touch share a row or two.
            let above = Rect(x: other.x, y: other.y, width: other.width, height: min(other.maxY, line.y) - other.y)
            let below = Rect(x: other.x, y: max(other.y, line.maxY), width: other.width,
                             height: other.maxY - max(other.y, line.maxY))
            if above.height > 0, !above.intersection(crop).isEmpty {
                painted.append(above.intersection(crop))
                top = max(top, above.maxY)
            }
            if below.height > 0, !below.intersection(crop).isEmpty {
                painted.append(below.intersection(crop))
                bottom = min(bottom, below.y)
            }
        }
        reach = Rect(x: crop.x, y: top, width: crop.width, height: max(0, bottom - top))
        image = grey.crop(crop, scale: self.scale, invert: Ink.isLightOnDark(grey, crop, background: background),
                          blanking: painted, with: UInt8(clamping: background))
    }

    /// `line` widened to the glyphs just after it: a lone character after a space (the last
    /// character of a Swiss IBAN, "CH56 9235 1468 5366 3025 2", a "7" after a card number) makes
    /// too few stroke edges for the line finder, and would be left out of the crop and the cover.
    /// Ink is taken to the right while the gaps in it are at most one and a half times the
    /// line's height (as `TextLineFinder.joined` joins a line's pieces), in columns whose ink
    /// stays within the line's rows (give or take a quarter of its height): a table's border or
    /// a box's edge runs on above and below it. Ink that goes on for more than three heights is
    /// no lone glyph (the line finder left it out for a reason of its own): none is taken then.
    static func inkReach(of line: Rect, in grey: GreyImage, background: Int) -> Rect {
        let slack = max(1, line.height / 4)
        let top = max(0, line.y - slack - 1), bottom = min(grey.height, line.maxY + slack + 1)
        /// Whether column x holds ink in the line's rows; nil when it holds ink past them.
        func isGlyphColumn(_ x: Int) -> Bool? {
            var inLine = false
            for y in top..<bottom where Ink.isInk(grey[x, y], background: background) {
                if y < line.y - slack || y >= line.maxY + slack { return nil }
                inLine = true
            }
            return inLine
        }
        let start = line.maxX - 1
        var edge = start, gap = 0, x = line.maxX
        while x < grey.width, gap * 2 <= 3 * line.height {
            guard let glyph = isGlyphColumn(x) else { break }
            if glyph {
                // Ink three heights on is no lone glyph: the space after one may reach that far.
                guard x - start <= 3 * line.height else { return line }
                edge = x
                gap = 0
            } else {
                gap += 1
            }
            x += 1
        }
        return Rect(x: line.x, y: line.y, width: edge + 1 - line.x, height: line.height)
    }

    /// A box in the scaled crop's pixels as a box in the image's, rounded outwards.
    func place(_ rect: Rect) -> Rect {
        let x0 = crop.x + rect.x / scale, y0 = crop.y + rect.y / scale
        let x1 = crop.x + (rect.maxX + scale - 1) / scale, y1 = crop.y + (rect.maxY + scale - 1) / scale
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
