// Rules hold over the whole capture: a protected pop-up gone before the agent looked, a shield's own covers, two files set aside at once.
import Foundation
import ShotguardImaging
import ShotguardScene
import ShotguardTestSupport
import ShotguardX11
import ShotguardBase
import XCTest

/// With RECORD, as on a desktop.
final class CaptureMomentTests: WatchDesktopTestCase {
    /// The colour of the pop-up: no pixel of the wallpaper or the windows has it.
    private static let popupColour: UInt32 = 0xFF00FF

    private func magentaPixels(in image: PixelBuffer, within rect: Rect) -> Int {
        var count = 0
        for y in rect.y..<rect.maxY { for x in rect.x..<rect.maxX where image[x, y] & 0xFF_FFFF == Self.popupColour { count += 1 } }
        return count
    }

    /// Regression: a protected pop-up (a code in a notification) that was on screen when the
    /// screenshot was taken but gone when the agent grabbed the screen passed as "small areas
    /// differ from the screen, far from every rule (something moving)": its pixels stayed in the
    /// file and the report. The agent is stopped while scrot reads and writes, and the pop-up
    /// closes before it runs again, as under load or with a delayed save.
    func testAProtectedPopUpClosedBeforeTheAgentLookedIsCoveredWhereItWas() throws {
        let rules = try sandbox.write("regions-popup", text: WatchDesktop.regions + "window class=Popup\n")
        let watch = try WatchAgent(["--regions", rules, "--dir", shots, "--no-clipboard"], sandbox: sandbox, display: desk.name)
        let frame = Rect(x: 400, y: 40, width: 120, height: 60)
        var content = PixelBuffer(width: frame.width, height: frame.height)
        for index in content.pixels.indices { content.pixels[index] = 0xFF00_0000 | Self.popupColour }
        let popup = try PaintedWindow(display: desk.display, frame: frame, content: content, instance: "popup", className: "Popup",
                                      title: "Your code", popup: true)
        defer { popup.destroy() }
        // The agent knows the pop-up is protected: the vault's row, the clock corner and the pop-up.
        XCTAssertTrue(watch.waitForEvent("protection") { $0["rectangles"] as? Int == 3 }, watch.log)

        watch.send(SIGSTOP)
        let path = shots + "/Screenshot-popup.png"
        try runTool("scrot -o '\(path)'", display: desk.name)
        let taken = try PNGDecoder.decode(try sandbox.bytes(at: path), source: path)
        XCTAssertEqual(magentaPixels(in: taken, within: frame), frame.area, "scrot saw the pop-up")
        popup.destroy()
        watch.send(SIGCONT)

        XCTAssertTrue(watch.waitForEvent("examined", seconds: 20) { $0["name"] as? String == path && $0["file"] as? String == "rewritten" },
                      watch.log)
        let file = try PNGDecoder.decode(try sandbox.bytes(at: path), source: path)
        XCTAssertEqual(magentaPixels(in: file, within: file.bounds), 0, "no pixel of the pop-up is left in the file")
        let report = try XCTUnwrap(watch.nextReport(seconds: 20), watch.log)
        let image = try XCTUnwrap(report.image, "the report keeps its redacted image")
        XCTAssertEqual(magentaPixels(in: image, within: image.bounds), 0, "nor in the report")
        let redactions = (report.json["redactions"] as? [[String: Any]] ?? []).compactMap { $0["geometry"] as? String }
        XCTAssertTrue(redactions.contains(frame.description), "\(redactions)")
    }

    /// Regression: `shotguard shield -- scrot` while a window was protected with `shotguard
    /// protect` gave a grey placeholder ("differs from the screen … where no rule covers it"):
    /// the agent took the shield's covers for windows of the user's. Five screenshots in a row,
    /// each redacted in place.
    func testAShieldedScreenshotOfAProtectedWindowIsRedactedNotReplaced() throws {
        let watch = try agent()
        let protect = try sandbox.run(["protect", "--window", hexID(UInt(desk.notes.id))], environment: ["DISPLAY": desk.name])
        XCTAssertEqual(protect.status, 0, protect.stderr)
        XCTAssertTrue(watch.waitForEvent("protection") { $0["rectangles"] as? Int == 3 }, watch.log)
        let notes = try desk.display.geometry(of: desk.notes.id).frame
        for index in 1...5 {
            let path = shots + "/Screenshot-shielded-\(index).png"
            let shield = try sandbox.run(["shield", "--", "scrot", "-o", path], environment: ["DISPLAY": desk.name])
            XCTAssertEqual(shield.status, 0, shield.stderr)
            // Its examination that ended (a look at a file still being written plans another).
            let outcome = watch.waitForExamined(path, seconds: 20)
            XCTAssertEqual(outcome?["file"] as? String, "rewritten", "screenshot \(index): \(watch.log)")
            let file = try PNGDecoder.decode(try sandbox.bytes(at: path), source: path)
            var shown = 0
            for y in notes.y..<notes.maxY { for x in notes.x..<notes.maxX where file[x, y] & 0xFF_FFFF != 0 { shown += 1 } }
            XCTAssertEqual(shown, 0, "screenshot \(index): the protected window is covered")
        }
        _ = try sandbox.run(["protect", "--window", hexID(UInt(desk.notes.id)), "--off"], environment: ["DISPLAY": desk.name])
    }

    /// Regression: two files set aside in one event got the same quarantine ID; the second
    /// entry could not be completed and its file vanished from every list. scrot's command
    /// writes two scaled, mirrored copies (which cannot be placed, so they are set aside) in one event:
    /// both are listed, each under its own ID, and both restore.
    func testTwoFilesSetAsideInOneEventAreBothListedAndRestorable() throws {
        let watch = try agent()
        let first = shots + "/Screenshot-small-1.png", second = shots + "/Screenshot-small-2.png"
        try runTool("cd '\(sandbox.path("made"))' && scrot -o full.png -e 'convert $f -resize 90% -flop \(first) && "
                        + "convert $f -resize 80% -flop \(second)'", display: desk.name)
        for path in [first, second] {
            XCTAssertTrue(watch.waitForEvent("examined", seconds: 20) { $0["name"] as? String == path && $0["file"] as? String == "quarantined" },
                          "\(path): \(watch.log)")
        }
        let list = try sandbox.run(["quarantine", "list", "--json"])
        let entries = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(list.stdout)) as? [[String: Any]], list.stdoutText)
        for path in [first, second] {
            let entry = try XCTUnwrap(entries.first { $0["path"] as? String == path }, "\(path) is listed: \(list.stdoutText)")
            let restored = sandbox.path("made/restored-\(entries.firstIndex { $0["path"] as? String == path } ?? 0).png")
            let restore = try sandbox.run(["quarantine", "restore", try XCTUnwrap(entry["id"] as? String), "-o", restored])
            XCTAssertEqual(restore.status, 0, restore.stderr)
            XCTAssertNoThrow(try PNGDecoder.decode(try sandbox.bytes(at: restored), source: restored), "\(path) restores whole")
        }
        XCTAssertEqual(Set(entries.compactMap { $0["id"] as? String }).count, entries.count, "every ID is its own")
    }

    private func agent() throws -> WatchAgent {
        try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard"], sandbox: sandbox, display: desk.name)
    }
}
