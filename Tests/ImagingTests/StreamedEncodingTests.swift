// Rows encoded while they arrive (a capture in strips, a decode) give the same PNG as rows
// encoded whole, with every cover in place before the encoder reads its rows.
import Foundation
import ShotguardBase
import ShotguardImaging
import ShotguardTestSupport
import XCTest

final class StreamedEncodingTests: XCTestCase {
    private func withRows<T>(of image: PixelBuffer, _ body: (PixelRows) throws -> T) rethrows -> T {
        var copy = image.pixels
        return try copy.withUnsafeMutableBytes { bytes in
            try body(try PixelRows(bytes, width: image.width, height: image.height, bytesPerRow: image.width * 4))
        }
    }

    /// Writes `body`'s PNG to a temporary file and returns its bytes.
    private func written(_ body: (Int32) throws -> Void) throws -> [UInt8] {
        let path = NSTemporaryDirectory() + "streamed-\(UUID().uuidString).png"
        defer { unlink(path) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        try body(fd)
        close(fd)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The rows start as poison and each strip is copied in just before it is reported, so a
    /// worker that read a row before it arrived would put poison in the PNG.
    func testRowsArrivingInStripsGiveTheSamePNGAsWholeRows() throws {
        let image = TestData.screenshotLike(width: 1920, height: 1080)
        let options = EncodeOptions(compressionLevel: 1, filter: .adaptive, bandRows: 7)
        let whole = try written { fd in try PNGEncoder.write(image, options: options, to: fd, destination: "whole") }
        for strip in [1, 5, 68, 1080] {
            let streamed = try written { fd in
                try withRows(of: PixelBuffer(width: 1920, height: 1080, fill: 0xFFDE_ADBE)) { rows in
                    let writer = try PNGStreamWriter(rows, options: options, to: fd, destination: "streamed")
                    for start in stride(from: 0, to: 1080, by: strip) {
                        let end = min(start + strip, 1080)
                        image.pixels.withUnsafeBytes { pixels in
                            (rows.base + start * rows.bytesPerRow).copyMemory(
                                from: pixels.baseAddress! + start * 1920 * 4, byteCount: (end - start) * 1920 * 4)
                        }
                        writer.rowsArrived(end)
                    }
                    try writer.finish()
                }
            }
            XCTAssertEqual(streamed, whole, "strips of \(strip) rows")
        }
    }

    /// However few rows the caller reported, `finish` puts every cover on before any row is read.
    func testFinishAppliesTheCoversOfRowsNeverReported() throws {
        let image = TestData.screenshotLike(width: 90, height: 70)
        let covers: [Cover] = [(rect: Rect(x: 5, y: 10, width: 50, height: 55), fill: .pixelate(blockSize: 6)),
                               (rect: Rect(x: 30, y: 0, width: 60, height: 70), fill: .black)]
        var expected = image
        for cover in covers { expected.redact(cover.rect, with: cover.fill) }
        let png = try written { fd in
            try withRows(of: image) { rows in
                let writer = try PNGStreamWriter(rows, covers: covers, options: .fast, to: fd, destination: "covered")
                writer.rowsArrived(20)
                try writer.finish()
            }
        }
        XCTAssertEqual(try PNGDecoder.decode(png, source: "covered"), expected)
    }

    func testACancelledStreamEndsWithoutWaitingForRowsAndWritesNoPNG() throws {
        let image = TestData.screenshotLike(width: 64, height: 64)
        let bytes = try written { fd in
            try withRows(of: image) { rows in
                let writer = try PNGStreamWriter(rows, options: EncodeOptions(compressionLevel: 1, filter: .adaptive, bandRows: 4),
                                                 to: fd, destination: "cancelled")
                writer.rowsArrived(8)
                writer.cancel()
                XCTAssertNoThrow(try writer.finish(), "finishing after a cancel does nothing")
            }
        }
        XCTAssertEqual(Array(bytes.prefix(8)), PNGChunks.signature, "the header went out before the cancel")
        XCTAssertThrowsError(try PNGDecoder.decode(bytes, source: "cancelled"), "no trailer, no IEND: not a PNG")
    }

    func testSolidFillsCoverRowsAsTheyArriveInTheirOrder() {
        var image = PixelBuffer(width: 10, height: 10)
        for index in image.pixels.indices { image.pixels[index] = 0xFF10_2030 }
        withRows(of: image) { rows in
            let pixel = { (x: Int, y: Int) in rows.base.load(fromByteOffset: y * rows.bytesPerRow + x * 4, as: UInt32.self) }
            var fills = StagedFills(rows, fills: [
                (rect: Rect(x: 0, y: 2, width: 10, height: 6), fill: .solid(0x0000FF)),
                (rect: Rect(x: 0, y: 4, width: 5, height: 2), fill: .solid(0xFF0000)),
                (rect: Rect(x: 8, y: 9, width: 9, height: 9), fill: .black),
            ])
            XCTAssertEqual(fills.arrived(1), 1)
            XCTAssertEqual(fills.arrived(5), 5, "solid covers follow the rows in")
            XCTAssertEqual(pixel(9, 3), 0xFF00_00FF)
            XCTAssertEqual(pixel(0, 4), 0xFFFF_0000, "the later cover is on top")
            XCTAssertEqual(pixel(0, 5), 0xFF10_2030, "row 5 is not in yet")
            XCTAssertEqual(fills.arrived(9), 9)
            XCTAssertEqual(pixel(0, 5), 0xFFFF_0000)
            XCTAssertEqual(pixel(9, 7), 0xFF00_00FF)
            XCTAssertEqual(pixel(9, 9), 0xFF10_2030, "the clipped cover in the last row waits for its row")
            XCTAssertEqual(fills.arrived(10), 10)
            XCTAssertEqual(pixel(9, 9), 0xFF00_0000)
        }
    }

    func testAMosaicWaitsForItsRowsAndHoldsBackACoverOnTopOfIt() {
        var image = PixelBuffer(width: 8, height: 8)
        for index in image.pixels.indices { image.pixels[index] = index % 2 == 0 ? 0xFF00_0000 : 0xFFFF_FFFF }
        withRows(of: image) { rows in
            let pixel = { (x: Int, y: Int) in rows.base.load(fromByteOffset: y * rows.bytesPerRow + x * 4, as: UInt32.self) }
            var fills = StagedFills(rows, fills: [
                (rect: Rect(x: 0, y: 2, width: 8, height: 4), fill: .pixelate(blockSize: 4)),
                (rect: Rect(x: 0, y: 4, width: 2, height: 4), fill: .solid(0x00FF00)),
            ])
            XCTAssertEqual(fills.arrived(5), 2, "nothing from the mosaic's top row on is final")
            XCTAssertEqual(pixel(0, 4), 0xFF00_0000, "the cover on top of the mosaic waits for it")
            XCTAssertEqual(fills.arrived(6), 6)
            XCTAssertEqual(pixel(0, 4), 0xFF00_FF00)
            XCTAssertEqual(pixel(4, 4), pixel(5, 3), "one mosaic block")
            XCTAssertEqual(fills.arrived(8), 8)
            XCTAssertEqual(pixel(1, 7), 0xFF00_FF00)
        }
    }

    /// Any fills, overlapping or not, with rows arriving in any steps, end as the same pixels
    /// as the fills applied all at once, and no row is ever called final before its covers.
    func testStagedFillsEndAsTheFillsAppliedAtOnce() {
        var generator = SplitMix64(seed: 2026)
        let image = TestData.screenshotLike(width: 64, height: 48)
        for round in 0..<300 {
            let covers: [Cover] = (0..<Int.random(in: 1...5, using: &generator)).map { _ in
                let x = Int.random(in: -8...60, using: &generator), y = Int.random(in: -8...44, using: &generator)
                let rect = Rect(x: x, y: y, width: Int.random(in: 1...40, using: &generator),
                                height: Int.random(in: 1...40, using: &generator))
                let fill: Fill = Bool.random(using: &generator) ? .solid(UInt32.random(in: 0...0xFFFFFF, using: &generator))
                                                                : .pixelate(blockSize: Int.random(in: 2...9, using: &generator))
                return (rect: rect, fill: fill)
            }
            var expected = image
            for cover in covers { expected.redact(cover.rect, with: cover.fill) }
            let staged = withRows(of: image) { rows -> [UInt32] in
                var fills = StagedFills(rows, fills: covers)
                var arrived = 0
                while arrived < 48 {
                    arrived = min(48, arrived + Int.random(in: 1...12, using: &generator))
                    let final = fills.arrived(arrived)
                    XCTAssertLessThanOrEqual(final, arrived)
                    // Every cover reaching into the final rows has covered them as it will at the end.
                    for y in 0..<final {
                        for x in 0..<64 {
                            let value = rows.base.load(fromByteOffset: y * rows.bytesPerRow + x * 4, as: UInt32.self)
                            if value != expected.pixels[y * 64 + x] {
                                XCTFail("round \(round): pixel (\(x), \(y)) released before its cover")
                                return []
                            }
                        }
                    }
                }
                return (0..<(48 * 64)).map { rows.base.load(fromByteOffset: $0 * 4, as: UInt32.self) }
            }
            XCTAssertEqual(staged, expected.pixels, "round \(round): \(covers)")
            if staged != expected.pixels { return }
        }
    }

    func testRewriteWhileDecodingMatchesDecodeRedactEncode() throws {
        var image = TestData.screenshotLike(width: 257, height: 190)
        for alpha in [false, true] {
            image.hasAlpha = alpha
            if alpha { for index in image.pixels.indices where index % 5 == 0 { image.pixels[index] &= 0x80FF_FFFF } }
            let png = try PNGEncoder.encode(image, options: EncodeOptions(compressionLevel: 6, filter: .adaptive), destination: "in")
            let covers: [Cover] = [
                (rect: Rect(x: 10, y: 10, width: 100, height: 150), fill: .pixelate(blockSize: 7)),
                (rect: Rect(x: 50, y: 40, width: 300, height: 20), fill: .black),
                (rect: Rect(x: 0, y: 185, width: 40, height: 40), fill: .solid(0x123456)),
            ]
            var expected = try PNGDecoder.decode(png, source: "in")
            for cover in covers { expected.redact(cover.rect, with: cover.fill) }
            let rewrite = try XCTUnwrap(PNGRewrite(png))
            XCTAssertEqual(rewrite.hasAlpha, alpha)
            let output = try written { fd in try rewrite.write(covers: covers, options: .fast, to: fd, destination: "out") }
            XCTAssertEqual(try PNGDecoder.decode(output, source: "out"), expected, alpha ? "RGBA" : "RGB")
        }
    }

    func testRewriteDeclinesABadFilterByteFoundMidway() throws {
        // 300 rows of 40 grey pixels, unfiltered, but row 250 names filter type 9.
        var rows: [UInt8] = []
        for row in 0..<300 { rows += [row == 250 ? 9 : 0] + [UInt8](repeating: UInt8(row % 256), count: 40 * 3) }
        let png = TestData.storedPNG(width: 40, height: 300, rows: rows)
        let rewrite = try XCTUnwrap(PNGRewrite(png), "the header, CRCs and checksum are right")
        _ = try written { fd in
            XCTAssertThrowsError(try rewrite.write(covers: [], options: .fast, to: fd, destination: "out")) { error in
                XCTAssertEqual((error as? ImagingError)?.kind, .corrupt)
            }
        }
        XCTAssertThrowsError(try PNGDecoder.decode(png, source: "in"), "the full decoder words the error")
    }
}
