// An 8-bit grey image: what the line finder and Tesseract read, made from a screenshot's pixels.
import ShotguardImaging

/// Luminance, one byte per pixel, rows without padding.
struct GreyImage {
    let width: Int
    let height: Int
    var pixels: [UInt8]

    init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height)
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The luminance of `image` (ITU-R BT.601 weights, in eighths of a percent).
    init(_ image: PixelBuffer) {
        width = image.width
        height = image.height
        pixels = [UInt8](unsafeUninitializedCapacity: image.width * image.height) { buffer, count in
            image.pixels.withUnsafeBufferPointer { source in
                for index in 0..<source.count {
                    let pixel = source[index]
                    let red = (pixel >> 16) & 0xFF, green = (pixel >> 8) & 0xFF, blue = pixel & 0xFF
                    buffer[index] = UInt8(truncatingIfNeeded: (red * 77 + green * 150 + blue * 29) >> 8)
                }
            }
            count = image.width * image.height
        }
    }

    subscript(x: Int, y: Int) -> UInt8 { pixels[y * width + x] }

    /// `rect` (inside the image) scaled by `scale` with bilinear interpolation, inverted when
    /// `invert`, with the parts of it in `blanking` (image coordinates) set to `value` first:
    /// what Tesseract reads of one line.
    func crop(_ rect: Rect, scale: Int, invert: Bool, blanking: [Rect] = [], with value: UInt8 = 0) -> GreyImage {
        let outWidth = rect.width * scale, outHeight = rect.height * scale
        var out = [UInt8](repeating: 0, count: outWidth * outHeight)
        pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for y in 0..<outHeight {
                    // Sample centres: (y + 0.5) / scale - 0.5, in 1/256ths.
                    let sourceY = max(0, ((2 * y + 1) * 128) / scale - 128)
                    let y0 = min(rect.y + sourceY >> 8, rect.maxY - 1), y1 = min(y0 + 1, rect.maxY - 1)
                    let fy = sourceY & 0xFF
                    for x in 0..<outWidth {
                        let sourceX = max(0, ((2 * x + 1) * 128) / scale - 128)
                        let x0 = min(rect.x + sourceX >> 8, rect.maxX - 1), x1 = min(x0 + 1, rect.maxX - 1)
                        let fx = sourceX & 0xFF
                        let top = Int(source[y0 * width + x0]) * (256 - fx) + Int(source[y0 * width + x1]) * fx
                        let bottom = Int(source[y1 * width + x0]) * (256 - fx) + Int(source[y1 * width + x1]) * fx
                        let value = (top * (256 - fy) + bottom * fy) >> 16
                        target[y * outWidth + x] = UInt8(invert ? 255 - value : value)
                    }
                }
            }
        }
        let painted = invert ? 255 - value : value
        for blank in blanking {
            let area = blank.intersection(rect)
            guard !area.isEmpty else { continue }
            for y in ((area.y - rect.y) * scale)..<((area.maxY - rect.y) * scale) {
                let row = y * outWidth
                for x in ((area.x - rect.x) * scale)..<((area.maxX - rect.x) * scale) { out[row + x] = painted }
            }
        }
        return GreyImage(width: outWidth, height: outHeight, pixels: out)
    }
}
