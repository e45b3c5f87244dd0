// `shotguard watch` driven by real screenshot programs on a private X server with openbox.
import Foundation
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import ShotguardScene
import XCTest

final class WatchEndToEndTests: WatchDesktopTestCase {
    override class var serverHasRecord: Bool { false }

    private func agent(_ extra: [String]) throws -> WatchAgent {
        try WatchAgent(["--regions", regions, "--dir", shots] + extra, sandbox: sandbox, display: desk.name)
    }

    private func source(_ report: [String: Any]) -> String? { (report["image"] as? [String: Any])?["source"] as? String }
    private func alignment(_ report: [String: Any]) -> String? { (report["alignment"] as? [String: Any])?["geometry"] as? String }
    private func signals(_ report: [String: Any]) -> [[String: Any]] { report["signals"] as? [[String: Any]] ?? [] }

    func testScrotIntoAWatchedFolderIsReportedRedacted() throws {
        let screen = try desk.screen()
        let watch = try agent(["--no-clipboard", "--no-tools"])
        try runTool("scrot -o '\(shots)/scrot-1.png'", display: desk.name)
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual(source(report.json), "file")
        XCTAssertEqual(alignment(report.json), "640x400+0+0")
        XCTAssertEqual((report.json["redactions"] as? [[String: Any]])?.compactMap { $0["line"] as? Int }, [1, 2])
        assertRedacted(report.image, origin: fullScreen, screen: screen, expected: try desk.expectedRedactions())
    }

    func testMaimIntoAScreenshotsFolderCreatedAfterTheAgentStarted() throws {
        let screen = try desk.screen()
        let watch = try agent(["--no-clipboard", "--no-tools"])
        let folder = sandbox.path("Pictures/Screenshots")
        try runTool("mkdir -p '\(folder)' && maim -u '\(folder)/capture.png'", display: desk.name)
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual(signals(report.json).first?["detail"] as? String, folder + "/capture.png")
        assertRedacted(report.image, origin: fullScreen, screen: screen, expected: try desk.expectedRedactions())
    }

    func testMaimThroughXclipOntoTheClipboard() throws {
        let screen = try desk.screen()
        let watch = try agent(["--no-files", "--no-tools"])
        try runTool("maim -u | xclip -selection clipboard -t image/png", display: desk.name)
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual(source(report.json), "clipboard")
        XCTAssertEqual(signals(report.json).map { $0["kind"] as? String }, ["clipboard"])
        assertRedacted(report.image, origin: fullScreen, screen: screen, expected: try desk.expectedRedactions())
    }

    func testAnImageThatIsNotOnScreenIsIgnoredAndDoesNotHideTheNextScreenshot() throws {
        let screen = try desk.screen()
        let watch = try agent(["--no-clipboard", "--no-tools", "--once"])
        try sandbox.write("shots/holiday.png", png: WatchDesktop.pattern(width: 90, height: 70, seed: 77))
        XCTAssertTrue(watch.waitForEvent("settled") { $0["report"] as? Bool == false }, watch.log)
        try runTool("scrot -o '\(shots)/scrot-2.png'", display: desk.name)
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual(signals(report.json).compactMap { $0["detail"] as? String }, [shots + "/scrot-2.png"])
        assertRedacted(report.image, origin: fullScreen, screen: screen, expected: try desk.expectedRedactions())
        XCTAssertEqual(watch.waitForExit(seconds: 5), 0, "--once exits after the first report")
    }

    func testOneScreenshotRaisingTwoSignalsMakesOneReport() throws {
        let watch = try agent(["--no-tools"])
        try runTool("maim -u '\(shots)/maim-2.png' && xclip -selection clipboard -t image/png -i '\(shots)/maim-2.png'",
                    display: desk.name)
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual(Set(signals(report.json).compactMap { $0["kind"] as? String }), ["file", "clipboard"])
        XCTAssertTrue(watch.waitUntilSettled(examined: 2), "both images examined and their events settled: \(watch.events)")
        XCTAssertNil(watch.nextReport(seconds: 0), "a second report for the same screenshot")
    }

    func testARegionScreenshotIsFoundAndRedactedInPlace() throws {
        let screen = try desk.screen()
        let watch = try agent(["--no-clipboard", "--no-tools"])
        try runTool("maim -u -g 230x150+20+50 '\(shots)/maim-region.png'", display: desk.name)
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual((report.json["alignment"] as? [String: Any])?["method"] as? String, "search")
        XCTAssertEqual(alignment(report.json), "230x150+20+50")
        assertRedacted(report.image, origin: Rect(x: 20, y: 50, width: 230, height: 150), screen: screen,
                       expected: try desk.expectedRedactions())
    }

    func testRulesAreResolvedAgainstTheWindowsAsTheyWereAtEventTime() throws {
        let screen = try desk.screen()
        let expected = try desk.expectedRedactions()
        let watch = try agent(["--no-clipboard"])
        // Taken before the event, in a folder nobody watches (home is watched).
        let early = sandbox.path("private/early.png")
        try runTool("mkdir -p '\(sandbox.path("private"))' && scrot -o '\(early)'", display: desk.name)
        // A screenshot tool's window opens the event: the agent records the windows now. Like
        // flameshot's and slop's overlays it is override-redirect, so focus and title bars stay.
        let tool = try PaintedWindow(display: desk.display, frame: Rect(x: 600, y: 360, width: 30, height: 30),
                                     content: PixelBuffer(width: 30, height: 30, fill: 0xFF80_8080), instance: "flameshot",
                                     className: "flameshot", title: "flameshot", popup: true)
        XCTAssertTrue(watch.waitForEvent("capture-event"), watch.log)
        let before = try desk.display.geometry(of: desk.vault.id).frame
        try desk.vault.move(x: before.x + 150, y: before.y + 120)
        defer { try? desk.vault.move(x: before.x, y: before.y) }
        try FileManager.default.moveItem(atPath: early, toPath: shots + "/flameshot-1.png")
        tool.destroy()
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual(signals(report.json).compactMap { $0["kind"] as? String }, ["tool-window", "file"])
        assertRedacted(report.image, origin: fullScreen, screen: screen, expected: expected)
    }

    func testAnInvalidRegionsFileOnSIGHUPKeepsTheOldRules() throws {
        let screen = try desk.screen()
        let watch = try agent(["--no-clipboard", "--no-tools"])
        try sandbox.write("regions", text: "screen 10x10+0+0 fill=blurr\n")
        watch.send(SIGHUP)
        XCTAssertTrue(watch.waitForEvent("rules-kept") { $0["why"] as? String == "invalid" && $0["rules"] as? Int == 3 }, watch.log)
        try runTool("scrot -o '\(shots)/scrot-3.png'", display: desk.name)
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        assertRedacted(report.image, origin: fullScreen, screen: screen, expected: try desk.expectedRedactions())
    }

    func testSIGTERMWhileIdleStopsCleanly() throws {
        let watch = try agent([])
        watch.send(SIGTERM)
        XCTAssertEqual(watch.waitForExit(seconds: 5), 0, watch.log)
        XCTAssertEqual(watch.events("stopping").map { $0["why"] as? String }, ["SIGTERM"], watch.log)
        XCTAssertNil(watch.nextReport(seconds: 0.1))
    }

    func testASecondAgentOnTheSameDisplayRefusesToStart() throws {
        let watch = try agent(["--no-clipboard"])
        let second = try sandbox.run(["watch", "--spool", sandbox.path("spool2")], environment: ["DISPLAY": desk.name])
        XCTAssertEqual(second.status, 2)
        XCTAssertTrue(second.stderr.contains("another shotguard watch is already running on display \(desk.name)"), second.stderr)
        XCTAssertTrue(watch.process.isRunning, "the first agent keeps running")
    }
}
