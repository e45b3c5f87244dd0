// Test images and pixel-by-pixel checks of what `shotguard redact` wrote.
import ShotguardImaging
import XCTest

enum Pixels {
    /// An opaque image whose every pixel differs from its neighbours and whose channels stay in
    /// 0x40...0xBF, so no input pixel is black, #ff0000 or #00ff00 and a missed fill shows.
    static func screenshot(width: Int, height: Int) -> PixelBuffer {
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

    /// `image` with each rectangle painted with its opaque colour, in order, clipped.
    static func painted(_ image: PixelBuffer, _ covers: [(Rect, UInt32)]) -> PixelBuffer {
        var out = image
        for (rect, rgb) in covers {
            for y in max(0, rect.y)..<min(image.height, rect.maxY) {
                for x in max(0, rect.x)..<min(image.width, rect.maxX) { out[x, y] = 0xFF00_0000 | rgb }
            }
        }
        return out
    }
}

/// Asserts that `actual` has `expected`'s size and pixels, reporting the first few that differ.
func assertSamePixels(_ actual: PixelBuffer, _ expected: PixelBuffer,
                      file: StaticString = #filePath, line: UInt = #line) {
    guard actual.width == expected.width, actual.height == expected.height else {
        XCTFail("size \(actual.width)x\(actual.height), expected \(expected.width)x\(expected.height)",
                file: file, line: line)
        return
    }
    var wrong: [String] = []
    var count = 0
    for y in 0..<actual.height {
        for x in 0..<actual.width where actual[x, y] != expected[x, y] {
            count += 1
            if wrong.count < 5 { wrong.append("(\(x),\(y)) is \(hex(actual[x, y])), expected \(hex(expected[x, y]))") }
        }
    }
    XCTAssertEqual(count, 0, "pixels differ: " + wrong.joined(separator: "; "), file: file, line: line)
}

/// Asserts that `rect` of `actual` is a mosaic of `block`-pixel squares anchored at its corner,
/// each uniform, opaque, and within 1 per channel of the mean of `input` under it.
func assertPixelated(_ actual: PixelBuffer, from input: PixelBuffer, in rect: Rect, block: Int,
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

func hex(_ value: UInt32) -> String {
    let text = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: max(0, 8 - text.count)) + text
}
