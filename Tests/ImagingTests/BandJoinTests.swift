// Bands compressed apart and joined into one zlib stream decode (with libpng) to the same pixels.
import CShotguardPNG
import Foundation
import ShotguardBase
import ShotguardImaging
import XCTest

final class BandJoinTests: XCTestCase {
    /// Sizes that make edge cases: one row, one column, odd widths, bands of one row, a last
    /// band shorter than the others, and levels from stored (0) to slow (9).
    func testBandedImagesRoundTripThroughLibpng() throws {
        let cases: [(width: Int, height: Int, bandRows: Int)] = [
            (1, 1, 0), (7, 1, 0), (1, 9, 1), (33, 17, 1), (301, 203, 0), (301, 203, 7), (640, 480, 64), (257, 65, 13),
        ]
        for (width, height, bandRows) in cases {
            let image = TestData.screenshotLike(width: width, height: height)
            for level in [0, 1, 2, 6, 9] {
                for filter in [EncodeOptions.Filter.none, .sub, .up, .adaptive] {
                    let options = EncodeOptions(compressionLevel: level, filter: filter, bandRows: bandRows)
                    let png = try PNGEncoder.encode(image, options: options, destination: "m")
                    let decoded = try PNGDecoder.decode(png, source: "m")
                    XCTAssertEqual(decoded.pixels, image.pixels, "\(width)x\(height), bands of \(bandRows) rows, level \(level), \(filter)")
                }
            }
        }
    }

    func testAlphaImagesInBandsOfOneRowRoundTrip() throws {
        var image = TestData.screenshotLike(width: 45, height: 31)
        image.hasAlpha = true
        for index in image.pixels.indices { image.pixels[index] &= index % 3 == 0 ? 0x40FF_FFFF : 0xFFFF_FFFF }
        let png = try PNGEncoder.encode(image, options: EncodeOptions(compressionLevel: 1, filter: .adaptive, bandRows: 1), destination: "m")
        XCTAssertEqual(try PNGDecoder.decode(png, source: "m").pixels, image.pixels)
    }

    func testRowsWithPaddingAreReadInPlace() throws {
        // An X image's rows can be longer than the pixels they hold.
        let image = TestData.screenshotLike(width: 50, height: 40)
        let stride = 50 * 4 + 24
        let memory = UnsafeMutableRawPointer.allocate(byteCount: stride * 40, alignment: 16)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 0xEE, count: stride * 40)
        image.pixels.withUnsafeBytes { pixels in
            for row in 0..<40 { (memory + row * stride).copyMemory(from: pixels.baseAddress! + row * 200, byteCount: 200) }
        }
        let rows = PixelRows(base: memory, width: 50, height: 40, bytesPerRow: stride)
        let png = try PNGEncoder.encode(rows, options: EncodeOptions(compressionLevel: 1, filter: .none, bandRows: 3), destination: "m")
        XCTAssertEqual(try PNGDecoder.decode(png, source: "m").pixels, image.pixels)
        XCTAssertEqual(PixelBuffer(copying: rows), image)
    }

    func testRedactingRowsInPlaceMatchesRedactingABuffer() throws {
        var image = TestData.screenshotLike(width: 120, height: 90)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 480 * 90, alignment: 16)
        defer { memory.deallocate() }
        image.pixels.withUnsafeBytes { memory.copyMemory(from: $0.baseAddress!, byteCount: 480 * 90) }
        let rows = PixelRows(base: memory, width: 120, height: 90, bytesPerRow: 480)
        for (rect, fill) in [(Rect(x: 10, y: 5, width: 30, height: 20), Fill.black),
                             (Rect(x: 100, y: 70, width: 50, height: 50), Fill.pixelate(blockSize: 8))] {
            rows.redact(rect, with: fill)
            image.redact(rect, with: fill)
        }
        XCTAssertEqual(PixelBuffer(copying: rows), image)
    }

    func testRowsWrittenBandByBandToAFileDecodeToTheSamePixels() throws {
        let image = TestData.screenshotLike(width: 123, height: 77)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 123 * 4 * 77, alignment: 16)
        defer { memory.deallocate() }
        image.pixels.withUnsafeBytes { memory.copyMemory(from: $0.baseAddress!, byteCount: 123 * 4 * 77) }
        let rows = PixelRows(base: memory, width: 123, height: 77, bytesPerRow: 123 * 4)
        let path = NSTemporaryDirectory() + "/band-stream-\(getpid()).png"
        defer { unlink(path) }
        for bandRows in [0, 1, 10] {
            let options = EncodeOptions(compressionLevel: 1, filter: .adaptive, bandRows: bandRows)
            try FileIO.writeAtomically(to: path, failure: ImagingError.init) { (fd) throws(ImagingError) in
                try PNGEncoder.write(rows, options: options, to: fd, destination: path)
            }
            let png = try FileIO.read(path, limit: 1 << 20)
            XCTAssertEqual(try PNGDecoder.decode(png, source: path).pixels, image.pixels, "bands of \(bandRows) rows")
        }
    }

    func testAFailedWriteIsAnErrorThatNamesTheFile() {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 0x40, count: 64)
        let rows = PixelRows(base: memory, width: 4, height: 4, bytesPerRow: 16)
        XCTAssertThrowsError(try PNGEncoder.write(rows, to: -1, destination: "closed.png")) { error in
            XCTAssertTrue("\(error)".contains("closed.png"), "\(error)")
            XCTAssertTrue("\(error)".contains("cannot write"), "\(error)")
        }
    }

    func testUnfinishingAMalformedStreamFailsInsteadOfReadingPastIt() {
        var bytes: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0]
        var size = 0
        XCTAssertEqual(sg_deflate_unfinish(&bytes, 4, &size), -1)
    }
}
