// JPEG and WebP codecs: sniffing, completeness, limits, the quality estimate, keeping an original's format.
import ShotguardImaging
import XCTest

final class FormatCodecTests: XCTestCase {
    private let image = TestData.screenshotLike(width: 160, height: 120)

    func testSniffingGoesByBytesNotNames() throws {
        XCTAssertEqual(ImageFormat.sniff(try PNGEncoder.encode(image, destination: "x")), .png)
        XCTAssertEqual(ImageFormat.sniff(try JPEGEncoder.encode(image, destination: "x")), .jpeg)
        XCTAssertEqual(ImageFormat.sniff(try WebPCodec.encode(image, destination: "x")), .webp)
        XCTAssertNil(ImageFormat.sniff(Array("BM not an image".utf8)))
        XCTAssertNil(ImageFormat.sniff([0xFF, 0xD8]))
        XCTAssertEqual(ImageFormat(path: "a/b.JPG"), .jpeg)
        XCTAssertEqual(ImageFormat(path: "shot.webp"), .webp)
        XCTAssertNil(ImageFormat(path: "dir.png/file"))
        XCTAssertNil(ImageFormat(path: "shot"))
        XCTAssertEqual(ImageFormat(name: "jpg"), .jpeg)
        XCTAssertEqual(ImageFormat(path: "scan.TIF"), .tiff)
        XCTAssertNil(ImageFormat(path: "shot.png.part"))
        XCTAssertEqual(ImageFormat.fileExtension(of: "a.b/shot.JPeG"), "JPeG", "as written, in the last component")
        XCTAssertEqual(ImageFormat.fileExtension(of: "notes.txt"), "txt", "whether or not it names a format")
        XCTAssertNil(ImageFormat.fileExtension(of: "a.b/shot"))
    }

    /// A tool still writing its file: every proper prefix is incomplete, the whole file complete.
    func testCompletenessFollowsEachFormatsFraming() throws {
        let progressive = try XCTUnwrap(progressiveJPEG())
        let files: [(ImageFormat, [UInt8])] = [
            (.png, try PNGEncoder.encode(image, destination: "x")),
            (.jpeg, try JPEGEncoder.encode(image, destination: "x")),
            (.jpeg, progressive),
            (.webp, try WebPCodec.encode(image, destination: "x")),
            (.webp, try WebPCodec.encode(image, options: WebPOptions(quality: 0, lossless: true), destination: "x")),
        ]
        for (format, bytes) in files {
            XCTAssertTrue(format.isComplete(bytes), "\(format)")
            for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 97)) + [bytes.count - 1] {
                XCTAssertFalse(format.isComplete(Array(bytes.prefix(length))), "\(format) cut at \(length) of \(bytes.count)")
            }
        }
    }

    /// A progressive JPEG (several scans, tables between them) from ImageMagick, when present.
    private func progressiveJPEG() throws -> [UInt8]? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sg-prog-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("in.png"), jpg = folder.appendingPathComponent("out.jpg")
        try Data(try PNGEncoder.encode(image, destination: "x")).write(to: png)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/convert")
        process.arguments = [png.path, "-interlace", "JPEG", "-quality", "80", jpg.path]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "ImageMagick's convert (Debian package imagemagick) is needed")
        return [UInt8](try Data(contentsOf: jpg))
    }

    func testDecodedJPEGAndWebPAreOpaqueAndClose() throws {
        for encoding in [ImageEncoding.jpeg(JPEGOptions(quality: 95)), .webp(WebPOptions(quality: 95))] {
            let bytes = try ImageCodec.encode(image, as: encoding, destination: "x")
            let decoded = try ImageCodec.decode(bytes, source: "x")
            XCTAssertEqual(decoded.format, encoding.format)
            XCTAssertTrue(decoded.isLossy)
            XCTAssertFalse(decoded.image.hasAlpha)
            XCTAssertTrue(decoded.image.pixels.allSatisfy { $0 >> 24 == 0xFF }, "fourth byte 0xFF")
            var error = 0
            for (a, b) in zip(decoded.image.pixels, image.pixels) {
                let green = Int(a >> 8 & 0xFF), expected = Int(b >> 8 & 0xFF)
                error += abs(green - expected)
            }
            XCTAssertLessThan(Double(error) / Double(image.pixels.count), 6, "\(encoding.format) mean green error")
        }
        let lossless = try ImageCodec.decode(try WebPCodec.encode(image, options: WebPOptions(quality: 0, lossless: true), destination: "x"),
                                             source: "x")
        XCTAssertFalse(lossless.isLossy)
        XCTAssertEqual(lossless.image.pixels, image.pixels.map { $0 | 0xFF00_0000 })
    }

    func testWebPAlphaSurvives() throws {
        var translucent = image
        translucent.hasAlpha = true
        translucent[3, 4] = 0x8011_2233
        let decoded = try WebPCodec.decode(try WebPCodec.encode(translucent, options: WebPOptions(quality: 0, lossless: true), destination: "x"),
                                           source: "x")
        XCTAssertTrue(decoded.hasAlpha)
        XCTAssertEqual(decoded[3, 4], 0x8011_2233)
    }

    func testLimitsAreCheckedFromTheHeader() throws {
        let tight = DecodeLimits(maxWidth: 100, maxHeight: 100, maxPixels: 10_000, maxInputBytes: 1 << 20)
        for bytes in [try JPEGEncoder.encode(image, destination: "x"), try WebPCodec.encode(image, destination: "x")] {
            XCTAssertThrowsError(try ImageCodec.decode(bytes, source: "big", limits: tight)) { error in
                XCTAssertEqual((error as? ImagingError)?.kind, .tooLarge)
                XCTAssertTrue("\(error)".hasPrefix("big: image is 160x120, over the limit"), "\(error)")
            }
        }
        XCTAssertThrowsError(try ImageCodec.decode(Array("8BPS\u{0}\u{1}".utf8), source: "x.psd")) { error in
            XCTAssertEqual((error as? ImagingError)?.kind, .unknownFormat)
        }
        XCTAssertThrowsError(try ImageCodec.decode(Array("GIF89a".utf8), source: "x.gif")) { error in
            XCTAssertEqual((error as? ImagingError)?.kind, .truncated, "a GIF cut after its signature")
        }
    }

    /// libjpeg-based tools (scrot, ImageMagick, GIMP) write the standard tables scaled by
    /// quality, so the estimate gives their quality back.
    func testQualityEstimateGivesLibjpegsQualityBack() throws {
        for quality in [10, 50, 75, 85, 90, 100] {
            let bytes = try JPEGEncoder.encode(image, options: JPEGOptions(quality: quality, fullChroma: false), destination: "x")
            XCTAssertEqual(JPEGQuality.estimate(bytes), quality)
        }
        XCTAssertNil(JPEGQuality.estimate(Array("no tables".utf8)))
    }

    func testMatchingKeepsTheOriginalsFormat() throws {
        let scrotLike = try JPEGEncoder.encode(image, options: JPEGOptions(quality: 75, fullChroma: false), destination: "x")
        guard case .jpeg(let jpeg)? = ImageEncoding.matching(original: scrotLike) else { return XCTFail("not JPEG") }
        XCTAssertEqual(jpeg, JPEGOptions(quality: 75, fullChroma: false))
        let full = try JPEGEncoder.encode(image, options: JPEGOptions(quality: 92), destination: "x")
        guard case .jpeg(let fullOptions)? = ImageEncoding.matching(original: full) else { return XCTFail("not JPEG") }
        XCTAssertEqual(fullOptions, JPEGOptions(quality: 92, fullChroma: true))
        let lossless = try WebPCodec.encode(image, options: WebPOptions(quality: 0, lossless: true), destination: "x")
        guard case .webp(let webp)? = ImageEncoding.matching(original: lossless) else { return XCTFail("not WebP") }
        XCTAssertTrue(webp.lossless)
        guard case .webp(let lossy)? = ImageEncoding.matching(original: try WebPCodec.encode(image, destination: "x")) else {
            return XCTFail("not WebP")
        }
        XCTAssertEqual(lossy, WebPOptions(quality: 90, lossless: false))
        guard case .png? = ImageEncoding.matching(original: try PNGEncoder.encode(image, destination: "x")) else { return XCTFail("not PNG") }
        XCTAssertNil(ImageEncoding.matching(original: Array("text".utf8)))
    }

    func testQualityOutOfRangeIsAnEncodeError() {
        XCTAssertThrowsError(try JPEGEncoder.encode(image, options: JPEGOptions(quality: 0), destination: "out.jpg")) { error in
            XCTAssertEqual("\(error)", "out.jpg: JPEG quality 0 is not in 1-100")
        }
    }
}
