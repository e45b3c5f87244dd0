// A GIF's pixels as palette indices: the original's palette kept, grown, or a new one quantised.
import CShotguardGIF

/// An image as a GIF holds it: up to 256 colours and one index per pixel.
struct GIFPalette {
    /// 0xRRGGBB values, a power of two of them (GIF's tables are), 2 to 256.
    let palette: [UInt32]
    let indices: [UInt8]
    let transparentIndex: Int?

    /// The pixels of `image` over `options.palette`: exact where a colour is there, added while
    /// there is room, the palette's nearest colour beyond. Without a palette, the image's own
    /// colours, or giflib's median cut when there are more than 256.
    static func index(_ image: PixelBuffer, options: GIFOptions, destination: String) throws(ImagingError) -> GIFPalette {
        let isTransparent = { (pixel: UInt32) in image.hasAlpha && pixel >> 24 < 0x80 }
        let anyTransparent = image.hasAlpha && image.pixels.contains(where: isTransparent)
        var palette = Array(options.palette.prefix(256)).map { $0 & 0xFF_FFFF }
        var transparent = anyTransparent ? options.transparentIndex.flatMap { $0 < palette.count ? $0 : nil } : nil
        var lookup: [UInt32: UInt8] = [:]
        for (index, colour) in palette.enumerated() where index != transparent && lookup[colour] == nil {
            lookup[colour] = UInt8(index)
        }
        var missing: [UInt32] = []
        var seen = Set<UInt32>()
        for pixel in image.pixels where !isTransparent(pixel) {
            let colour = pixel & 0xFF_FFFF
            if lookup[colour] == nil, seen.insert(colour).inserted { missing.append(colour) }
        }
        let slots = anyTransparent && transparent == nil ? 1 : 0
        if palette.isEmpty, missing.count + slots > 256 {
            return try quantised(image, destination: destination)
        }
        if palette.count + missing.count + slots <= 256 {
            for colour in missing {
                lookup[colour] = UInt8(palette.count)
                palette.append(colour)
            }
        } else {
            // Re-quantised against the original palette: each new colour becomes its nearest.
            let candidates = palette.enumerated().filter { $0.offset != transparent }
            for colour in missing {
                lookup[colour] = UInt8(candidates.min { distance($0.element, colour) < distance($1.element, colour) }?.offset ?? 0)
            }
        }
        // A transparent entry where there is room; without room, transparent pixels take their nearest colour.
        if slots == 1, transparent == nil, palette.count < 256 {
            transparent = palette.count
            palette.append(0)
        }
        let indices = image.pixels.map { pixel -> UInt8 in
            if isTransparent(pixel), let transparent { return UInt8(transparent) }
            return lookup[pixel & 0xFF_FFFF] ?? nearest(pixel & 0xFF_FFFF, in: palette, skipping: transparent)
        }
        return GIFPalette(palette: padded(palette), indices: indices, transparentIndex: transparent)
    }

    /// A new palette for an image of many colours: giflib's median cut (GifQuantizeBuffer),
    /// alpha dropped.
    private static func quantised(_ image: PixelBuffer, destination: String) throws(ImagingError) -> GIFPalette {
        let count = image.pixels.count
        var red = image.pixels.map { UInt8($0 >> 16 & 0xFF) }
        var green = image.pixels.map { UInt8($0 >> 8 & 0xFF) }
        var blue = image.pixels.map { UInt8($0 & 0xFF) }
        var indices = [UInt8](repeating: 0, count: count)
        var colours = [GifColorType](repeating: GifColorType(), count: 256)
        var size: Int32 = 256
        guard GifQuantizeBuffer(UInt32(image.width), UInt32(image.height), &size, &red, &green, &blue, &indices, &colours) == GIF_OK,
              (1...256).contains(size) else {
            throw ImagingError(.encode, source: destination, "cannot reduce a \(image.width)x\(image.height) image to 256 colours")
        }
        let palette = colours.prefix(Int(size)).map { UInt32($0.Red) << 16 | UInt32($0.Green) << 8 | UInt32($0.Blue) }
        return GIFPalette(palette: padded(palette), indices: indices, transparentIndex: nil)
    }

    private static func padded(_ palette: [UInt32]) -> [UInt32] {
        var size = 2
        while size < palette.count { size *= 2 }
        return palette + [UInt32](repeating: 0, count: size - palette.count)
    }

    private static func nearest(_ colour: UInt32, in palette: [UInt32], skipping: Int?) -> UInt8 {
        var best = (index: 0, distance: Int.max)
        for (index, candidate) in palette.enumerated() where index != skipping {
            let d = distance(candidate, colour)
            if d < best.distance { best = (index, d) }
        }
        return UInt8(best.index)
    }

    /// Squared distance in RGB.
    static func distance(_ a: UInt32, _ b: UInt32) -> Int {
        let dr = Int(a >> 16 & 0xFF) - Int(b >> 16 & 0xFF), dg = Int(a >> 8 & 0xFF) - Int(b >> 8 & 0xFF), db = Int(a & 0xFF) - Int(b & 0xFF)
        return dr * dr + dg * dg + db * db
    }
}
