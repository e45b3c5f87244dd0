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
            XCTAssertTrue(message.hasPrefix("bomb.png: image is 30000x30000, over the limit"), message)
        }
        let small = DecodeLimits(maxWidth: 10, maxHeight: 10, maxPixels: 100, maxInputBytes: 1 << 20)
        let suite = try TestData.bytes(TestData.data.appendingPathComponent("pngsuite/basn2c08.png"))
        XCTAssertThrowsError(try PNGDecoder.decode(suite, source: "s.png", limits: small))
        let tiny = DecodeLimits(maxWidth: 100, maxHeight: 100, maxPixels: 10000, maxInputBytes: 100)
        XCTAssertThrowsError(try PNGDecoder.decode(suite, source: "s.png", limits: tiny)) { error in
            XCTAssertEqual((error as? ImagingError)?.kind, .tooLarge)
        }
    }

    /// A PNG with the given header and one empty deflate stream as IDAT; CRCs computed here.
    private func makePNG(width: UInt32, height: UInt32) -> [UInt8] {
        func be(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return be(UInt32(data.count)) + body + be(crc32(body))
        }
        let header = be(width) + be(height) + [8, 2, 0, 0, 0]
        let idat: [UInt8] = [0x78, 0x01, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]
        return PNGChunks.signature + chunk("IHDR", header) + chunk("IDAT", idat) + chunk("IEND", [])
    }

    private func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
