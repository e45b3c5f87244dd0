// Paeth-filtered rows of three- and four-byte pixels (what scrot and ImageMagick write most) decode exactly.
@testable import ShotguardImaging
import ShotguardTestSupport
import XCTest

final class PaethRowsTests: XCTestCase {
    /// The PNG spec's predictor, written plainly: the reference the decoder is held to.
    private func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c
        let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    /// Random pixels (each of the predictor's three choices and its ties come up), every row
    /// Paeth-filtered, in RGB and RGBA, one to 173 pixels wide: the fast decoder takes the file
    /// and gives back the exact pixels. (A fixed seed: a failure comes back the same.)
    func testPaethRowsDecodeToTheirExactPixels() throws {
        var generator = SplitMix64(seed: 0x5EED_9A37)
        for hasAlpha in [false, true] {
            for width in [1, 2, 5, 6, 173] {
                let height = 23, bpp = hasAlpha ? 4 : 3
                // Few values, so that ties between the predictor's distances are common.
                let raw = (0..<(width * height * bpp)).map { _ in [0, 1, 2, 127, 128, 254, 255].randomElement(using: &generator)! }
                var filtered: [UInt8] = []
                for y in 0..<height {
                    filtered.append(4)
                    for i in 0..<(width * bpp) {
                        let here = (y * width * bpp) + i
                        let a = i >= bpp ? raw[here - bpp] : 0
                        let b = y > 0 ? raw[here - width * bpp] : 0
                        let c = i >= bpp && y > 0 ? raw[here - width * bpp - bpp] : 0
                        filtered.append(UInt8((raw[here] - paeth(a, b, c) + 256) & 0xFF))
                    }
                }
                let png = TestData.storedPNG(width: width, height: height, hasAlpha: hasAlpha, rows: filtered)
                let header = try XCTUnwrap(FastPNGHeader(png), "the fast decoder takes 8-bit RGB and RGBA")
                let image = try XCTUnwrap(try PNGDecoder.fastDecode(png, probed: header, source: "paeth.png", limits: .standard))
                let expected = (0..<(width * height)).map { pixel in
                    let p = raw[(pixel * bpp)..<(pixel * bpp + bpp)].map(UInt32.init)
                    return (hasAlpha ? p[3] << 24 : 0xFF00_0000) | p[0] << 16 | p[1] << 8 | p[2]
                }
                XCTAssertEqual(image.pixels, expected, "\(width) px wide, alpha \(hasAlpha)")
            }
        }
    }
}
