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
}
