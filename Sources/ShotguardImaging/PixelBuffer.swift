// The in-memory image: 32-bit pixels laid out as an X ZPixmap on a little-endian machine.

/// An image of 32-bit pixels, row by row with no padding. In memory each pixel is the bytes
/// B, G, R, X (or A), so a `UInt32` reads `0xXXRRGGBB`. This is the layout of an X `ZPixmap`
/// at depth 24 or 32, so a capture lands here with one copy and encodes with none.
public struct PixelBuffer: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Whether the fourth byte is meaningful alpha (a PNG with transparency); otherwise it is
    /// 0xFF and not written out.
    public var hasAlpha: Bool
    /// The pixels, `width * height` of them, always: a change that alters their count stops
    /// the process before the buffer reaches C code that trusts its size. Changed in place
    /// (`_modify`), never copied for a write.
    public var pixels: [UInt32] {
        get { storage }
        _modify {
            yield &storage
            precondition(storage.count == width * height, "a pixel buffer's pixels no longer match its size")
        }
    }
    private var storage: [UInt32]

    /// A buffer filled with one 0xAARRGGBB value.
    public init(width: Int, height: Int, fill: UInt32 = 0xFF00_0000, hasAlpha: Bool = false) {
        self.width = width
        self.height = height
        self.hasAlpha = hasAlpha
        self.storage = [UInt32](repeating: fill, count: width * height)
    }

    /// Wraps pixels already laid out row by row; `pixels.count` must be `width * height`.
    public init(width: Int, height: Int, pixels: [UInt32], hasAlpha: Bool) {
        precondition(pixels.count == width * height, "pixel count does not match the size")
        self.width = width
        self.height = height
        self.hasAlpha = hasAlpha
        self.storage = pixels
    }

    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    public subscript(x: Int, y: Int) -> UInt32 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    /// The 0xRRGGBB part of the pixel at (x, y).
    public func rgb(x: Int, y: Int) -> UInt32 { self[x, y] & 0x00FF_FFFF }

    /// A copy of the part of this image inside `rect` (clipped to the image).
    public func cropped(to rect: Rect) -> PixelBuffer {
        let area = rect.intersection(bounds)
        var out = [UInt32]()
        out.reserveCapacity(area.area)
        for row in area.y..<area.maxY {
            let start = row * width + area.x
            out.append(contentsOf: pixels[start..<(start + area.width)])
        }
        return PixelBuffer(width: area.width, height: area.height, pixels: out, hasAlpha: hasAlpha)
    }
}
