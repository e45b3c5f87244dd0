// Redaction covers every pixel of the clipped rectangle and nothing else.
import ShotguardImaging
import XCTest

final class RedactionTests: XCTestCase {
    private let original = TestData.screenshotLike(width: 97, height: 61)

    private func assertOnlyInside(_ rect: Rect, of image: PixelBuffer, equal expected: (Int, Int) -> UInt32,
                                  file: StaticString = #filePath, line: UInt = #line) {
        for y in 0..<image.height {
            for x in 0..<image.width {
                let want = rect.contains(x: x, y: y) ? expected(x, y) : original[x, y]
                if image[x, y] != want {
                    return XCTFail("pixel (\(x),\(y)) is \(image[x, y]), expected \(want)", file: file, line: line)
                }
            }
        }
    }

    func testSolidFillCoversEdgesIncluded() {
        var image = original
        let rect = Rect(x: 10, y: 20, width: 30, height: 5)
        image.redact(rect, with: .black)
        assertOnlyInside(rect, of: image) { _, _ in 0xFF00_0000 }
    }

    func testRectanglesAreClippedToTheImage() {
        var image = original
        image.redact(Rect(x: 90, y: -5, width: 40, height: 12), with: .solid(0xFF_0000))
        assertOnlyInside(Rect(x: 90, y: 0, width: 7, height: 7), of: image) { _, _ in 0xFFFF_0000 }
        var untouched = original
        untouched.redact(Rect(x: 200, y: 200, width: 5, height: 5), with: .black)
        XCTAssertEqual(untouched, original)
    }

    func testPixelateReplacesEachBlockWithItsMean() {
        var image = PixelBuffer(width: 8, height: 4, fill: 0xFF00_0000)
        image[0, 0] = 0xFFFF_FFFF
        image[5, 0] = 0xFF80_4020
        image.redact(Rect(x: 0, y: 0, width: 7, height: 2), with: .pixelate(blockSize: 4))
        // Block 0: 4x2 pixels, one white: mean 255/8 = 31 per channel.
        XCTAssertEqual(image[0, 0], 0xFF1F_1F1F)
        XCTAssertEqual(image[3, 1], 0xFF1F_1F1F)
        // Block 1 is 3x2 (clipped at the rectangle's edge): mean of one 0x804020 over 6 pixels.
        XCTAssertEqual(image[4, 0], 0xFF15_0A05)
        XCTAssertEqual(image[6, 1], 0xFF15_0A05)
        XCTAssertEqual(image[7, 0], 0xFF00_0000, "outside the rectangle")
        XCTAssertEqual(image[0, 2], 0xFF00_0000, "outside the rectangle")
    }

    func testPixelateLeavesNoOriginalPixelInsideTheRectangle() {
        var image = original
        let rect = Rect(x: 3, y: 4, width: 50, height: 33)
        image.redact(rect, with: .pixelate(blockSize: 8))
        for y in stride(from: rect.y, to: rect.maxY, by: 8) {
            for x in stride(from: rect.x, to: rect.maxX, by: 8) {
                let block = Rect(x: x, y: y, width: 8, height: 8).intersection(rect)
                let first = image[block.x, block.y]
                for by in block.y..<block.maxY {
                    for bx in block.x..<block.maxX { XCTAssertEqual(image[bx, by], first) }
                }
            }
        }
        assertOnlyInside(rect, of: image) { x, y in image[x, y] }
    }
}
