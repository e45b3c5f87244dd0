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

    init(_ line: Rect, of grey: GreyImage, besides lines: [Rect], targetHeight: Int) {
        self.line = line
        let padX = max(4, line.height / 3), padY = max(4, line.height / 2 + 2)
        let bounds = Rect(x: 0, y: 0, width: grey.width, height: grey.height)
        let crop = Rect(x: line.x - padX, y: line.y - padY, width: line.width + 2 * padX, height: line.height + 2 * padY)
            .intersection(bounds)
        self.crop = crop
        scale = min(4, max(1, (targetHeight + line.height - 1) / line.height))
        let background = Ink.background(grey, crop)
        self.background = background
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
        image = grey.crop(crop, scale: scale, invert: Ink.isLightOnDark(grey, crop, background: background),
                          blanking: painted, with: UInt8(clamping: background))
    }

    /// A box in the scaled crop's pixels as a box in the image's, rounded outwards.
    func place(_ rect: Rect) -> Rect {
        let x0 = crop.x + rect.x / scale, y0 = crop.y + rect.y / scale
        let x1 = crop.x + (rect.maxX + scale - 1) / scale, y1 = crop.y + (rect.maxY + scale - 1) / scale
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
