// Covers rectangles of an image in place: solid fills and block mosaics.

extension PixelBuffer {
    /// Covers `rect` (clipped to the image) with `fill`. Every pixel of the clipped rectangle is
    /// written, its edges included, and becomes opaque so the cover shows in any viewer.
    public mutating func redact(_ rect: Rect, with fill: Fill) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        switch fill {
        case .solid(let rgb):
            fillSolid(area, value: 0xFF00_0000 | (rgb & 0x00FF_FFFF))
        case .pixelate(let blockSize):
            pixelate(area, blockSize: max(2, blockSize))
        }
    }

    private mutating func fillSolid(_ area: Rect, value: UInt32) {
        let stride = width
        pixels.withUnsafeMutableBufferPointer { buffer in
            for row in area.y..<area.maxY {
                let start = row * stride + area.x
                buffer[start..<(start + area.width)].update(repeating: value)
            }
        }
    }

    /// Blocks start at the rectangle's corner, so the mosaic depends only on what is inside it;
    /// each block takes the mean colour of its pixels.
    private mutating func pixelate(_ area: Rect, blockSize: Int) {
        let stride = width
        pixels.withUnsafeMutableBufferPointer { buffer in
            for top in Swift.stride(from: area.y, to: area.maxY, by: blockSize) {
                let bottom = min(top + blockSize, area.maxY)
                for left in Swift.stride(from: area.x, to: area.maxX, by: blockSize) {
                    let right = min(left + blockSize, area.maxX)
                    var red = 0, green = 0, blue = 0
                    for row in top..<bottom {
                        for column in left..<right {
                            let pixel = buffer[row * stride + column]
                            red += Int((pixel >> 16) & 0xFF)
                            green += Int((pixel >> 8) & 0xFF)
                            blue += Int(pixel & 0xFF)
                        }
                    }
                    let count = (bottom - top) * (right - left)
                    let mean = 0xFF00_0000 | UInt32(red / count) << 16 | UInt32(green / count) << 8 | UInt32(blue / count)
                    for row in top..<bottom {
                        let start = row * stride
                        buffer[(start + left)..<(start + right)].update(repeating: mean)
                    }
                }
            }
        }
    }
}
