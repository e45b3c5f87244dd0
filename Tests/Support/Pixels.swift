// Test images of known pixels, and pixel-by-pixel checks of what a capture or a redaction gave.
import ShotguardImaging
import XCTest

public enum Pixels {
    /// Pseudo-random pixels (xorshift from `seed`): every row differs from every other, as on a
    /// busy screen; the channels stay within `mask` above 0x20.
    public static func noise(width: Int, height: Int, seed: UInt32, mask: UInt32 = 0x7F7F7F) -> PixelBuffer {
        var image = PixelBuffer(width: width, height: height)
        var state = seed &* 2_654_435_761 | 1
        for y in 0..<height {
            for x in 0..<width {
                state ^= state << 13
                state ^= state >> 17
                state ^= state << 5
                image[x, y] = 0xFF00_0000 | (state & mask) | 0x202020
            }
        }
        return image
    }

    /// An opaque image whose every pixel differs from its neighbours and whose channels stay in
    /// 0x40...0xBF, so no pixel is black, white, #ff0000 or #00ff00 and a missed fill or a
    /// capture one pixel off shows. The input of redact tests and the test desktops' wallpaper.
    public static func screenshot(width: Int, height: Int) -> PixelBuffer {
        var image = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let red = 0x40 + UInt32((x * 5 + y) % 0x80)
                let green = 0x40 + UInt32((y * 3 + x / 4) % 0x80)
                let blue = 0x40 + UInt32(((x ^ y) * 11) % 0x80)
                image[x, y] = 0xFF00_0000 | red << 16 | green << 8 | blue
            }
        }
        return image
    }

    /// A window's content: four quadrants of `colours` (top-left, top-right, bottom-left,
    /// bottom-right, each 0xRRGGBB), so a flipped or shifted capture shows.
    public static func quadrants(width: Int, height: Int, _ colours: [UInt32]) -> PixelBuffer {
        var image = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                image[x, y] = 0xFF00_0000 | colours[(y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1)]
            }
        }
        return image
    }

    /// `image` with each rectangle painted with its opaque colour (0xRRGGBB), in order, clipped.
    public static func painted(_ image: PixelBuffer, _ covers: [(Rect, UInt32)]) -> PixelBuffer {
        var out = image
        for (rect, rgb) in covers {
            for y in max(0, rect.y)..<min(image.height, rect.maxY) {
                for x in max(0, rect.x)..<min(image.width, rect.maxX) { out[x, y] = 0xFF00_0000 | rgb }
            }
        }
        return out
    }

    /// Covers given in screen coordinates, clipped to `area` of the screen and moved to the
    /// coordinates of an image of it; those outside it are left out.
    public static func covers(_ covers: [(Rect, UInt32)], inImageAt area: Rect) -> [(Rect, UInt32)] {
        covers.compactMap { rect, rgb in
            let moved = rect.intersection(area).offsetBy(dx: -area.x, dy: -area.y)
            return moved.isEmpty ? nil : (moved, rgb)
        }
    }

    /// `screen` with each window's content drawn at its frame, in order (bottom first), clipped.
    public static func composed(_ screen: PixelBuffer, _ windows: [(frame: Rect, content: PixelBuffer)]) -> PixelBuffer {
        var out = screen
        for (frame, content) in windows {
            for y in max(0, frame.y)..<min(out.height, frame.maxY) {
                for x in max(0, frame.x)..<min(out.width, frame.maxX) { out[x, y] = content[x - frame.x, y - frame.y] }
            }
        }
        return out
    }
}

/// Asserts that `actual` has `expected`'s size and pixels, reporting the first few that differ.
public func assertSamePixels(_ actual: PixelBuffer, _ expected: PixelBuffer, _ message: String = "",
                             file: StaticString = #filePath, line: UInt = #line) {
    assertSame(actual, expected, mask: 0xFFFF_FFFF, message, file: file, line: line)
}

/// Asserts that `actual` has `expected`'s size and the same 0xRRGGBB everywhere, naming the
/// first pixels that differ (the fourth byte is padding in a depth-24 capture, not a colour).
public func assertSameColours(_ actual: PixelBuffer, _ expected: PixelBuffer, _ message: String = "",
                              file: StaticString = #filePath, line: UInt = #line) {
    assertSame(actual, expected, mask: 0x00FF_FFFF, message, file: file, line: line)
}

private func assertSame(_ actual: PixelBuffer, _ expected: PixelBuffer, mask: UInt32, _ message: String,
                        file: StaticString, line: UInt) {
    let prefix = message.isEmpty ? "" : message + ": "
    guard actual.width == expected.width, actual.height == expected.height else {
        XCTFail("\(prefix)size \(actual.width)x\(actual.height), expected \(expected.width)x\(expected.height)",
                file: file, line: line)
        return
    }
    var wrong: [String] = []
    var count = 0
    for y in 0..<actual.height {
        for x in 0..<actual.width where actual[x, y] & mask != expected[x, y] & mask {
            count += 1
            if wrong.count < 5 {
                wrong.append("(\(x),\(y)) is \(hex(actual[x, y] & mask)), expected \(hex(expected[x, y] & mask))")
            }
        }
    }
    XCTAssertEqual(count, 0, "\(prefix)pixels differ: " + wrong.joined(separator: "; "), file: file, line: line)
}

/// Asserts that `rect` of `actual` is a mosaic of `block`-pixel squares anchored at its corner,
/// each uniform, opaque, and within 1 per channel of the mean of `input` under it.
public func assertPixelated(_ actual: PixelBuffer, from input: PixelBuffer, in rect: Rect, block: Int,
                            file: StaticString = #filePath, line: UInt = #line) {
    for top in stride(from: rect.y, to: rect.maxY, by: block) {
        for left in stride(from: rect.x, to: rect.maxX, by: block) {
            let cell = Rect(x: left, y: top, width: block, height: block).intersection(rect)
            let value = actual[left, top]
            var sums = [0, 0, 0]
            for y in cell.y..<cell.maxY {
                for x in cell.x..<cell.maxX {
                    if actual[x, y] != value {
                        XCTFail("block at (\(left),\(top)) not uniform at (\(x),\(y))", file: file, line: line)
                        return
                    }
                    for (index, shift) in [16, 8, 0].enumerated() {
                        sums[index] += Int((input[x, y] >> UInt32(shift)) & 0xFF)
                    }
                }
            }
            XCTAssertEqual(value >> 24, 0xFF, "block at (\(left),\(top)) is opaque", file: file, line: line)
            for (index, shift) in [16, 8, 0].enumerated() {
                let mean = Double(sums[index]) / Double(cell.area)
                let got = Double((value >> UInt32(shift)) & 0xFF)
                XCTAssertLessThanOrEqual(abs(got - mean), 1,
                                         "block at (\(left),\(top)) channel \(index): \(got), mean \(mean)",
                                         file: file, line: line)
            }
        }
    }
}

/// Asserts that `image`, showing `origin` of the screen, equals `screen` there except inside
/// each expected rectangle (screen coordinates), where every pixel is the fill (0xRRGGBB).
public func assertRedacted(_ image: PixelBuffer?, origin: Rect, screen: PixelBuffer, expected: [(rect: Rect, fill: UInt32)],
                           file: StaticString = #filePath, line: UInt = #line) {
    guard let image else { return XCTFail("there is no image", file: file, line: line) }
    XCTAssertEqual(image.width, origin.width, file: file, line: line)
    XCTAssertEqual(image.height, origin.height, file: file, line: line)
    var failures = 0
    for y in 0..<min(image.height, origin.height) {
        for x in 0..<min(image.width, origin.width) {
            let (sx, sy) = (origin.x + x, origin.y + y)
            let fill = expected.first { $0.rect.contains(x: sx, y: sy) }?.fill
            let want = fill ?? (screen[sx, sy] & 0xFF_FFFF)
            if image[x, y] & 0xFF_FFFF != want {
                failures += 1
                if failures <= 3 {
                    XCTFail("pixel (\(x),\(y)) at screen (\(sx),\(sy)) is \(hex(image[x, y] & 0xFF_FFFF)), "
                        + "expected \(hex(want))\(fill == nil ? "" : " (the fill)")", file: file, line: line)
                }
            }
        }
    }
    XCTAssertEqual(failures, 0, "pixels differ", file: file, line: line)
}

/// `value` as `0x` and eight hex digits.
public func hex(_ value: UInt32) -> String {
    let text = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: max(0, 8 - text.count)) + text
}
