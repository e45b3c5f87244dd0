// Every PngSuite file decodes to the pixels ImageMagick gives (reference committed as hashes).
import ShotguardImaging
import XCTest

final class PNGSuiteTests: XCTestCase {
    func testEveryPngSuiteFileMatchesTheReferenceDecoder() throws {
        let reference = try TestData.fixture("pngsuite-reference.txt")
            .split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        XCTAssertEqual(reference.count, try TestData.files(in: "pngsuite").count, "reference covers every file")
        for line in reference {
            let (name, size, hash) = (line[0], line[1], line[2])
            let url = TestData.data.appendingPathComponent("pngsuite/\(name)")
            let image = try PNGDecoder.decode(try TestData.bytes(url), source: name)
            XCTAssertEqual("\(image.width)x\(image.height)", size, name)
            XCTAssertEqual(rgbaHash(image), hash, "\(name): pixels differ from ImageMagick's")
        }
    }

    func testAlphaIsReportedOnlyForTransparentFiles() throws {
        let folder = "pngsuite/"
        let opaque = try PNGDecoder.decode(try TestData.bytes(TestData.data.appendingPathComponent(folder + "basn2c08.png")), source: "basn2c08")
        let alpha = try PNGDecoder.decode(try TestData.bytes(TestData.data.appendingPathComponent(folder + "basn6a08.png")), source: "basn6a08")
        let trns = try PNGDecoder.decode(try TestData.bytes(TestData.data.appendingPathComponent(folder + "ftbrn2c08.png")), source: "ftbrn2c08")
        XCTAssertFalse(opaque.hasAlpha)
        XCTAssertTrue(alpha.hasAlpha)
        XCTAssertTrue(trns.hasAlpha)
    }

    func testRedactionRoundTripKeepsEveryPixelOutsideTheRectangle() throws {
        for url in try TestData.files(in: "pngsuite") {
            let original = try PNGDecoder.decode(try TestData.bytes(url), source: url.lastPathComponent)
            let rect = Rect(x: 5, y: 7, width: 11, height: 9)
            var redacted = original
            redacted.redact(rect, with: .solid(0x12_3456))
            let encoded = try PNGEncoder.encode(redacted, destination: "memory")
            let decoded = try PNGDecoder.decode(encoded, source: "round trip")
            XCTAssertEqual(decoded.hasAlpha, original.hasAlpha, url.lastPathComponent)
            for y in 0..<original.height {
                for x in 0..<original.width {
                    let expected = rect.contains(x: x, y: y) ? 0xFF12_3456 : original[x, y]
                    guard decoded[x, y] == expected else {
                        return XCTFail("\(url.lastPathComponent) (\(x),\(y)): \(decoded[x, y]) != \(expected)")
                    }
                }
            }
        }
    }
}
