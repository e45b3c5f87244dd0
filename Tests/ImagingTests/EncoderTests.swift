// The encoder writes RGB or RGBA straight from the 32-bit buffer, and nothing but IHDR/IDAT/IEND.
import ShotguardImaging
import XCTest

final class EncoderTests: XCTestCase {
    func testScreenshotRoundTripsExactlyAtEveryLevel() throws {
        let image = TestData.screenshotLike(width: 301, height: 203)
        for level in [0, 1, 6, 9] {
            let options = EncodeOptions(compressionLevel: level, filter: .none)
            let decoded = try PNGDecoder.decode(try PNGEncoder.encode(image, options: options, destination: "m"), source: "m")
            XCTAssertEqual(decoded.width, 301)
            XCTAssertEqual(decoded.height, 203)
            XCTAssertEqual(decoded.pixels, image.pixels, "level \(level)")
        }
    }

    func testOpaqueImagesAreWrittenAsRGBAndTheirPadByteIsDropped() throws {
        // X servers leave the fourth byte of a depth-24 pixel as 0: it must not become alpha.
        var image = PixelBuffer(width: 4, height: 2, fill: 0x0011_2233)
        image[3, 1] = 0x00AB_CDEF
        let png = try PNGEncoder.encode(image, destination: "m")
        XCTAssertEqual(png[25], 2, "colour type RGB")
        let decoded = try PNGDecoder.decode(png, source: "m")
        XCTAssertFalse(decoded.hasAlpha)
        XCTAssertEqual(decoded[0, 0], 0xFF11_2233)
        XCTAssertEqual(decoded[3, 1], 0xFFAB_CDEF)
    }

    func testImagesWithAlphaKeepIt() throws {
        var image = PixelBuffer(width: 2, height: 2, fill: 0x8011_2233, hasAlpha: true)
        image[1, 1] = 0x0000_0000
        let png = try PNGEncoder.encode(image, destination: "m")
        XCTAssertEqual(png[25], 6, "colour type RGBA")
        XCTAssertEqual(try PNGDecoder.decode(png, source: "m").pixels, image.pixels)
    }

    func testOnlyCriticalChunksAreWritten() throws {
        // tEXt, tIME, gAMA... in the input never reach the output.
        let input = try TestData.bytes(TestData.data.appendingPathComponent("pngsuite/basn2c08.png"))
        let png = try PNGEncoder.encode(try PNGDecoder.decode(input, source: "in"), destination: "m")
        var types: [String] = []
        _ = try png.withUnsafeBytes { bytes throws(ImagingError) in
            try PNGChunks.forEach(in: bytes, source: "m") { types.append($0.type) }
        }
        XCTAssertEqual(Set(types), ["IHDR", "IDAT", "IEND"])
    }

    func testEveryFilterRoundTrips() throws {
        let image = TestData.screenshotLike(width: 64, height: 300)
        for filter in [EncodeOptions.Filter.none, .sub, .up] {
            let png = try PNGEncoder.encode(image, options: EncodeOptions(compressionLevel: 1, filter: filter), destination: "m")
            XCTAssertEqual(try PNGDecoder.decode(png, source: "m").pixels, image.pixels)
        }
    }
}
