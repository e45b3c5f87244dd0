// Rows held elsewhere that covers can be put on: an X image's, or a PNG's bytes as it is decoded.

/// Pixel rows someone else owns, which a cover can be put on where they are (`StagedFills`).
public protocol CoverableRows {
    var bounds: Rect { get }
    /// Covers `rect` (clipped to the rows) with `fill`, exactly as `PixelBuffer.redact` does;
    /// the covered pixels become opaque.
    func redact(_ rect: Rect, with fill: Fill)
}

extension PixelRows: CoverableRows {}

/// Rows of R,G,B (or R,G,B,A) bytes, as a PNG's data holds them once unfiltered: a PNG being
/// rewritten is covered and encoded in the decoder's own rows, with no conversion to 32-bit
/// pixels and back.
public struct PNGByteRows: CoverableRows {
    /// The first byte of row 0's first pixel.
    public let base: UnsafeMutableRawPointer
    public let width: Int
    public let height: Int
    public let bytesPerRow: Int
    public let hasAlpha: Bool

    public init(base: UnsafeMutableRawPointer, width: Int, height: Int, bytesPerRow: Int, hasAlpha: Bool) {
        precondition(width > 0 && height > 0 && bytesPerRow >= width * (hasAlpha ? 4 : 3), "byte rows do not hold the size")
        self.base = base
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.hasAlpha = hasAlpha
    }

    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// Bytes per pixel: 3, or 4 with alpha.
    public var pixelBytes: Int { hasAlpha ? 4 : 3 }

    public func redact(_ rect: Rect, with fill: Fill) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        let step = pixelBytes
        if case .solid(let rgb) = fill {
            let pixel: [UInt8] = [UInt8(truncatingIfNeeded: rgb >> 16), UInt8(truncatingIfNeeded: rgb >> 8),
                                  UInt8(truncatingIfNeeded: rgb), 0xFF]
            for row in 0..<area.height {
                let line = (base + (area.y + row) * bytesPerRow + area.x * step).assumingMemoryBound(to: UInt8.self)
                for column in 0..<area.width {
                    for byte in 0..<step { line[column * step + byte] = pixel[byte] }
                }
            }
            return
        }
        // A mosaic reads its pixels: the rectangle is copied out as 32-bit pixels, covered
        // there as any image is, and copied back.
        var patch = PixelBuffer(width: area.width, height: area.height)
        patch.pixels.withUnsafeMutableBufferPointer { buffer in
            for row in 0..<area.height {
                let line = (base + (area.y + row) * bytesPerRow + area.x * step).assumingMemoryBound(to: UInt8.self)
                for column in 0..<area.width {
                    let pixel = line + column * step
                    buffer[row * area.width + column] =
                        0xFF00_0000 | UInt32(pixel[0]) << 16 | UInt32(pixel[1]) << 8 | UInt32(pixel[2])
                }
            }
        }
        patch.redact(patch.bounds, with: fill)
        for row in 0..<area.height {
            let line = (base + (area.y + row) * bytesPerRow + area.x * step).assumingMemoryBound(to: UInt8.self)
            for column in 0..<area.width {
                let value = patch.pixels[row * area.width + column]
                let pixel = line + column * step
                pixel[0] = UInt8(truncatingIfNeeded: value >> 16)
                pixel[1] = UInt8(truncatingIfNeeded: value >> 8)
                pixel[2] = UInt8(truncatingIfNeeded: value)
                if step == 4 { pixel[3] = 0xFF }
            }
        }
    }
}
