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
    /// The bytes of memory from `base`: at least `bytesPerRow * (height - 1) + width * pixelBytes`.
    public let byteCount: Int
    public let width: Int
    public let height: Int
    public let bytesPerRow: Int
    public let hasAlpha: Bool

    /// The rows in `memory`, which starts at row 0's first pixel (its whole length is what may
    /// be read and written); throws `.bufferSize` when the rows do not fit in it or are closer
    /// together than `width` pixels.
    public init(_ memory: UnsafeMutableRawBufferPointer, width: Int, height: Int, bytesPerRow: Int,
                hasAlpha: Bool) throws(ImagingError) {
        guard let base = memory.baseAddress else {
            throw ImagingError(.bufferSize, source: "PNG rows", "no memory holds the \(width)x\(height) pixels")
        }
        try RowLayout.check(byteCount: memory.count, width: width, height: height, bytesPerRow: bytesPerRow,
                            pixelBytes: hasAlpha ? 4 : 3, what: "PNG rows")
        self.base = base
        self.byteCount = memory.count
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
