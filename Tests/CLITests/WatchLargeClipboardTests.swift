// A screenshot of several megabytes through the clipboard arrives by INCR, whole and redacted,
// and a paste after guard's takeover reads the redacted image back by INCR.
import Foundation
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import ShotguardScene
import XCTest

final class WatchLargeClipboardTests: XCTestCase {
    func testAMultiMegabyteScreenshotThroughXclipArrivesByINCR() throws {
        // Without RECORD: maim's file, made while the agent runs, is the test's input (see
        // WatchDesktopTestCase.serverHasRecord).
        let server = try VirtualDisplay(width: 1600, height: 1000, withoutExtensions: ["RECORD"])
        defer { server.stop() }
        let display = try Display(name: server.name)
        // Noise does not compress: the PNG is several megabytes, far over one X request.
        try display.setRootBackground(WatchDesktop.pattern(width: 1600, height: 1000, seed: 5))
        let screen = try ScreenGrabber(display: display).captureScreen()
        let sandbox = try Sandbox(self)
        let regions = try sandbox.write("regions", text: "screen 300x200-0-0\nscreen 10%x10%+100+100 fill=#ff0000\n")
        let watch = try WatchAgent(["--regions", regions, "--no-files", "--no-tools"], sandbox: sandbox, display: server.name)

        let shot = sandbox.path("private/large.png")
        try runTool("mkdir -p '\(sandbox.path("private"))' && maim -u '\(shot)'", display: server.name)
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: shot)[.size] as? Int)
        XCTAssertGreaterThan(size, 3_000_000, "the test image should be several megabytes")
        try runTool("xclip -selection clipboard -t image/png -i '\(shot)'", display: server.name)

        let report = try XCTUnwrap(watch.nextReport(seconds: 20), watch.log)
        XCTAssertFalse(watch.events("clipboard") {
            $0["type"] as? String == "image/png" && $0["bytes"] as? Int == size && $0["incremental"] as? Bool == true
        }.isEmpty, "the whole image read by INCR: \(watch.events("clipboard"))")
        XCTAssertEqual((report.json["image"] as? [String: Any])?["source"] as? String, "clipboard")
        let expected = [(rect: Rect(x: 1300, y: 800, width: 300, height: 200), fill: UInt32(0x000000)),
                        (rect: Rect(x: 100, y: 100, width: 160, height: 100), fill: UInt32(0xFF0000))]
        assertRedacted(report.image, origin: Rect(x: 0, y: 0, width: 1600, height: 1000), screen: screen, expected: expected)

        // Guard serves the redacted image, far larger than one X request: a paste reads it by INCR.
        XCTAssertEqual((report.json["guard"] as? [String: Any])?["clipboard"] as? String, "replaced")
        let pasted = sandbox.path("private/pasted.png")
        try runTool("xclip -selection clipboard -t image/png -o > '\(pasted)'", display: server.name)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: pasted)))
        XCTAssertGreaterThan(bytes.count, 1_000_000, "more than four times the largest INCR chunk")
        assertRedacted(try PNGDecoder.decode(bytes, source: pasted), origin: Rect(x: 0, y: 0, width: 1600, height: 1000),
                       screen: screen, expected: expected)
    }
}
