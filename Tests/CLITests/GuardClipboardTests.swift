// Guard on the clipboard, end to end: what `xclip -o` pastes after the takeover is redacted.
import Foundation
import ShotguardBase
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import XCTest

final class GuardClipboardTests: WatchDesktopTestCase {
    override class var serverHasRecord: Bool { false }

    private func agent() throws -> WatchAgent {
        try WatchAgent(["--regions", regions, "--no-files", "--no-tools"], sandbox: sandbox, display: desk.name)
    }

    /// A full-screen maim screenshot, made outside every watched place; its path.
    private func screenshot() throws -> String {
        let path = sandbox.path("made/screen.png")
        try runTool("maim -u '\(path)'", display: desk.name)
        return path
    }

    private func copy(_ path: String) throws {
        try runTool("xclip -selection clipboard -t image/png -i '\(path)'", display: desk.name)
    }

    /// What a paste gets now: `xclip -o` of image/png from CLIPBOARD, decoded.
    private func paste() throws -> PixelBuffer {
        let output = sandbox.path("made/pasted.png")
        try runTool("xclip -selection clipboard -t image/png -o > '\(output)'", display: desk.name)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
        return try PNGDecoder.decode(bytes, source: "the pasted image")
    }

    func testAPasteAfterTheTakeoverIsTheRedactedImage() throws {
        let screen = try desk.screen()
        let watch = try agent()
        try copy(try screenshot())
        XCTAssertTrue(watch.waitForClipboardReplaced(), watch.log)
        assertRedacted(try paste(), origin: fullScreen, screen: screen, expected: try desk.expectedRedactions())
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual((report.json["guard"] as? [String: Any])?["clipboard"] as? String, "replaced")
    }

    /// The same screenshot copied again by a new owner (a key binding run twice) is a fresh copy:
    /// guarded again, with no retake counted and no second report.
    func testTheSameScreenshotCopiedAgainIsGuardedAgain() throws {
        let screen = try desk.screen()
        let watch = try agent()
        let shot = try screenshot()
        try copy(shot)
        XCTAssertTrue(watch.waitForClipboardReplaced(), watch.log)
        try copy(shot)
        XCTAssertTrue(watch.waitForClipboardReplaced(count: 2), watch.log)
        XCTAssertEqual(watch.events("clipboard-retake").count, 0, "a new owner's copy is no retake: \(watch.log)")
        assertRedacted(try paste(), origin: fullScreen, screen: screen, expected: try desk.expectedRedactions())
        XCTAssertNotNil(watch.nextReport(), watch.log)
        XCTAssertTrue(watch.waitUntilSettled(examined: 2), "both copies examined and their events settled: \(watch.events)")
        XCTAssertNil(watch.nextReport(seconds: 0), "the same screenshot again makes no second report")
    }

    /// On SIGTERM the agent hands its redacted image to the clipboard manager, which keeps it.
    func testOnSIGTERMTheRedactedImageIsHandedToTheClipboardManager() throws {
        let screen = try desk.screen()
        let saved = sandbox.path("made/saved.png")
        let said = try sandbox.write("made/manager.out", [])
        let changes = try FileChanges([said])
        let manager = try ChildProcess("/bin/sh", ["-c", "exec /usr/bin/python3 '\(Self.managerScript)' '\(saved)' > '\(said)'"],
                                       environment: ["DISPLAY": desk.name], output: .standardError)
        defer { manager.stop() }
        XCTAssertTrue(changes.wait(seconds: 10) { (try? String(contentsOfFile: said, encoding: .utf8))?.contains("ready") ?? false },
                      "the clipboard manager did not start")
        let watch = try agent()
        XCTAssertEqual(watch.events("clipboard-manager").count, 1, "the start warns of the manager's history: \(watch.log)")
        try copy(try screenshot())
        XCTAssertTrue(watch.waitForClipboardReplaced(), watch.log)

        watch.send(SIGTERM)
        XCTAssertEqual(watch.waitForExit(seconds: 10), 0, watch.log)
        XCTAssertTrue(watch.events("clipboard-handoff").contains { $0["saved"] as? Bool == true }, "handed to the manager: \(watch.log)")
        XCTAssertEqual(manager.waitForExit(), 0)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: saved)))
        assertRedacted(try PNGDecoder.decode(bytes, source: saved), origin: fullScreen, screen: screen,
                       expected: try desk.expectedRedactions())
    }

    /// The small clipboard manager the tests share.
    static let managerScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/clipboard-manager.py").path
}
