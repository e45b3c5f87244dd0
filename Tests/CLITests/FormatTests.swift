// `redact` between PNG, JPEG and WebP: format by extension or --format, quality, no metadata carried over.
import ShotguardImaging
import ShotguardTestSupport
import XCTest

final class FormatTests: XCTestCase {
    private var sandbox: Sandbox!
    /// Smooth colour ramps: lossy coding keeps them close, so a missed fill or a shift shows.
    private let original: PixelBuffer = {
        var image = PixelBuffer(width: 96, height: 64)
        for y in 0..<64 { for x in 0..<96 { image[x, y] = 0xFF00_0000 | UInt32(0x40 + x) << 16 | UInt32(0x50 + y * 2) << 8 | 0x90 } }
        return image
    }()
    private let cover = Rect(x: 16, y: 16, width: 40, height: 24)

    override func setUpWithError() throws {
        sandbox = try Sandbox(self)
        try sandbox.write("in.png", png: original)
        try sandbox.write("in.jpg", JPEGEncoder.encode(original, options: JPEGOptions(quality: 95), destination: "in.jpg"))
        try sandbox.write("in.jpeg", JPEGEncoder.encode(original, options: JPEGOptions(quality: 75, fullChroma: false), destination: "in.jpeg"))
        try sandbox.write("in.webp", WebPCodec.encode(original, options: WebPOptions(quality: 90), destination: "in.webp"))
        try sandbox.write("lossless.webp", WebPCodec.encode(original, options: WebPOptions(quality: 0, lossless: true), destination: "x"))
    }

    func testRedactBetweenEveryPairOfFormats() throws {
        let inputs = ["in.png", "in.jpg", "in.jpeg", "in.webp", "lossless.webp"]
        let outputs: [(String, ImageFormat)] = [("out.png", .png), ("out.jpg", .jpeg), ("out.JPEG", .jpeg), ("out.webp", .webp)]
        for input in inputs {
            let decodedInput = try ImageCodec.decode(try sandbox.bytes(input), source: input).image
            for (output, format) in outputs {
                let result = try sandbox.run(["redact", input, "-o", output, "--rect", "40x24+16+16"])
                XCTAssertEqual(result.status, 0, "\(input) -> \(output): \(result.stderr)")
                XCTAssertEqual(result.stderr, "")
                let bytes = try sandbox.bytes(output)
                XCTAssertEqual(ImageFormat.sniff(bytes), format, "\(input) -> \(output)")
                let written = try ImageCodec.decode(bytes, source: output)
                XCTAssertEqual(written.format, format)
                // Lossless output keeps the decoded input exactly; lossy keeps it close.
                let lossless = format == .png
                assertCovered(written.image, from: decodedInput, tolerance: lossless ? 0 : 12, "\(input) -> \(output)")
                try FileManager.default.removeItem(atPath: sandbox.path(output))
            }
        }
        // The original's own pixels survive a lossless trip.
        XCTAssertEqual(try ImageCodec.decode(try sandbox.bytes("lossless.webp"), source: "").image.pixels, original.pixels)
    }

    /// Every other format written, then read back by `redact` itself: the lossless ones exactly,
    /// GIF (6,144 colours quantised to 256) and AVIF close.
    func testRedactWritesAndReadsEveryOtherFormat() throws {
        let outputs: [(String, ImageFormat, Int)] = [("out.tiff", .tiff, 0), ("out.TIF", .tiff, 0), ("out.ppm", .pnm, 0), ("out.pam", .pnm, 0),
                                                     ("out.ico", .ico, 0), ("out.xwd", .xwd, 0), ("out.bmp", .bmp, 0), ("out.gif", .gif, 24),
                                                     ("out.avif", .avif, 12)]
        for (output, format, tolerance) in outputs {
            let result = try sandbox.run(["redact", "in.png", "-o", output, "--rect", "40x24+16+16"])
            XCTAssertEqual(result.status, 0, "in.png -> \(output): \(result.stderr)")
            let written = try ImageCodec.decode(try sandbox.bytes(output), source: output)
            XCTAssertEqual(written.format, format, output)
            assertCovered(written.image, from: original, tolerance: tolerance, "in.png -> \(output)")
            let back = try sandbox.run(["redact", output, "-o", "back.png", "--rect", "1x1+0+0", "--fill", "#000000"])
            XCTAssertEqual(back.status, 0, "\(output) -> back.png: \(back.stderr)")
            var expected = written.image
            expected[0, 0] = 0xFF00_0000
            XCTAssertEqual(try PNGDecoder.decode(try sandbox.bytes("back.png"), source: "back.png").pixels.map { $0 | 0xFF00_0000 },
                           expected.pixels.map { $0 | 0xFF00_0000 }, "\(output) read back")
            // Cut in half, it is refused in one line, and nothing is written.
            let whole = try sandbox.bytes(output)
            try sandbox.write("cut-" + output, Array(whole.prefix(whole.count / 2)))
            let before = sandbox.contents()
            assertFailure(try sandbox.run(["redact", "cut-" + output, "-o", "never.png"]), status: 1, prefix: "shotguard: cut-\(output): ",
                          mentions: [])
            XCTAssertEqual(sandbox.contents(), before, "cut-\(output)")
        }
    }

    /// Inside `cover` black (away from the edges, which lossy coding softens), outside `input`.
    private func assertCovered(_ image: PixelBuffer, from input: PixelBuffer, tolerance: Int, _ message: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(image.width, input.width, message, file: file, line: line)
        XCTAssertEqual(image.height, input.height, message, file: file, line: line)
        guard image.width == input.width, image.height == input.height else { return }
        let margin = tolerance == 0 ? 0 : 4
        let inner = Rect(x: cover.x + margin, y: cover.y + margin, width: cover.width - 2 * margin, height: cover.height - 2 * margin)
        let outer = Rect(x: cover.x - margin, y: cover.y - margin, width: cover.width + 2 * margin, height: cover.height + 2 * margin)
        var worstInside = 0, worstOutside = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let pixel = image[x, y], source = input[x, y]
                if inner.contains(x: x, y: y) {
                    worstInside = max(worstInside, channels(pixel).max()!)
                } else if !outer.contains(x: x, y: y) {
                    worstOutside = max(worstOutside, zip(channels(pixel), channels(source)).map { abs($0 - $1) }.max()!)
                }
            }
        }
        XCTAssertLessThanOrEqual(worstInside, tolerance, "inside the cover: \(message)", file: file, line: line)
        XCTAssertLessThanOrEqual(worstOutside, tolerance, "outside the cover: \(message)", file: file, line: line)
    }

    private func channels(_ pixel: UInt32) -> [Int] { [Int(pixel >> 16 & 0xFF), Int(pixel >> 8 & 0xFF), Int(pixel & 0xFF)] }

    func testFormatOverridesTheExtensionAndStandardOutputIsPNGUnlessTold() throws {
        let named = try sandbox.run(["redact", "in.png", "-o", "out.data", "--format", "webp"])
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertEqual(ImageFormat.sniff(try sandbox.bytes("out.data")), .webp)
        let plain = try sandbox.run(["redact", "in.jpg", "-o", "-"])
        XCTAssertEqual(ImageFormat.sniff(plain.stdout), .png)
        let jpeg = try sandbox.run(["redact", "-", "-o", "-", "--format", "jpg"], stdin: try sandbox.bytes("in.webp"))
        XCTAssertEqual(jpeg.status, 0, jpeg.stderr)
        XCTAssertEqual(ImageFormat.sniff(jpeg.stdout), .jpeg)
    }

    func testAnUnknownExtensionIsAUsageErrorNotPNGBytes() throws {
        let before = sandbox.contents()
        for name in ["out.heic", "out", "out.png.tmp"] {
            let result = try sandbox.run(["redact", "in.png", "-o", name])
            assertFailure(result, status: 2, prefix: "shotguard: -o '\(name)': ", mentions: ["--format"])
        }
        let format = try sandbox.run(["redact", "in.png", "-o", "out.heic", "--format", "heic"])
        assertFailure(format, status: 2, prefix: "shotguard: --format: 'heic'", mentions: ["png, jpg, jpeg, webp, bmp, gif, tiff"])
        XCTAssertEqual(sandbox.contents(), before)
    }

    func testQualityIsCheckedAndGoesWithLossyFormatsOnly() throws {
        let before = sandbox.contents()
        for value in ["0", "101", "high"] {
            assertFailure(try sandbox.run(["redact", "in.png", "-o", "out.jpg", "--quality", value]), status: 2,
                          prefix: "shotguard: --quality: '\(value)'", mentions: ["1 to 100"])
        }
        assertFailure(try sandbox.run(["redact", "in.png", "-o", "out.png", "--quality", "80"]), status: 2,
                      prefix: "shotguard: --quality applies to JPEG, WebP and AVIF", mentions: ["--compression"])
        assertFailure(try sandbox.run(["redact", "in.png", "-o", "out.webp", "--compression", "9"]), status: 2,
                      prefix: "shotguard: --compression applies to PNG", mentions: ["--quality"])
        XCTAssertEqual(sandbox.contents(), before)

        for (name, quality) in [("low.jpg", "20"), ("high.jpg", "98"), ("low.webp", "20"), ("high.webp", "98")] {
            XCTAssertEqual(try sandbox.run(["redact", "in.png", "-o", name, "--quality", quality]).status, 0)
        }
        XCTAssertLessThan(try sandbox.bytes("low.jpg").count, try sandbox.bytes("high.jpg").count)
        XCTAssertLessThan(try sandbox.bytes("low.webp").count, try sandbox.bytes("high.webp").count)
        XCTAssertEqual(JPEGQuality.estimate(try sandbox.bytes("low.jpg")), 20)
        XCTAssertEqual(JPEGQuality.estimate(try sandbox.bytes("high.jpg")), 98)
    }

    /// A comment and an EXIF block (with an orientation) in the input: neither reaches the
    /// output, and the pixels are used as stored.
    func testMetadataIsDroppedAndOrientationIgnored() throws {
        var jpeg = try sandbox.bytes("in.jpg")
        let comment = Array("SECRET-COMMENT".utf8)
        let exif = Array("Exif\0\0MM\0*\0\0\0\u{8}\0\u{1}\u{1}\u{12}\0\u{3}\0\0\0\u{1}\0\u{6}\0\0\0\0\0\0SECRET-EXIF".utf8)
        let segments = [0xFF, 0xE1, UInt8((exif.count + 2) >> 8), UInt8((exif.count + 2) & 0xFF)] + exif
            + [0xFF, 0xFE, UInt8((comment.count + 2) >> 8), UInt8((comment.count + 2) & 0xFF)] + comment
        jpeg.insert(contentsOf: segments, at: 2)
        try sandbox.write("tagged.jpg", jpeg)
        let decoded = try ImageCodec.decode(jpeg, source: "tagged.jpg").image
        XCTAssertEqual(decoded.width, 96, "orientation 6 (rotate) is not applied")
        for output in ["out.jpg", "out.webp", "out.png"] {
            XCTAssertEqual(try sandbox.run(["redact", "tagged.jpg", "-o", output]).status, 0)
            let text = String(decoding: try sandbox.bytes(output), as: UTF8.self)
            XCTAssertFalse(text.contains("SECRET"), "\(output) carries the input's metadata")
            XCTAssertFalse(text.contains("Exif"), "\(output) carries an EXIF block")
        }
    }

    func testTruncatedAndHostileInputFailInOneLineWithNoOutput() throws {
        let jpeg = try sandbox.bytes("in.jpg"), webp = try sandbox.bytes("in.webp")
        try sandbox.write("cut.jpg", Array(jpeg.prefix(jpeg.count / 2)))
        try sandbox.write("cut.webp", Array(webp.prefix(webp.count / 2)))
        try sandbox.write("header.jpg", Array(jpeg.prefix(4)))
        try sandbox.write("riff.webp", Array("RIFF\u{4}\0\0\0WEBP".utf8))
        try sandbox.write("text.jpg", text: "not an image\n")
        // The frame header (SOF0) says 60000×60000: refused before any pixel memory is taken.
        var huge = jpeg
        if let sof = (0..<(huge.count - 9)).first(where: { huge[$0] == 0xFF && huge[$0 + 1] == 0xC0 }) {
            huge.replaceSubrange((sof + 5)..<(sof + 9), with: [0xEA, 0x60, 0xEA, 0x60])
        } else {
            XCTFail("test JPEG has no SOF0 marker")
        }
        try sandbox.write("huge.jpg", huge)
        let cases = [("cut.jpg", "truncated"), ("cut.webp", "truncated"), ("header.jpg", "truncated"),
                     ("riff.webp", "WebP"), ("text.jpg", "not a PNG, JPEG, WebP, BMP, GIF, TIFF"), ("huge.jpg", "60000x60000")]
        let before = sandbox.contents()
        for (name, mention) in cases {
            for output in ["out.png", "out.jpg"] {
                let result = try sandbox.run(["redact", name, "-o", output])
                assertFailure(result, status: 1, prefix: "shotguard: \(name): ", mentions: [mention])
            }
        }
        XCTAssertEqual(sandbox.contents(), before)
    }
}
