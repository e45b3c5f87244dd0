// The agent on two monitors: a one-monitor screenshot placed and redacted on its monitor, and
// monitors made while the agent runs followed without a restart.
import Foundation
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import ShotguardScene
import XCTest

final class WatchMonitorTests: XCTestCase {
    /// A rule in RIGHT's top-left corner: at 330,10 on the screen.
    private let rules = "monitor name=RIGHT 60x40+10+10\n"
    private let ruleOnScreen = Rect(x: 330, y: 10, width: 60, height: 40)

    private func start() throws -> (server: VirtualDisplay, sandbox: Sandbox, shots: String, regions: String) {
        let server = try VirtualDisplay(width: 640, height: 240)
        let display = try Display(name: server.name)
        try display.setRootBackground(WatchDesktop.pattern(width: 640, height: 240, seed: 11))
        let sandbox = try Sandbox(self)
        let shots = sandbox.path("shots")
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        return (server, sandbox, shots, try sandbox.write("regions", text: rules))
    }

    func testAScrotScreenshotOfOneMonitorIsPlacedOnItAndRedactedThere() throws {
        let (server, sandbox, shots, regions) = try start()
        defer { server.stop() }
        try TwoMonitors.make(on: server.name)
        let screen = try ScreenGrabber(display: try Display(name: server.name)).captureScreen()
        let watch = try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools"],
                                   sandbox: sandbox, display: server.name)
        // scrot numbers the monitors from 0 in the server's order: RIGHT is 1.
        try runTool("scrot -M 1 -o '\(shots)/right.png'", display: server.name)
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        let alignment = try XCTUnwrap(report.json["alignment"] as? [String: Any], watch.log)
        XCTAssertEqual(alignment["geometry"] as? String, "\(TwoMonitors.right)", watch.log)
        XCTAssertEqual(alignment["monitor"] as? String, "RIGHT")
        assertRedacted(report.image, origin: TwoMonitors.right, screen: screen, expected: [(ruleOnScreen, 0x000000)])
        let rewritten = try PNGDecoder.decode(try sandbox.bytes("shots/right.png"), source: "right.png")
        assertRedacted(rewritten, origin: TwoMonitors.right, screen: screen, expected: [(ruleOnScreen, 0x000000)])
    }

    func testMonitorsMadeWhileTheAgentRunsAreFollowed() throws {
        let (server, sandbox, shots, regions) = try start()
        defer { server.stop() }
        let screen = try ScreenGrabber(display: try Display(name: server.name)).captureScreen()
        let watch = try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools"],
                                   sandbox: sandbox, display: server.name)
        // No RIGHT monitor yet: the rule hits nothing.
        try runTool("scrot -o '\(shots)/before.png'", display: server.name)
        let before = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual((before.json["redactions"] as? [Any])?.count, 0, watch.log)

        try TwoMonitors.make(on: server.name)
        try runTool("scrot -o '\(shots)/after.png'", display: server.name)
        let after = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual((after.json["monitors"] as? [Any])?.count, 2, watch.log)
        assertRedacted(after.image, origin: Rect(x: 0, y: 0, width: 640, height: 240), screen: screen,
                       expected: [(ruleOnScreen, 0x000000)])
    }
}
