// BMP read and written: ImageMagick's 24- and 32-bit files, top-down rows, hostile headers.
import Foundation
import ShotguardBase
import ShotguardImaging
import XCTest

final class BMPCodecTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "shotguard-bmp-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let folder = folder
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
    }

    /// Runs ImageMagick's convert (the real one, not a wrapper earlier in PATH): a test failure,
    /// not a skip, when it is missing.
    private func convert(_ arguments: [String]) throws {
        let convert = "/usr/bin/convert"
        guard FileManager.default.isExecutableFile(atPath: convert) else {
            throw ImagingError(.io, source: convert, "ImageMagick is not installed (Debian package imagemagick)")
        }
        XCTAssertEqual(try ChildProcess(convert, arguments, output: .standardError).waitForExit(), 0, arguments.joined(separator: " "))
    }

    private func read(_ name: String) throws -> [UInt8] { try FileIO.read(folder + "/" + name, limit: 1 << 24) }

    /// An odd-sized image (rows need padding), every pixel different; half transparent when `alpha`.
    private func sample(alpha: Bool) -> PixelBuffer {
        var image = PixelBuffer(width: 13, height: 7, hasAlpha: alpha)
        for y in 0..<7 {
            for x in 0..<13 {
                let a: UInt32 = alpha ? UInt32(0x20 + (x * 16 + y * 3) % 0xC0) : 0xFF
                image[x, y] = a << 24 | UInt32(x * 19) << 16 | UInt32(y * 37) << 8 | UInt32((x ^ y) * 11)
            }
        }
        return image
    }

    /// `convert in.png BMP3:out.bmp`: 24-bit BI_RGB, bottom-up, rows padded to 4 bytes.
    func testImageMagicks24BitBMPDecodesToThePixelsOfItsPNG() throws {
        let image = sample(alpha: false)
        try FileIO.writeAtomically(try PNGEncoder.encode(image, destination: "in.png"), to: folder + "/in.png")
        try convert([folder + "/in.png", "BMP3:" + folder + "/out.bmp"])
        let bytes = try read("out.bmp")
        XCTAssertEqual(bytes[28], 24, "ImageMagick wrote 24 bits a pixel")
        XCTAssertEqual(ImageFormat.sniff(bytes), .bmp)
        let decoded = try ImageCodec.decode(bytes, source: "out.bmp")
        XCTAssertEqual(decoded.format, .bmp)
        XCTAssertFalse(decoded.isLossy)
        XCTAssertEqual(decoded.image, image)
    }

    /// `convert in.png bmp:out.bmp` of an image with alpha: BITMAPV5HEADER, 32-bit BI_BITFIELDS
    /// with an alpha mask. Compared with what ImageMagick itself reads from that BMP.
    func testImageMagicks32BitBMPWithAlphaDecodesAsImageMagickReadsIt() throws {
        let image = sample(alpha: true)
        try FileIO.writeAtomically(try PNGEncoder.encode(image, destination: "in.png"), to: folder + "/in.png")
        try convert([folder + "/in.png", "bmp:" + folder + "/out.bmp"])
        try convert([folder + "/out.bmp", "PNG32:" + folder + "/back.png"])
        let bytes = try read("out.bmp")
        XCTAssertEqual(bytes[14], 124, "a V5 header")
        XCTAssertEqual(bytes[28], 32)
        XCTAssertEqual(bytes[30], 3, "BI_BITFIELDS")
        let decoded = try BMPCodec.decode(bytes, source: "out.bmp")
        XCTAssertTrue(decoded.hasAlpha)
        XCTAssertEqual(decoded.pixels, try PNGDecoder.decode(try read("back.png"), source: "back.png").pixels)
        XCTAssertEqual(decoded.pixels, image.pixels)
    }

    /// A negative height means the rows are stored from the top.
    func testTopDownRowsAreReadFromTheTop() throws {
        let image = sample(alpha: false)
        var bytes = try BMPCodec.encode(image, destination: "m.bmp")
        let rowBytes = (13 * 3 + 3) / 4 * 4
        let rows = (0..<7).map { Array(bytes[(54 + $0 * rowBytes)..<(54 + ($0 + 1) * rowBytes)]) }
        bytes = Array(bytes[..<54]) + rows.reversed().flatMap { $0 }
        let minusSeven = UInt32(bitPattern: -7)
        for index in 0..<4 { bytes[22 + index] = UInt8(truncatingIfNeeded: minusSeven >> (8 * index)) }
        XCTAssertEqual(try BMPCodec.decode(bytes, source: "m.bmp"), image)
    }

    /// What the encoder writes, ImageMagick reads as the same pixels (and so does the decoder).
    func testWrittenBMPsAreReadBackByImageMagick() throws {
        let image = sample(alpha: false)
        let bytes = try ImageCodec.encode(image, as: .bmp, destination: "ours.bmp")
        XCTAssertEqual(bytes.count, 54 + 40 * 7)
        try FileIO.writeAtomically(bytes, to: folder + "/ours.bmp")
        try convert([folder + "/ours.bmp", "PNG24:" + folder + "/ours.png"])
        XCTAssertEqual(try PNGDecoder.decode(try read("ours.png"), source: "ours.png"), image)
        XCTAssertEqual(try BMPCodec.decode(bytes, source: "ours.bmp"), image)
    }

    /// Regression: a BMP screenshot's redacted fallback was written as PNG bytes under its .bmp
    /// name; the encoding that matches a BMP original is BMP.
    func testABMPOriginalIsReencodedAsBMP() throws {
        let original = try BMPCodec.encode(sample(alpha: false), destination: "shot.bmp")
        guard case .bmp = try XCTUnwrap(ImageEncoding.matching(original: original)) else {
            return XCTFail("a BMP original is matched by \(String(describing: ImageEncoding.matching(original: original)))")
        }
        XCTAssertEqual(ImageFormat(path: "Screenshot.BMP"), .bmp)
        XCTAssertTrue(ImageFormat.bmp.isComplete(original))
        XCTAssertFalse(ImageFormat.bmp.isComplete(Array(original.dropLast(3))), "a writer still at work")
    }

    /// Hostile headers are refused with one line naming the source, before any allocation.
    func testHostileHeadersAreRefused() throws {
        let good = try BMPCodec.encode(sample(alpha: false), destination: "h.bmp")
        func patched(_ offset: Int, _ values: [UInt8]) -> [UInt8] {
            var bytes = good
            for (index, value) in values.enumerated() { bytes[offset + index] = value }
            return bytes
        }
        let cases: [(String, [UInt8], String)] = [
            ("truncated rows", Array(good.dropLast(10)), "cut short"),
            ("cut inside the header", Array(good.prefix(30)), "cut short inside"),
            ("zero width", patched(18, [0, 0, 0, 0]), "says it is 0x7"),
            ("negative width", patched(18, [0xFF, 0xFF, 0xFF, 0xFF]), "says it is -1x7"),
            ("huge", patched(18, [0xFF, 0xFF, 0xFF, 0x7F]), "wider than the limit"),
            ("height Int32.min", patched(22, [0, 0, 0, 0x80]), "says it is"),
            ("8-bit palette", patched(28, [8, 0]), "only uncompressed 24- and 32-bit"),
            ("RLE", patched(30, [1, 0, 0, 0]), "compression 1"),
            ("24-bit bitfields", patched(30, [3, 0, 0, 0]), "compression 3"),
            ("two planes", patched(26, [2, 0]), "2 planes"),
            ("pixels inside the headers", patched(10, [10, 0, 0, 0]), "inside its headers"),
            ("pixels far past the end", patched(10, [0xFF, 0xFF, 0xFF, 0x7F]), "cut short"),
            ("OS/2 header", patched(14, [12, 0, 0, 0]), "not a BMP this reads"),
        ]
        for (what, bytes, expected) in cases {
            XCTAssertThrowsError(try BMPCodec.decode(bytes, source: "h.bmp"), what) { error in
                let text = "\(error)"
                XCTAssertTrue(text.hasPrefix("h.bmp: ") && text.contains(expected) && !text.contains("\n"), "\(what): \(text)")
            }
        }
        // 32-bit bitfields whose masks overlap or have gaps.
        var bitfields = patched(28, [32, 0, 3, 0, 0, 0])
        bitfields.insert(contentsOf: [0, 0, 0xFF, 0, 0, 0xFF, 0xFF, 0, 0xFF, 0, 0, 0] as [UInt8], at: 54)  // green overlaps red
        bitfields[10] = 66
        XCTAssertThrowsError(try BMPCodec.decode(bitfields, source: "h.bmp")) { error in
            XCTAssertTrue("\(error)".contains("masks overlap"), "\(error)")
        }
    }
}
