// JPEG and WebP screenshots through the agent: placed, reported redacted, rewritten in their
// own format; and a screenshot showing a pop-up that was gone at the event leaks nothing.
import Foundation
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import ShotguardScene
import XCTest

final class GuardFormatTests: WatchDesktopTestCase {
    override class var serverHasRecord: Bool { false }

    private func agent() throws -> WatchAgent {
        try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools"], sandbox: sandbox, display: desk.name)
    }

    /// Runs `command`, which writes `made/NAME`, then moves the file into the watched folder.
    private func screenshot(_ name: String, _ command: String) throws -> String {
        try runTool(command, display: desk.name)
        let path = shots + "/" + name
        XCTAssertEqual(rename(sandbox.path("made/\(name)"), path), 0, "move into the watched folder")
        return path
    }

    private func decodeFile(_ path: String) throws -> (image: PixelBuffer, format: ImageFormat) {
        let decoded = try ImageCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
        return (decoded.image, decoded.format)
    }

    func testAScrotJPEGOfTheScreenIsReportedRedactedAndRewrittenAsJPEG() throws {
        let screen = try desk.screen()
        let watch = try agent()
        let path = try screenshot("shot.jpg", "scrot -q 75 -o '\(sandbox.path("made/shot.jpg"))'")
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual((report.json["image"] as? [String: Any])?["source"] as? String, "file")
        XCTAssertEqual((report.json["guard"] as? [String: Any])?["file"] as? String, "rewritten", watch.log)
        let expected = try desk.expectedRedactions()
        assertRedactedLossy(report.image, origin: fullScreen, screen: screen, expected: expected, exactFills: true)
        let rewritten = try decodeFile(path)
        XCTAssertEqual(rewritten.format, .jpeg, "rewritten in its own format")
        assertRedactedLossy(rewritten.image, origin: fullScreen, screen: screen, expected: expected, exactFills: false)
    }

    func testAScrotJPEGRegionIsPlacedAtItsOffset() throws {
        let screen = try desk.screen()
        let watch = try agent()
        // Across the Vault window's redacted row and the wallpaper beside it.
        let region = Rect(x: 20, y: 50, width: 300, height: 150)
        let path = try screenshot("region.jpg", "scrot -q 75 -a 20,50,300,150 -o '\(sandbox.path("made/region.jpg"))'")
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual((report.json["alignment"] as? [String: Any])?["geometry"] as? String, "300x150+20+50", watch.log)
        let expected = try desk.expectedRedactions().filter { !$0.rect.intersection(region).isEmpty }
        XCTAssertEqual(expected.count, 1, "the region holds the Vault's row")
        assertRedactedLossy(report.image, origin: region, screen: screen, expected: expected, exactFills: true)
        let rewritten = try decodeFile(path)
        XCTAssertEqual(rewritten.format, .jpeg)
        assertRedactedLossy(rewritten.image, origin: region, screen: screen, expected: expected, exactFills: false)
    }

    func testAWebPInTheFolderIsReportedRedactedAndRewrittenAsWebP() throws {
        let screen = try desk.screen()
        let watch = try agent()
        let made = sandbox.path("made/shot.png")
        let path = try screenshot("shot.webp", "maim -u '\(made)' && cwebp -quiet -q 90 '\(made)' -o '\(sandbox.path("made/shot.webp"))'")
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual((report.json["guard"] as? [String: Any])?["file"] as? String, "rewritten", watch.log)
        let expected = try desk.expectedRedactions()
        assertRedactedLossy(report.image, origin: fullScreen, screen: screen, expected: expected, exactFills: true)
        let rewritten = try decodeFile(path)
        XCTAssertEqual(rewritten.format, .webp, "rewritten in its own format")
        assertRedactedLossy(rewritten.image, origin: fullScreen, screen: screen, expected: expected, exactFills: false)
    }

    /// A tool that captures, then saves after a pop-up has gone: the pop-up is in the file but
    /// was not on the screen at the event, and no rule covers it. Nothing of it may leak.
    func testAPopUpGoneBeforeTheSaveLeaksNothing() throws {
        let magenta: UInt32 = 0xFF00FF
        var content = PixelBuffer(width: 100, height: 80)
        for y in 0..<80 { for x in 0..<100 { content[x, y] = 0xFF00_0000 | magenta } }
        let popUp = try PaintedWindow(display: desk.display, frame: Rect(x: 420, y: 40, width: 100, height: 80),
                                      content: content, instance: "popup", className: "PopUp", title: "Pop-up")
        let watch = try agent()  // first: guard touches only files written while it runs
        let made = sandbox.path("made/delayed.png")
        try runTool("scrot -o '\(made)'", display: desk.name)
        popUp.destroy()
        XCTAssertGreaterThan(try magentaPixels(in: decodeFile(made).image), 7000, "the pop-up is in the screenshot")

        let path = shots + "/Screenshot from 2026-12-01 12-00-00.png"
        XCTAssertEqual(rename(made, path), 0)
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual((report.json["guard"] as? [String: Any])?["file"] as? String, "quarantined", watch.log)
        XCTAssertEqual(report.image.map(magentaPixels) ?? 0, 0, "the report shows none of the pop-up")
        XCTAssertEqual(try magentaPixels(in: decodeFile(path).image), 0, "the file in its place shows none of it")
    }

    private func magentaPixels(in image: PixelBuffer) -> Int {
        var count = 0
        for y in 0..<image.height { for x in 0..<image.width where image[x, y] & 0xFF_FFFF == 0xFF00FF { count += 1 } }
        return count
    }
}

/// Like `assertRedacted`, for an image that went through lossy compression: outside the fills
/// the mean error per channel stays within JPEG's; inside, the fills are exact (the report,
/// redacted after decoding) or dark within the lossy error (a re-encoded file), away from the
/// edges where the codec's blocks mix in the neighbours.
func assertRedactedLossy(_ image: PixelBuffer?, origin: Rect, screen: PixelBuffer, expected: [(rect: Rect, fill: UInt32)],
                         exactFills: Bool, file: StaticString = #filePath, line: UInt = #line) {
    guard let image else { return XCTFail("no image", file: file, line: line) }
    XCTAssertEqual(image.width, origin.width, file: file, line: line)
    XCTAssertEqual(image.height, origin.height, file: file, line: line)
    guard image.width == origin.width, image.height == origin.height else { return }
    /// The sum of the three channels' absolute differences.
    func distance(_ a: UInt32, _ b: UInt32) -> Int {
        abs(Int(a >> 16 & 0xFF) - Int(b >> 16 & 0xFF)) + abs(Int(a >> 8 & 0xFF) - Int(b >> 8 & 0xFF)) + abs(Int(a & 0xFF) - Int(b & 0xFF))
    }
    var outsideError = 0, outsideCount = 0, fillFailures = 0, fillError = 0, fillCount = 0
    for y in 0..<image.height {
        for x in 0..<image.width {
            let (sx, sy) = (origin.x + x, origin.y + y)
            let got = image[x, y]
            if let rule = expected.first(where: { $0.rect.contains(x: sx, y: sy) }) {
                let inner = inset(rule.rect, by: 8)
                if exactFills {
                    if got & 0xFF_FFFF != rule.fill { fillFailures += 1 }
                } else if inner.contains(x: sx, y: sy) {
                    fillError += distance(got, rule.fill)
                    fillCount += 3
                }
            } else if !expected.contains(where: { inset($0.rect, by: -8).contains(x: sx, y: sy) }) {
                outsideError += distance(got, screen[sx, sy])
                outsideCount += 3
            }
        }
    }
    XCTAssertEqual(fillFailures, 0, "pixels of the fills differ from the fill", file: file, line: line)
    if fillCount > 0 {
        XCTAssertLessThan(Double(fillError) / Double(fillCount), 6, "the fills are the fill colour within lossy error",
                          file: file, line: line)
    }
    XCTAssertGreaterThan(outsideCount, 0, file: file, line: line)
    XCTAssertLessThan(Double(outsideError) / Double(max(1, outsideCount)), 24, "the rest is the screen within lossy error",
                      file: file, line: line)
}

/// `rect` shrunk by `amount` on every side (grown when negative).
private func inset(_ rect: Rect, by amount: Int) -> Rect {
    Rect(x: rect.x + amount, y: rect.y + amount, width: max(0, rect.width - 2 * amount), height: max(0, rect.height - 2 * amount))
}
