// Guard's second pass for text rules: a scrot screenshot showing an e-mail address and a card number is rewritten, then rewritten again with them covered.
import Foundation
import ShotguardBase
import ShotguardImaging
import ShotguardTestSupport
import XCTest

final class GuardTextTests: TextDesktopTestCase {
    /// The file is first left or rewritten with the rectangle rules (here a screen corner), at
    /// once; the text pass runs off the agent's loop and the file is rewritten again with the
    /// e-mail address and the card number covered in their rules' fills, the order number beside
    /// them left; the report lists the kinds and boxes, never the text.
    func testAScrotScreenshotIsRewrittenAgainWithItsTextCovered() throws {
        let shots = sandbox.path("shots")
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        let regions = try sandbox.write("regions", text: "screen 40x20+0+0\ntext email fill=#ff00ff\ntext card fill=#00ff00\n")
        let watch = try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools"], sandbox: sandbox,
                                   display: desk.name)
        try runTool("scrot -o '\(shots)/scrot-text.png'", display: desk.name)
        XCTAssertTrue(watch.waitForEvent("text-pass", seconds: 60), watch.log)
        let report = try XCTUnwrap(watch.nextReport(seconds: 30), watch.log)
        let text = try XCTUnwrap(report.json["text"] as? [[String: Any]], "the report lists the text covers")
        XCTAssertEqual(Set(text.compactMap { $0["kind"] as? String }), ["email", "card"], watch.log)
        XCTAssertFalse(String(decoding: try Data(contentsOf: watch.stdoutURL), as: UTF8.self).contains(TextDesktop.email),
                       "the report never holds the text")
        let file = try PNGDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: shots + "/scrot-text.png"))),
                                         source: "scrot-text.png")
        for (kind, colour) in [("email", UInt32(0xFF00FF)), ("card", 0x00FF00)] {
            let exact = try XCTUnwrap(desk.extents[kind])
            var filled = 0
            for y in exact.y..<exact.maxY { for x in exact.x..<exact.maxX where file[x, y] & 0xFF_FFFF == colour { filled += 1 } }
            XCTAssertEqual(filled, exact.area, "\(kind) at \(exact) is covered in the file")
        }
        let order = try XCTUnwrap(desk.extents["order"])
        var covered = 0
        for y in order.y..<order.maxY { for x in order.x..<order.maxX where [0xFF00FF, 0x00FF00].contains(file[x, y] & 0xFF_FFFF) {
            covered += 1
        } }
        XCTAssertEqual(covered, 0, "the order number is left")
        XCTAssertEqual(file[5, 5] & 0xFF_FFFF, 0, "the rectangle rule's cover, from the first pass")
    }
}
