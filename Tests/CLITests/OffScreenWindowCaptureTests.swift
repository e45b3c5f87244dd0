// maim -i of the vault moved half off the screen: the window's whole image, the part off the screen too, comes out covered.
import Foundation
import ShotguardImaging
import ShotguardScene
import ShotguardTestSupport
import ShotguardX11
import XCTest

/// `shotguard watch` (guard on, RECORD) on a desktop of its own, whose vault this suite moves.
final class OffScreenWindowCaptureTests: WatchDesktopTestCase {
    /// `maim -i` writes a window's own pixels, the part past the screen's edge included; the
    /// agent compared the image with the screen, found it nowhere, and set it aside. It is
    /// placed at the window by its part on the screen: there the rules apply as on any
    /// screenshot (the vault's row black, the rest of what shows kept), and everything of the
    /// vault's frame past the edge is covered.
    func testAWindowHalfOffTheScreenIsCoveredPastTheEdge() throws {
        _ = try requireTool("maim", package: "maim")
        let vault = hexID(UInt(desk.vault.id))
        try runTool("xdotool windowmove --sync \(vault) -100 320", display: desk.name)
        defer { try? runTool("xdotool windowmove --sync \(vault) 40 60", display: desk.name) }
        let frame = try desk.display.geometry(of: desk.vault.id).frame
        let showing = fullScreen.intersection(frame)
        XCTAssertTrue(showing != frame && !showing.isEmpty, "the vault at \(frame) is not half off the screen")
        let screen = try desk.screen()
        let folder = try TemporaryFolder(self, label: "not-watched")
        let watch = try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools"], sandbox: sandbox,
                                   display: desk.name)
        let path = folder.at("vault.png")
        try runTool("maim", ["-u", "-i", String(desk.vault.id), path], display: desk.name)
        let report = try XCTUnwrap(watch.nextReport(), "no report: \(watch.log)")
        XCTAssertEqual((report.json["guard"] as? [String: Any])?["file"] as? String, "rewritten", "\(report.json)\n\(watch.log)")
        let image = try ImageCodec.decode([UInt8](XCTUnwrap(FileManager.default.contents(atPath: path))), source: path).image
        XCTAssertEqual(image.width, frame.width)
        XCTAssertEqual(image.height, frame.height)
        // The rule's row: 40 rows from the 20th of the frame.
        let row = Rect(x: frame.x, y: frame.y + 20, width: frame.width, height: 40)
        var wrong: [String] = []
        for y in 0..<image.height {
            for x in 0..<image.width {
                let onScreen = Rect(x: frame.x + x, y: frame.y + y, width: 1, height: 1)
                let expected = showing.intersection(onScreen).isEmpty || !row.intersection(onScreen).isEmpty
                    ? 0 : screen.rgb(x: onScreen.x, y: onScreen.y)
                if image.rgb(x: x, y: y) != expected { wrong.append("\(x),\(y)") }
            }
        }
        XCTAssertEqual(wrong.count, 0, "pixels not as expected (first \(wrong.prefix(4))): \(watch.log)")
    }
}
