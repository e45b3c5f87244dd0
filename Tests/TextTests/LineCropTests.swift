// What a line's crop takes in beside the candidate the line finder gave: lone glyphs, not borders.
import ShotguardImaging
@testable import ShotguardText
import XCTest

final class LineCropTests: XCTestCase {
    /// A white image with black rectangles of ink.
    private func image(width: Int = 220, height: Int = 40, ink: [Rect]) -> GreyImage {
        var pixels = [UInt8](repeating: 255, count: width * height)
        for rect in ink {
            for y in rect.y..<rect.maxY {
                for x in rect.x..<rect.maxX { pixels[y * width + x] = 0 }
            }
        }
        return GreyImage(width: width, height: height, pixels: pixels)
    }

    private let line = Rect(x: 10, y: 15, width: 80, height: 12)
    private let strokes = (0..<20).map { Rect(x: 10 + $0 * 4, y: 15, width: 2, height: 12) }

    /// The last character of "CH56 9235 1468 5366 3025 2", a space after the line, is read with it.
    func testALoneGlyphAfterASpaceIsInTheCrop() {
        let grey = image(ink: strokes + [Rect(x: 100, y: 16, width: 6, height: 10)])
        XCTAssertEqual(LineCrop.inkReach(of: line, in: grey, background: 255), Rect(x: 10, y: 15, width: 96, height: 12))
        // A space and a half away (a monospaced font's wide space), its own space after it.
        let further = image(ink: strokes + [Rect(x: 107, y: 16, width: 6, height: 10)])
        XCTAssertEqual(LineCrop.inkReach(of: line, in: further, background: 255).maxX, 113)
        let crop = LineCrop(line, of: grey, besides: [line], targetHeight: 24)
        XCTAssertGreaterThanOrEqual(crop.crop.maxX, 106)
        XCTAssertGreaterThanOrEqual(crop.reach.maxX, 106, "a cover may grow over it")
    }

    /// A table's border beside the line runs above and below it: no glyph, so the crop stops
    /// before it, as it does before ink further than a line's gap.
    func testABorderOrFarInkIsNotTakenIn() {
        let border = image(ink: strokes + [Rect(x: 100, y: 16, width: 6, height: 10), Rect(x: 110, y: 0, width: 1, height: 40)])
        XCTAssertEqual(LineCrop.inkReach(of: line, in: border, background: 255).maxX, 106)
        let far = image(ink: strokes + [Rect(x: 120, y: 16, width: 6, height: 10)])
        XCTAssertEqual(LineCrop.inkReach(of: line, in: far, background: 255), line)
        let left = image(ink: strokes + [Rect(x: 4, y: 16, width: 2, height: 10)])
        XCTAssertEqual(LineCrop.inkReach(of: line, in: left, background: 255), line, "only after the line")
        // Ink that goes on past three heights is a word or more the line finder left out.
        let word = image(ink: strokes + (0..<10).map { Rect(x: 96 + $0 * 5, y: 16, width: 2, height: 10) })
        XCTAssertEqual(LineCrop.inkReach(of: line, in: word, background: 255), line)
    }
}
