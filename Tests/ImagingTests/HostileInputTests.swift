// Crashers, bad palettes, truncations, non-PNG data and bombs: a clear error or a correct image.
import ShotguardImaging
import XCTest

final class HostileInputTests: XCTestCase {
    func testCrashersAndBadPalettesGiveAnErrorOrAnImage() throws {
        for folder in ["png-crashers", "png-badpal"] {
            for url in try TestData.files(in: folder) {
                let bytes = try TestData.bytes(url)
                do throws(ImagingError) {
                    let image = try PNGDecoder.decode(bytes, source: url.lastPathComponent)
                    XCTAssertEqual(image.pixels.count, image.width * image.height)
                } catch {
                    XCTAssertTrue(error.description.hasPrefix("\(url.lastPathComponent): "), error.description)
                    XCTAssertFalse(error.message.isEmpty)
                    XCTAssertFalse(error.description.contains("\n"))
                }
            }
        }
    }

    func testEveryTruncationIsRefused() throws {
        let bytes = try TestData.bytes(TestData.data.appendingPathComponent("pngsuite/basn2c08.png"))
        for length in 0..<bytes.count {
            XCTAssertThrowsError(try PNGDecoder.decode(Array(bytes.prefix(length)), source: "cut.png"), "length \(length)")
        }
    }

    func testTruncationSaysSo() throws {
        let bytes = Array(try TestData.bytes(TestData.data.appendingPathComponent("pngsuite/basn2c08.png")).dropLast(20))
        XCTAssertThrowsError(try PNGDecoder.decode(bytes, source: "cut.png")) { error in
            XCTAssertEqual((error as? ImagingError)?.description, "cut.png: PNG is truncated (no IEND chunk)")
        }
    }

    func testNonPNGNamedPNGIsRefused() {
        let text = Array("GIF89a this is not a png at all".utf8)
        XCTAssertThrowsError(try PNGDecoder.decode(text, source: "fake.png")) { error in
            XCTAssertEqual((error as? ImagingError)?.description, "fake.png: not a PNG file (no PNG signature)")
        }
    }

    func testDimensionLimitsAreCheckedBeforeAllocating() throws {
        // A valid 30000x30000 header with a tiny IDAT: a bomb that must be refused from its header.
        let bomb = makePNG(width: 30000, height: 30000)
        XCTAssertThrowsError(try PNGDecoder.decode(bomb, source: "bomb.png")) { error in
            let message = (error as? ImagingError)?.description ?? ""
            XCTAssertTrue(message.hasPrefix("bomb.png: image is 30000x30000 (900000000 pixels), over the limit"), message)
        }
        let small = DecodeLimits(maxWidth: 10, maxHeight: 10, maxPixels: 100, maxInputBytes: 1 << 20)
        let suite = try TestData.bytes(TestData.data.appendingPathComponent("pngsuite/basn2c08.png"))
        XCTAssertThrowsError(try PNGDecoder.decode(suite, source: "s.png", limits: small))
        let tiny = DecodeLimits(maxWidth: 100, maxHeight: 100, maxPixels: 10000, maxInputBytes: 100)
        XCTAssertThrowsError(try PNGDecoder.decode(suite, source: "s.png", limits: tiny)) { error in
            XCTAssertEqual((error as? ImagingError)?.kind, .tooLarge)
        }
    }

    /// The limit error names the limit that was passed: both sides fit 32768x32768, the
    /// pixel count does not (the message used to name all three limits at once).
    func testDimensionLimitErrorNamesTheLimitExceeded() {
        XCTAssertThrowsError(try PNGDecoder.decode(makePNG(width: 32768, height: 32768), source: "b.png")) { error in
            XCTAssertEqual((error as? ImagingError)?.description,
                           "b.png: image is 32768x32768 (1073741824 pixels), over the limit of 67108864 pixels")
        }
        XCTAssertThrowsError(try PNGDecoder.decode(makePNG(width: 40000, height: 1), source: "w.png")) { error in
            XCTAssertEqual((error as? ImagingError)?.description,
                           "w.png: image is 40000x1, wider than the limit of 32768 pixels")
        }
        XCTAssertThrowsError(try PNGDecoder.decode(makePNG(width: 1, height: 40000), source: "t.png")) { error in
            XCTAssertEqual((error as? ImagingError)?.description,
                           "t.png: image is 1x40000, taller than the limit of 32768 pixels")
        }
    }

    /// A valid PNG of a million empty ancillary chunks: the walk counts them with a fixed
    /// amount of state (it used to keep a tuple per chunk: 1.29 GB for 20 million) and the
    /// file decodes, or fails with an error, without a chunk list.
    func testMillionsOfEmptyChunksAreWalkedWithoutAList() throws {
        let count = 1_000_000
        let empty = TestData.pngChunk("teXt", [])
        var bytes = PNGChunks.signature + TestData.pngChunk("IHDR", TestData.bigEndian(1) + TestData.bigEndian(1) + [8, 2, 0, 0, 0])
        bytes.reserveCapacity(bytes.count + count * empty.count + 64)
        for _ in 0..<count { bytes += empty }
        bytes += TestData.pngChunk("IDAT", [0x78, 0x01, 0x63, 0x60, 0x60, 0x60, 0x00, 0x00, 0x00, 0x04, 0x00, 0x01]) + TestData.pngChunk("IEND", [])
        let walk = try bytes.withUnsafeBytes { bytes throws(ImagingError) in try PNGChunks(bytes, source: "many.png") }
        XCTAssertEqual(walk.count, count + 3)
        XCTAssertTrue(walk.isComplete)
        XCTAssertLessThanOrEqual(MemoryLayout<PNGChunks>.size, 32, "the walk's state does not grow with the file")
        do throws(ImagingError) {
            let image = try PNGDecoder.decode(bytes, source: "many.png")
            XCTAssertEqual(image.width * image.height, 1)
        } catch {
            XCTAssertTrue(error.description.hasPrefix("many.png: "), error.description)
        }
    }

    /// A PNG with the given header and one empty deflate stream as IDAT; CRCs computed here.
    private func makePNG(width: UInt32, height: UInt32) -> [UInt8] {
        let header = TestData.bigEndian(width) + TestData.bigEndian(height) + [8, 2, 0, 0, 0]
        let idat: [UInt8] = [0x78, 0x01, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]
        return PNGChunks.signature + TestData.pngChunk("IHDR", header) + TestData.pngChunk("IDAT", idat) + TestData.pngChunk("IEND", [])
    }
}
