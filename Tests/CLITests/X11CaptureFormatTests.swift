// `capture -o shot.jpg` and `shot.webp` on a known desktop: the format asked for, the rules' covers in place.
import ShotguardImaging
import ShotguardTestSupport
import XCTest

final class X11CaptureFormatTests: X11DesktopTestCase {
    nonisolated(unsafe) static let desktop = X11Scene.desktop()
    override class var sharedDesktop: X11Desktop { desktop }

    func testJPEGAndWebPCapturesAreRedacted() throws {
        let expected = X11Scene.redacted(desktop.screen)
        for (name, format) in [("shot.jpg", ImageFormat.jpeg), ("shot.webp", .webp)] {
            let result = try desktop.run(["capture", "--regions", rules, "-o", name, "--quality", "100"], in: sandbox)
            XCTAssertEqual(result.status, 0, "stderr: \(result.stderr)")
            XCTAssertEqual(result.stderr, "")
            let decoded = try ImageCodec.decode(try sandbox.bytes(name), source: name)
            XCTAssertEqual(decoded.format, format)
            assertClose(decoded.image, to: expected, name)
        }
        assertOnlyFiles(["rules", "shot.jpg", "shot.webp"], in: sandbox)
    }

    /// The lossless formats hold the redacted screen exactly; GIF (the wallpaper has thousands
    /// of colours, quantised to 256) and AVIF come close, their covers solid.
    func testEveryWrittenFormatHoldsTheRedactedCapture() throws {
        let expected = X11Scene.redacted(desktop.screen)
        let names = ["shot.tiff", "shot.ppm", "shot.pgm", "shot.pam", "shot.xwd", "shot.gif", "shot.avif"]
        for name in names {
            let result = try desktop.run(["capture", "--regions", rules, "-o", name], in: sandbox)
            XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
            let decoded = try ImageCodec.decode(try sandbox.bytes(name), source: name)
            XCTAssertEqual(decoded.format, ImageFormat(path: name), name)
            switch name {
            case "shot.gif", "shot.avif": assertClose(decoded.image, to: expected, name)
            case "shot.pgm": XCTAssertEqual(decoded.image.pixels.map(grey), expected.pixels.map(grey), name)
            default: XCTAssertEqual(decoded.image.pixels.map { $0 | 0xFF00_0000 }, expected.pixels.map { $0 | 0xFF00_0000 }, name)
            }
        }
        assertOnlyFiles(Set(["rules"] + names), in: sandbox)
    }

    /// The luma PGM keeps (ITU-R 601 weights), as an opaque grey pixel.
    private func grey(_ pixel: UInt32) -> UInt32 {
        let luma = (299 * (pixel >> 16 & 0xFF) + 587 * (pixel >> 8 & 0xFF) + 114 * (pixel & 0xFF) + 500) / 1000
        return 0xFF00_0000 | luma << 16 | luma << 8 | luma
    }

    func testFormatToStandardOutput() throws {
        let result = try desktop.run(["capture", "--regions", rules, "--geometry", "100x80+30+20", "--format", "webp",
                                      "--quality", "100", "-o", "-"], in: sandbox)
        XCTAssertEqual(result.status, 0, "stderr: \(result.stderr)")
        let decoded = try ImageCodec.decode(result.stdout, source: "stdout")
        XCTAssertEqual(decoded.format, .webp)
        let area = Rect(x: 30, y: 20, width: 100, height: 80)
        assertClose(decoded.image, to: X11Scene.redacted(desktop.screen, area: area), "stdout", area: area)
        assertOnlyFiles(["rules"], in: sandbox)
    }

    func testAnUnknownExtensionCapturesNothing() throws {
        let result = try desktop.run(["capture", "--regions", rules, "-o", "shot.heic"], in: sandbox)
        assertFailure(result, status: 2, prefix: "shotguard: -o 'shot.heic': ", mentions: ["--format"])
        assertOnlyFiles(["rules"], in: sandbox)
    }

    /// Every cover's inside (away from edges that lossy coding softens) is its fill; the
    /// picture as a whole is close to the expected one. The wallpaper changes at every pixel,
    /// the worst case for lossy coding, hence the loose mean.
    private func assertClose(_ image: PixelBuffer, to expected: PixelBuffer, _ name: String, area: Rect? = nil,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(image.width, expected.width, name, file: file, line: line)
        XCTAssertEqual(image.height, expected.height, name, file: file, line: line)
        guard image.width == expected.width, image.height == expected.height else { return }
        var total = 0
        for index in image.pixels.indices {
            let a = image.pixels[index], b = expected.pixels[index]
            for shift: UInt32 in [0, 8, 16] { total += abs(Int(a >> shift & 0xFF) - Int(b >> shift & 0xFF)) }
        }
        XCTAssertLessThan(Double(total) / Double(image.pixels.count * 3), 12, "mean error of \(name)", file: file, line: line)
        for (rect, rgb) in X11Scene.covers(inImageAt: area ?? desktop.screen.bounds) {
            let inner = rect.intersection(image.bounds)
            guard inner.width > 6, inner.height > 6 else { continue }
            for y in (inner.y + 3)..<(inner.maxY - 3) {
                for x in (inner.x + 3)..<(inner.maxX - 3) {
                    let pixel = image[x, y]
                    var worst = 0
                    for shift: UInt32 in [0, 8, 16] {
                        let channel = Int(pixel >> shift & 0xFF), fill = Int(rgb >> shift & 0xFF)
                        worst = max(worst, abs(channel - fill))
                    }
                    if worst > 40 {
                        XCTFail("\(name): pixel (\(x), \(y)) is \(hex(pixel)), not near the cover \(hex(rgb))", file: file, line: line)
                        return
                    }
                }
            }
        }
    }
}
