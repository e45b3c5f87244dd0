// Damaged JPEG and WebP files: every truncation refused, every corrupted byte an error or an image.
import ShotguardImaging
import XCTest

final class HostileJPEGWebPTests: XCTestCase {
    private let image = TestData.screenshotLike(width: 64, height: 48)

    private func samples() throws -> [(String, [UInt8])] {
        [("x.jpg", try JPEGEncoder.encode(image, options: JPEGOptions(quality: 80, fullChroma: false), destination: "x")),
         ("x.webp", try WebPCodec.encode(image, destination: "x")),
         ("lossless.webp", try WebPCodec.encode(image, options: WebPOptions(quality: 0, lossless: true), destination: "x"))]
    }

    func testEveryTruncationIsRefused() throws {
        for (name, bytes) in try samples() {
            for length in 0..<bytes.count {
                XCTAssertThrowsError(try ImageCodec.decode(Array(bytes.prefix(length)), source: name), "\(name) cut at \(length)")
            }
        }
    }

    /// Each byte in turn set to a few values (a deterministic sweep, no random seed to lose):
    /// the result is an image of the right size or a one-line error naming the source.
    func testCorruptedBytesGiveAnErrorOrAnImage() throws {
        for (name, bytes) in try samples() {
            for index in bytes.indices {
                for value: UInt8 in [0x00, 0xFF, bytes[index] ^ 0x55] where value != bytes[index] {
                    var damaged = bytes
                    damaged[index] = value
                    do throws(ImagingError) {
                        let decoded = try ImageCodec.decode(damaged, source: name, limits: .standard)
                        XCTAssertEqual(decoded.image.pixels.count, decoded.image.width * decoded.image.height)
                    } catch {
                        XCTAssertTrue(error.description.hasPrefix("\(name): "), error.description)
                        XCTAssertFalse(error.description.contains("\n"), error.description)
                    }
                }
            }
        }
    }

    /// A lossless WebP whose header says it has no alpha while its pixels carry some (found by
    /// fuzz-webp): the image must come out opaque, as every image without alpha is.
    func testWebPWithoutAlphaInItsHeaderDecodesOpaque() throws {
        let bytes: [UInt8] = [
            0x52, 0x49, 0x46, 0x46, 0x28, 0x00, 0x00, 0x00, 0x57, 0x45, 0x42, 0x50, 0x56, 0x50, 0x38, 0x4C,
            0x1C, 0x00, 0x00, 0x00, 0x2F, 0x07, 0xC0, 0x01, 0x00, 0x0F, 0x30, 0x7F, 0xF3, 0x37, 0x7F, 0xF3,
            0x1F, 0x70, 0x50, 0x90, 0xB6, 0x01, 0xE3, 0x5F, 0xF3, 0x4E, 0x6C, 0x44, 0xF4, 0x3F, 0x08, 0x00,
        ]
        let decoded = try WebPCodec.decode(bytes, source: "no-alpha.webp")
        XCTAssertEqual(decoded.width * decoded.height, 64)
        XCTAssertFalse(decoded.hasAlpha)
        XCTAssertTrue(decoded.pixels.allSatisfy { $0 >> 24 == 0xFF }, "pixels with alpha in an image without it")
    }

    /// A progressive 8x8 greyscale JPEG of all-zero coefficients, every band of coefficients
    /// 0...`bands` sent in 14 scans (successive approximation from bit 13 down to bit 0).
    private func progressiveJPEG(bands: Int) -> [UInt8] {
        func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
            [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        // Each scan's data is one 0 bit (a zero DC difference, an end of band, or a refinement
        // bit) padded with ones.
        func scans(_ band: UInt8) -> [UInt8] {
            (0...13).flatMap { step -> [UInt8] in
                let (high, low): (UInt8, UInt8) = step == 0 ? (0, 13) : (UInt8(14 - step), UInt8(13 - step))
                return segment(0xDA, [1, 1, 0x00, band, band, high << 4 | low]) + [0x7F]
            }
        }
        let oneCode: [UInt8] = [1] + [UInt8](repeating: 0, count: 15) + [0]
        return [0xFF, 0xD8] + segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
            + segment(0xC2, [8, 0, 8, 0, 8, 1, 1, 0x11, 0]) + segment(0xC4, [0x00] + oneCode + [0x10] + oneCode)
            + (0...UInt8(bands)).flatMap(scans) + [0xFF, 0xD9]
    }

    /// Each scan is a pass over the whole image, so a file of thousands of tiny scans costs
    /// thousands of decodes of a large one; libjpeg-turbo's own limit of 500 applies.
    func testProgressiveJPEGOfMoreThanFiveHundredScansIsRefused() throws {
        XCTAssertEqual(try JPEGDecoder.decode(progressiveJPEG(bands: 20), source: "294-scans.jpg").pixels.count, 64)
        XCTAssertThrowsError(try JPEGDecoder.decode(progressiveJPEG(bands: 63), source: "896-scans.jpg")) { error in
            XCTAssertTrue(String(describing: error).hasPrefix("896-scans.jpg: "), "\(error)")
        }
    }
}
