// Labels drawn with the built-in bitmap font: any character, never a trap.
import ShotguardImaging
import XCTest

final class BitmapFontTests: XCTestCase {
    /// "ß".uppercased() is "SS", two characters: building one Character from it trapped.
    func testCharactersWhoseCapitalIsTwoLettersDrawAsUnknown() {
        var image = PixelBuffer(width: 40, height: 10)
        var unknown = PixelBuffer(width: 40, height: 10)
        image.draw("ß ŉ ﬀ", x: 1, y: 1, colour: 0xFFFFFF)
        unknown.draw("? ? ?", x: 1, y: 1, colour: 0xFFFFFF)
        XCTAssertEqual(image.pixels, unknown.pixels)
    }

    func testLowerCaseDrawsAsCapitals() {
        var lower = PixelBuffer(width: 40, height: 10)
        var upper = PixelBuffer(width: 40, height: 10)
        lower.draw("line 7", x: 0, y: 0, colour: 0xFF0000)
        upper.draw("LINE 7", x: 0, y: 0, colour: 0xFF0000)
        XCTAssertEqual(lower.pixels, upper.pixels)
        XCTAssertNotEqual(lower.pixels, PixelBuffer(width: 40, height: 10).pixels)
    }
}
