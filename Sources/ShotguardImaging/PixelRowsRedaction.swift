// Covers rectangles of pixel rows held elsewhere (an X image), one small copy per rectangle.

extension PixelRows {
    /// Covers `rect` (clipped to the rows) with `fill`, exactly as `PixelBuffer.redact` does. A
    /// solid fill is written in place; a mosaic needs the pixels, so the rectangle is copied
    /// out, covered there and copied back. Only the rectangle is touched either way.
    public func redact(_ rect: Rect, with fill: Fill) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        if case .solid(let rgb) = fill {
            let value = 0xFF00_0000 | (rgb & 0x00FF_FFFF)
            for row in 0..<area.height {
                let line = base + (area.y + row) * bytesPerRow + area.x * 4
                for column in 0..<area.width { line.storeBytes(of: value, toByteOffset: column * 4, as: UInt32.self) }
            }
            return
        }
        var patch = PixelBuffer(width: area.width, height: area.height)
        patch.pixels.withUnsafeMutableBufferPointer { buffer in
            for row in 0..<area.height {
                let line = base + (area.y + row) * bytesPerRow + area.x * 4
                for column in 0..<area.width {
                    buffer[row * area.width + column] = line.loadUnaligned(fromByteOffset: column * 4, as: UInt32.self) | 0xFF00_0000
                }
            }
        }
        patch.redact(patch.bounds, with: fill)
        patch.pixels.withUnsafeBytes { bytes in
            for row in 0..<area.height {
                let line = base + (area.y + row) * bytesPerRow + area.x * 4
                line.copyMemory(from: bytes.baseAddress! + row * area.width * 4, byteCount: area.width * 4)
            }
        }
    }
}

extension PixelBuffer {
    /// A copy of `rows` as an opaque buffer (the fourth byte, 0 from a depth-24 X server, set
    /// to 0xFF so the pixels equal those of a decoded opaque PNG).
    public init(copying rows: PixelRows) {
        let width = rows.width, height = rows.height
        let pixels = [UInt32](unsafeUninitializedCapacity: width * height) { buffer, count in
            for row in 0..<height {
                let line = UnsafeRawPointer(rows.base) + row * rows.bytesPerRow
                for column in 0..<width {
                    let pixel = line.loadUnaligned(fromByteOffset: column * 4, as: UInt32.self)
                    (buffer.baseAddress! + row * width + column).initialize(to: pixel | 0xFF00_0000)
                }
            }
            count = width * height
        }
        self.init(width: width, height: height, pixels: pixels, hasAlpha: false)
    }
}
