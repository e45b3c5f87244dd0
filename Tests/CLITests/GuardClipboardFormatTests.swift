// Guard on the clipboard for images offered as JPEG or WebP, or in several formats at once:
// the agent reads the best target offered, and every target a paste may ask for is redacted.
import Foundation
import ShotguardBase
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import XCTest

final class GuardClipboardFormatTests: WatchDesktopTestCase {
    override class var serverHasRecord: Bool { false }

    private func agent() throws -> WatchAgent {
        try WatchAgent(["--regions", regions, "--no-files", "--no-tools"], sandbox: sandbox, display: desk.name)
    }

    /// What a paste of `target` gets now from CLIPBOARD, with the format its bytes are in.
    private func paste(_ target: String) throws -> DecodedImage {
        let output = sandbox.path("made/pasted")
        try runTool("xclip -selection clipboard -t \(target) -o > '\(output)'", display: desk.name)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
        return try ImageCodec.decode(bytes, source: "the pasted \(target)")
    }

    private func offeredTargets() throws -> [String] {
        let output = sandbox.path("made/targets")
        try runTool("xclip -selection clipboard -t TARGETS -o > '\(output)'", display: desk.name)
        return try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// A tool that copies a JPEG screenshot (chroma halved, as scrot makes it): the agent reads
    /// image/jpeg, places it, and a paste of either format is redacted. (Quality 90: at 75 the
    /// wallpaper's noise alone comes close to the lossy bound of the comparison.)
    func testAJPEGOnTheClipboardIsServedRedactedAsJPEGAndPNG() throws {
        let screen = try desk.screen()
        let watch = try agent()
        let shot = sandbox.path("made/shot.jpg")
        try runTool("scrot -q 90 -o '\(shot)' && xclip -selection clipboard -t image/jpeg -i '\(shot)'", display: desk.name)
        XCTAssertTrue(watch.waitForClipboardReplaced(), watch.log)
        XCTAssertTrue(watch.events("clipboard").contains { $0["type"] as? String == "image/jpeg" }, watch.log)
        let targets = try offeredTargets()
        XCTAssertEqual(targets.filter { $0.hasPrefix("image/") }, ["image/png", "image/jpeg"])
        let expected = try desk.expectedRedactions()
        let jpeg = try paste("image/jpeg")
        XCTAssertEqual(jpeg.format, .jpeg, "image/jpeg is served as JPEG")
        assertRedactedLossy(jpeg.image, origin: fullScreen, screen: screen, expected: expected, exactFills: false)
        let png = try paste("image/png")
        XCTAssertEqual(png.format, .png)
        assertRedactedLossy(png.image, origin: fullScreen, screen: screen, expected: expected, exactFills: true)
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual((report.json["guard"] as? [String: Any])?["clipboard"] as? String, "replaced")
    }

    func testAWebPOnTheClipboardIsServedRedactedAsWebPAndPNG() throws {
        let screen = try desk.screen()
        let watch = try agent()
        let made = sandbox.path("made/shot.png"), shot = sandbox.path("made/shot.webp")
        try runTool("maim -u '\(made)' && cwebp -quiet -q 90 '\(made)' -o '\(shot)' "
            + "&& xclip -selection clipboard -t image/webp -i '\(shot)'", display: desk.name)
        XCTAssertTrue(watch.waitForClipboardReplaced(), watch.log)
        let expected = try desk.expectedRedactions()
        let webp = try paste("image/webp")
        XCTAssertEqual(webp.format, .webp, "image/webp is served as WebP")
        assertRedactedLossy(webp.image, origin: fullScreen, screen: screen, expected: expected, exactFills: false)
        assertRedactedLossy(try paste("image/png").image, origin: fullScreen, screen: screen, expected: expected, exactFills: true)
    }

    /// An owner that offers the screenshot as PNG and as JPEG: the PNG is read (lossless), and
    /// a program that asks for image/jpeg gets the redacted image too, never the original.
    /// (A region, across the Vault window's redacted row: the owner sends no INCR.)
    func testEveryImageTargetTheOwnerOfferedIsRedacted() throws {
        let screen = try desk.screen()
        let region = Rect(x: 20, y: 50, width: 300, height: 150)
        let png = sandbox.path("made/shot.png"), jpeg = sandbox.path("made/shot.jpg")
        try runTool("maim -u -g 300x150+20+50 '\(png)' && convert '\(png)' -quality 92 '\(jpeg)'", display: desk.name)
        let watch = try agent()
        let said = sandbox.path("made/owner.out")
        let owner = try ChildProcess("/bin/sh", ["-c", "exec /usr/bin/python3 '\(Self.ownerScript)' "
                                                 + "'image/png=\(png)' 'image/jpeg=\(jpeg)' > '\(said)'"],
                                     environment: ["DISPLAY": desk.name], output: .standardError)
        defer { owner.stop() }
        XCTAssertTrue(watch.waitForClipboardReplaced(), watch.log)
        XCTAssertTrue(watch.events("clipboard").contains { $0["type"] as? String == "image/png" }, "PNG is read when offered: \(watch.log)")
        // SAVE_TARGETS is the agent's: the owner in small offers none.
        let targets = try offeredTargets()
        XCTAssertTrue(targets.contains("SAVE_TARGETS"), "the agent owns CLIPBOARD: \(targets)")
        XCTAssertEqual(targets.filter { $0.hasPrefix("image/") }, ["image/png", "image/jpeg"])
        let expected = try desk.expectedRedactions().filter { !$0.rect.intersection(region).isEmpty }
        XCTAssertEqual(expected.count, 1, "the region holds the Vault's row")
        assertRedacted(try paste("image/png").image, origin: region, screen: screen, expected: expected)
        let pastedJPEG = try paste("image/jpeg")
        XCTAssertEqual(pastedJPEG.format, .jpeg)
        assertRedactedLossy(pastedJPEG.image, origin: region, screen: screen, expected: expected, exactFills: false)
    }

    static let ownerScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/clipboard-owner.py").path
}
