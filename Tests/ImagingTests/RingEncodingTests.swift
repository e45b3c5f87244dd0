// Rows through a ring of strips, rows as a PNG's bytes, and the filter chosen per band: each gives
// the PNG of the rows encoded whole, and what libpng reads back.
import CShotguardPNG
import Foundation
import ShotguardBase
import ShotguardImaging
import XCTest

final class RingEncodingTests: XCTestCase {
    /// Writes `body`'s PNG to a temporary file and returns its bytes.
    private func written(_ body: (Int32) throws -> Void) throws -> [UInt8] {
        let path = NSTemporaryDirectory() + "ring-\(UUID().uuidString).png"
        defer { unlink(path) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        try body(fd)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Streams `image` through a ring of `ringRows` rows in strips of `strip` rows, each strip
    /// copied in only once `reserve` allows it: a worker that read a row after a strip took its
    /// place would put that strip's pixels in the PNG.
    private func throughRing(_ image: PixelBuffer, ringRows: Int, strip: Int, covers: [Cover] = [],
                             options: EncodeOptions) throws -> [UInt8] {
        var ring = [UInt32](repeating: 0xFFDE_ADBE, count: image.width * ringRows)
        return try ring.withUnsafeMutableBytes { bytes in
            let rows = try PixelRows(bytes, width: image.width, height: ringRows, bytesPerRow: image.width * 4)
            return try written { fd in
                let writer = try PNGStreamWriter(ring: rows, height: image.height, covers: covers, options: options, to: fd,
                                                 destination: "ring")
                for start in stride(from: 0, to: image.height, by: strip) {
                    let end = min(start + strip, image.height)
                    XCTAssertTrue(writer.reserve(until: end), "rows up to \(end)")
                    image.pixels.withUnsafeBytes { pixels in
                        (rows.base + (start % ringRows) * rows.bytesPerRow).copyMemory(
                            from: pixels.baseAddress! + start * image.width * 4, byteCount: (end - start) * image.width * 4)
                    }
                    writer.ringArrived(start..<end)
                }
                try writer.finish()
            }
        }
    }

    func testRowsThroughARingGiveTheSamePNGAsWholeRows() throws {
        let image = TestData.screenshotLike(width: 1920, height: 1080)
        for bandRows in [0, 7] {
            let options = EncodeOptions(compressionLevel: 1, filter: .adaptive, bandRows: bandRows)
            let whole = try written { fd in try PNGEncoder.write(image, options: options, to: fd, destination: "whole") }
            let besides = PNGStreamWriter.ringRowsBesidesStrip(width: 1920, height: 1080, options: options)
            for strip in [8, 34, 100] {
                let ringRows = strip * max(2, (strip + besides + strip - 1) / strip)
                XCTAssertEqual(try throughRing(image, ringRows: ringRows, strip: strip, options: options), whole,
                               "bands of \(bandRows) rows, strips of \(strip) through a ring of \(ringRows)")
            }
        }
    }

    func testARingPutsSolidCoversOnEachStripAsItArrives() throws {
        let image = TestData.screenshotLike(width: 300, height: 400)
        let covers: [Cover] = [(rect: Rect(x: 20, y: 30, width: 100, height: 200), fill: .black),
                               (rect: Rect(x: 60, y: 150, width: 400, height: 300), fill: .solid(0x336699))]
        var expected = image
        for cover in covers { expected.redact(cover.rect, with: cover.fill) }
        let options = EncodeOptions(compressionLevel: 1, filter: .adaptive, bandRows: 5)
        let png = try throughRing(image, ringRows: 48, strip: 16, covers: covers, options: options)
        XCTAssertEqual(try PNGDecoder.decode(png, source: "ring"), expected)
    }

    /// A strip taller than the ring holds beside a band is refused, not waited for forever;
    /// finishing before every row came is an error, not a PNG of stale rows.
    func testARingRefusesAStripItCannotHoldAndAnEarlyFinish() throws {
        var ring = [UInt32](repeating: 0, count: 64 * 20)
        try ring.withUnsafeMutableBytes { bytes in
            let rows = try PixelRows(bytes, width: 64, height: 20, bytesPerRow: 64 * 4)
            _ = try written { fd in
                let writer = try PNGStreamWriter(ring: rows, height: 100, options: EncodeOptions(compressionLevel: 1, filter: .adaptive,
                                                                                                   bandRows: 6), to: fd, destination: "ring")
                XCTAssertFalse(writer.reserve(until: 14), "14 rows and a band of 6 with the row above need 21")
                XCTAssertTrue(writer.reserve(until: 13))
                writer.ringArrived(0..<10)
                XCTAssertThrowsError(try writer.finish(), "90 rows never came")
            }
        }
        var small = [UInt32](repeating: 0, count: 64)
        try small.withUnsafeMutableBytes { bytes in
            let rows = try PixelRows(bytes, width: 8, height: 8, bytesPerRow: 32)
            XCTAssertThrowsError(try written { fd in
                _ = try PNGStreamWriter(ring: rows, height: 100, options: EncodeOptions(compressionLevel: 1, filter: .adaptive, bandRows: 7),
                                        to: fd, destination: "small")
            }, "a ring of 8 rows cannot hold a band of 7, the row above it and a strip")
        }
    }

    /// Regression (fuzz-png): a rewrite covers rows in the decoder's buffer as they are reported,
    /// and the next row was unfiltered against the covered row above; every row of these PNGs is
    /// filtered against the one above, and a mosaic reads rows under an earlier black cover.
    func testARewriteUnfiltersEachRowAgainstTheRowAsDecoded() throws {
        let image = TestData.screenshotLike(width: 96, height: 80)
        for filter in [EncodeOptions.Filter.up, .sub, .adaptive] {
            let png = try PNGEncoder.encode(image, options: EncodeOptions(compressionLevel: 6, filter: filter), destination: "in")
            let covers: [Cover] = [(rect: Rect(x: 1, y: 1, width: 48, height: 40), fill: .black),
                                   (rect: Rect(x: 32, y: 0, width: 5, height: 80), fill: .pixelate(blockSize: 3))]
            var expected = image
            for cover in covers { expected.redact(cover.rect, with: cover.fill) }
            let rewrite = try XCTUnwrap(PNGRewrite(png))
            let output = try written { fd in try rewrite.write(covers: covers, options: .fast, to: fd, destination: "out") }
            XCTAssertEqual(try PNGDecoder.decode(output, source: "out"), expected, "\(filter)")
        }
    }

    /// Covers on a PNG's own bytes (RGB and RGBA) give the pixels covers on 32-bit pixels give.
    func testCoversOnPNGBytesMatchCoversOnPixels() throws {
        for alpha in [false, true] {
            let image = TestData.screenshotLike(width: 61, height: 47)
            let step = alpha ? 4 : 3
            var bytes = [UInt8](repeating: 0, count: 61 * 47 * step)
            for (index, pixel) in image.pixels.enumerated() {
                bytes[index * step] = UInt8(pixel >> 16 & 0xFF)
                bytes[index * step + 1] = UInt8(pixel >> 8 & 0xFF)
                bytes[index * step + 2] = UInt8(pixel & 0xFF)
                if alpha { bytes[index * step + 3] = 0x40 }
            }
            let covers: [Cover] = [(rect: Rect(x: -5, y: 3, width: 30, height: 30), fill: .pixelate(blockSize: 4)),
                                   (rect: Rect(x: 20, y: 20, width: 100, height: 10), fill: .solid(0xA1B2C3))]
            var expected = image
            for cover in covers { expected.redact(cover.rect, with: cover.fill) }
            try bytes.withUnsafeMutableBytes { raw in
                let rows = try PNGByteRows(raw, width: 61, height: 47, bytesPerRow: 61 * step, hasAlpha: alpha)
                for cover in covers { rows.redact(cover.rect, with: cover.fill) }
            }
            for index in image.pixels.indices {
                let pixel = expected.pixels[index]
                let covered = covers.contains { $0.rect.contains(x: index % 61, y: index / 61) }
                let got = Array(bytes[(index * step)..<(index * step + step)])
                let want = [UInt8(pixel >> 16 & 0xFF), UInt8(pixel >> 8 & 0xFF), UInt8(pixel & 0xFF)]
                    + (alpha ? [covered ? 0xFF : 0x40] : [])
                guard got == want else {
                    XCTFail("pixel \(index % 61),\(index / 61) (alpha \(alpha)): \(got), expected \(want)")
                    return
                }
            }
        }
    }

    /// A band of dark text on a light background is written unfiltered (its glyphs come back
    /// byte for byte where a letter repeats), a gradient band with a filter per row.
    func testTextBandsAreWrittenUnfilteredAndGradientsFiltered() throws {
        var text = PixelBuffer(width: 400, height: 12, fill: 0xFFF4_F4F2)
        for y in 3..<9 { for x in stride(from: 10, to: 390, by: 9) { text[x, y] = 0xFF1D_1F23; text[x + 1, y] = 0xFF80_8284 } }
        var gradient = PixelBuffer(width: 400, height: 12)
        for y in 0..<12 { for x in 0..<400 { gradient[x, y] = 0xFF00_0000 | UInt32((x / 9 + y / 5) & 0xFF) * 0x010101 } }
        for (image, unfiltered) in [(text, true), (gradient, false)] {
            let png = try PNGEncoder.encode(image, options: EncodeOptions(compressionLevel: 1, filter: .adaptive, bandRows: 12),
                                            destination: "band")
            let filters = try Self.rowFilters(png, width: 400, height: 12)
            XCTAssertEqual(filters.allSatisfy { $0 == 0 }, unfiltered, "\(unfiltered ? "text" : "gradient"): \(filters)")
            XCTAssertEqual(try PNGDecoder.decode(png, source: "band"), image)
        }
    }

    /// The filter byte of each row of an RGB PNG written by the encoder: unfiltering leaves
    /// each row's filter byte in place.
    private static func rowFilters(_ png: [UInt8], width: Int, height: Int) throws -> [UInt8] {
        var w: UInt32 = 0, h: UInt32 = 0, idat = 0
        var alpha: Int32 = 0
        XCTAssertEqual(sg_png_fast_probe(png, png.count, &w, &h, &alpha, &idat), 1)
        var rows = [UInt8](repeating: 0, count: (width * 3 + 1) * height)
        let count = rows.count
        XCTAssertEqual(sg_png_fast_unfilter_rows(png, png.count, w, h, alpha, idat, &rows, count, nil, nil), 0)
        return (0..<height).map { rows[$0 * (width * 3 + 1)] }
    }
}
