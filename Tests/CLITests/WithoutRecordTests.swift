// A server started without RECORD: the agent and the shield command say so once and work as before capture sensing.
import Foundation
import ShotguardImaging
import ShotguardTestSupport
import XCTest

final class WithoutRecordTests: WatchDesktopTestCase {
    override class var serverHasRecord: Bool { false }

    /// The lines of `log` that speak of RECORD.
    private func recordLines(_ log: String) -> [Substring] {
        log.split(separator: "\n").filter { $0.contains("RECORD") }
    }

    func testTheAgentSaysSoOnceAndStillRewritesAScrotScreenshot() throws {
        _ = try requireTool("scrot", package: "scrot")
        let screen = try desk.screen()
        let watch = try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools"],
                                   sandbox: sandbox, display: desk.name)
        let warning = recordLines(watch.log)
        XCTAssertEqual(warning.count, 1, watch.log)
        XCTAssertTrue(warning.first?.contains("shotguard: warning: the X server '\(desk.name)' has no RECORD extension") == true,
                      watch.log)
        let sources = try XCTUnwrap(watch.events("watching").first?["sources"] as? [String], watch.log)
        XCTAssertFalse(sources.contains("screen reads"), "\(sources)")
        let path = shots + "/scrot-1.png"
        try runTool("scrot", ["-o", path], display: desk.name)
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual((report.json["signals"] as? [[String: Any]])?.compactMap { $0["kind"] as? String }, ["file"])
        XCTAssertEqual((report.json["guard"] as? [String: Any])?["file"] as? String, "rewritten", "\(report.json)")
        assertRedacted(try sandbox.image("shots/scrot-1.png"), origin: fullScreen, screen: screen, expected: try desk.expectedRedactions())
        XCTAssertEqual(recordLines(watch.log).count, 1, watch.log)
    }

    /// Without RECORD no read can be seen: the covers stay up until the command exits, so both
    /// of its screenshots are covered, and one line says why.
    func testTheShieldCommandKeepsTheCoversUpUntilTheCommandExits() throws {
        _ = try requireTool("scrot", package: "scrot")
        let screen = try desk.screen()
        let result = try sandbox.run(["shield", "--regions", regions, "--", "sh", "-c", "scrot -o \"$1\" && scrot -o \"$2\"", "sh",
                                      shots + "/first.png", shots + "/second.png"], environment: ["DISPLAY": desk.name])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "shotguard: shield: the X server '\(desk.name)' has no RECORD extension: programs that read "
            + "the screen (scrot, ffmpeg, a screen share) cannot be seen as they read it; the covers stay up until sh exits\n")
        for name in ["first", "second"] {
            assertRedacted(try sandbox.image("shots/\(name).png"), origin: fullScreen, screen: screen,
                           expected: try desk.expectedRedactions())
        }
        assertRedacted(try desk.screen(), origin: fullScreen, screen: screen, expected: [])
    }
}
