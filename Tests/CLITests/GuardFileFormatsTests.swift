// Screenshots in GIF, TIFF, PPM, PAM, XWD and AVIF, written by real tools into the watched folder:
// each is rewritten redacted in its own format, the protected window covered and the rest kept.
import Foundation
import ShotguardImaging
import ShotguardTestSupport
import XCTest

final class GuardFileFormatsTests: WatchDesktopTestCase {
    // The tools write straight into the folder; without RECORD the agent knows them by name.
    override class var serverHasRecord: Bool { false }
    // 8 colours below the title bars: ImageMagick's GIF of a region there keeps every pixel.
    override class var fewColours: Bool { true }

    private func agent() throws -> WatchAgent {
        try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools"], sandbox: sandbox, display: desk.name)
    }

    /// Runs `command` (which writes `shots/NAME` itself, as a user's screenshot command does)
    /// while the agent watches, then checks the file it rewrote: the same format (and, when
    /// `lossy` is false, exactly the screen with the rules' fills).
    private func assertRewritten(_ name: String, _ command: (String) -> String, format: ImageFormat, lossy: Bool = false,
                                 region: Rect? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        let screen = try desk.screen()
        let watch = try agent()
        let path = shots + "/" + name
        try runTool(command(path), display: desk.name, file: file, line: line)
        let report = try XCTUnwrap(watch.nextReport(), watch.log, file: file, line: line)
        XCTAssertEqual((report.json["guard"] as? [String: Any])?["file"] as? String, "rewritten", watch.log, file: file, line: line)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let rewritten = try ImageCodec.decode(bytes, source: path)
        XCTAssertEqual(rewritten.format, format, "rewritten in its own format", file: file, line: line)
        let origin = region ?? fullScreen
        let expected = try desk.expectedRedactions().filter { !$0.rect.intersection(origin).isEmpty }
        XCTAssertFalse(expected.isEmpty, "the screenshot shows a protected area", file: file, line: line)
        if lossy {
            assertRedactedLossy(rewritten.image, origin: origin, screen: screen, expected: expected, exactFills: false,
                                file: file, line: line)
        } else {
            assertRedacted(rewritten.image, origin: origin, screen: screen, expected: expected, file: file, line: line)
        }
    }

    func testATIFFFromImportIsRewrittenAsTIFF() throws {
        try assertRewritten("Screenshot-1.tiff", { "import -window root '\($0)'" }, format: .tiff)
    }

    func testAnXWDFromXwdIsRewrittenAsXWD() throws {
        try assertRewritten("Screenshot-2.xwd", { "xwd -root -silent -out '\($0)'" }, format: .xwd)
    }

    func testAPPMFromScrotIsRewrittenAsPPM() throws {
        try assertRewritten("Screenshot-3.ppm", { "scrot -o '\($0)'" }, format: .pnm)
    }

    /// A region below the title bars (whose antialiased text and gradients take hundreds of
    /// colours), across the Vault's covered row: 8 colours, which the GIF keeps exactly.
    func testAGIFFromImportIsRewrittenAsGIF() throws {
        let region = Rect(x: 0, y: 100, width: 320, height: 75)
        try assertRewritten("Screenshot-4.gif", { "import -window root -crop 320x75+0+100 +repage '\($0)'" }, format: .gif,
                            region: region)
    }

    func testAPAMIsRewrittenAsPAM() throws {
        let made = sandbox.path("made/screen.png")
        try assertRewritten("Screenshot-5.pam", { "scrot -o '\(made)' && /usr/bin/convert '\(made)' '\($0)'" }, format: .pnm)
    }

    func testAnAVIFFromImportIsRewrittenAsAVIF() throws {
        try assertRewritten("Screenshot-6.avif", { "import -window root -quality 95 '\($0)'" }, format: .avif, lossy: true)
    }

    /// An animation cannot be rewritten frame by frame (the rules were resolved for one moment):
    /// a screenshot's animated GIF is set aside whole, behind a one-frame GIF placeholder, and
    /// `quarantine restore -o` gives back every byte of it.
    func testAnAnimatedGIFIsSetAsideWholeBehindAGIFPlaceholder() throws {
        let watch = try agent()
        let made = sandbox.path("made/frame.png"), path = shots + "/Screenshot-7.gif"
        try runTool("import -window root -crop 320x75+0+100 +repage '\(made)' && "
            + "/usr/bin/convert -delay 20 '\(made)' '\(made)' '\(path)'", display: desk.name)
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        let guardObject = try XCTUnwrap(report.json["guard"] as? [String: Any], watch.log)
        XCTAssertEqual(guardObject["file"] as? String, "quarantined", watch.log)
        let placeholder = try ImageCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
        XCTAssertEqual(placeholder.format, .gif, "the placeholder is in the file's own format")
        let id = try XCTUnwrap(guardObject["quarantine"] as? String)
        let copy = sandbox.path("restored.gif")
        XCTAssertEqual(try sandbox.run(["quarantine", "restore", id, "-o", copy]).status, 0)
        XCTAssertEqual([UInt8](try Data(contentsOf: URL(fileURLWithPath: copy))), original)
    }
}
