// A program whose process the X server cannot tell (a client over TCP) reading protected pixels: said, and its screenshot guarded where guard watches.
import Foundation
import ShotguardImaging
import ShotguardTestSupport
import ShotguardScene
import ShotguardX11
import XCTest

/// `shotguard watch` (guard on, RECORD) on a server that takes clients over TCP too. The
/// server knows no process for such a client, as for one whose connection closed before the
/// sentinel asked (ImageMagick's `import` on a loaded machine): nothing ties its image to its
/// read, so the agent says it, and guards what lands in a watched folder as ever.
final class UnnamedReaderTests: WatchDesktopTestCase {
    override class var listensOnTCP: Bool { true }

    private func agent() throws -> WatchAgent {
        try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools"], sandbox: sandbox, display: desk.name)
    }

    /// scrot over TCP, saving into a watched folder: the file is rewritten with every rule
    /// applied, and the reader is said to be one the agent cannot follow.
    func testAReaderWithNoProcessIsSaidAndItsFileInAWatchedFolderIsGuarded() throws {
        _ = try requireTool("scrot", package: "scrot")
        let screen = try desk.screen()
        let watch = try agent()
        let path = shots + "/Screenshot-over-tcp.png"
        try runTool("scrot -o '\(path)'", display: desk.tcpName)
        let report = try XCTUnwrap(watch.nextReport(), "no report for \(path): \(watch.log)")
        XCTAssertEqual((report.json["guard"] as? [String: Any])?["file"] as? String, "rewritten", "\(report.json)\n\(watch.log)")
        let written = try ImageCodec.decode([UInt8](try XCTUnwrap(FileManager.default.contents(atPath: path))), source: path).image
        assertRedacted(written, origin: fullScreen, screen: screen, expected: try desk.expectedRedactions())
        XCTAssertTrue(watch.waitForEvent("unfollowed") { ($0["program"] as? String)?.hasPrefix("client 0x") == true }, watch.log)
    }

    /// Reads that the agent can follow, or that hold nothing protected, are not said: the
    /// same scrot on the local socket (its process is known), and a read over TCP of the Notes
    /// window, which no rule covers.
    func testAReaderWithAProcessOrNothingProtectedIsNotSaid() throws {
        _ = try requireTool("scrot", package: "scrot")
        _ = try requireTool("xwd", package: "x11-apps")
        let watch = try agent()
        try runTool("scrot -o '\(shots)/Screenshot-local.png'", display: desk.name)
        XCTAssertNotNil(watch.nextReport(), watch.log)
        // Every event scrot opened settled: the next one is the read over TCP's.
        XCTAssertTrue(watch.wait { !watch.events("settled").isEmpty && watch.events("settled").count == watch.events("capture-event").count },
                      watch.log)
        let opened = watch.events("capture-event").count
        try runTool("xwd -silent -id \(hexID(UInt(desk.notes.id))) > /dev/null", display: desk.tcpName)
        // The read opens a capture event after it is judged: by then it would have been said.
        XCTAssertTrue(watch.waitForEvent("capture-event", count: opened + 1), watch.log)
        XCTAssertEqual(watch.events("unfollowed").count, 0, watch.log)
    }

    /// A crop holding the vault's protected row, closed in a watched folder before the agent
    /// heard the read behind it (`maim -g` gone before the X server was asked about it, on a
    /// loaded machine): left for want of a read, it is examined again when the read is heard,
    /// placed inside what was read, and rewritten redacted. The order is made here: the crop
    /// (pixels grabbed before the agent started) is judged first, the read over TCP comes after.
    /// Regression: it stayed as it was.
    func testACropLeftBeforeItsReadWasHeardIsRedactedWhenItIs() throws {
        _ = try requireTool("xwd", package: "x11-apps")
        let screen = try desk.screen()
        let vault = try desk.display.geometry(of: desk.vault.id).frame
        let crop = Rect(x: vault.x - 10, y: vault.y + 5, width: vault.width + 30, height: 70).intersection(fullScreen)
        let watch = try agent()
        let path = shots + "/crop.png"
        // Written beside the folder, then moved in whole: the agent sees it complete.
        let written = try sandbox.write("staging/crop.png", png: screen.cropped(to: crop))
        XCTAssertEqual(rename(written, path), 0)
        XCTAssertTrue(watch.waitForEvent("examined") { $0["name"] as? String == path && $0["outcome"] as? String == "left" },
                      "the crop was judged before any read: \(watch.log)")
        try runTool("xwd -silent -root > /dev/null", display: desk.tcpName)
        XCTAssertTrue(watch.waitForEvent("judged-again") { $0["name"] as? String == path }, watch.log)
        let report = try XCTUnwrap(watch.nextReport(), "no report for \(path): \(watch.log)")
        XCTAssertEqual((report.json["guard"] as? [String: Any])?["file"] as? String, "rewritten", "\(report.json)\n\(watch.log)")
        let image = try ImageCodec.decode([UInt8](try XCTUnwrap(FileManager.default.contents(atPath: path))), source: path).image
        assertRedacted(image, origin: crop, screen: screen, expected: try desk.expectedRedactions())
    }

    /// A photo (pixels that are not the screen's) left in a watched folder, then a read of
    /// protected pixels heard: it is examined again, not found on the screen, and left byte
    /// for byte.
    func testAPhotoLeftBeforeAReadIsLeftAgainByteForByte() throws {
        _ = try requireTool("xwd", package: "x11-apps")
        var photo = PixelBuffer(width: 160, height: 90)
        for y in 0..<photo.height {
            for x in 0..<photo.width { photo[x, y] = 0xFF00_0000 | UInt32((x * 7 + y * 13) % 256) << 16 | UInt32((x * y) % 256) << 8 | 0x40 }
        }
        let watch = try agent()
        let path = shots + "/holiday.png"
        let written = try sandbox.write("staging/holiday.png", png: photo)
        let before = try sandbox.bytes(at: written)
        XCTAssertEqual(rename(written, path), 0)
        XCTAssertTrue(watch.waitForEvent("examined") { $0["name"] as? String == path && $0["outcome"] as? String == "left" }, watch.log)
        try runTool("xwd -silent -root > /dev/null", display: desk.tcpName)
        XCTAssertTrue(watch.waitForEvent("judged-again") { $0["name"] as? String == path }, watch.log)
        XCTAssertTrue(watch.waitForEvent("examined", count: 2) { $0["name"] as? String == path && $0["outcome"] as? String == "left" },
                      watch.log)
        XCTAssertEqual(try sandbox.bytes(at: path), before, "the photo is as it was")
    }
}
