// A storm of screenshot-tool windows does not stall the agent: the screenshot taken right after it is redacted.
import Foundation
import ShotguardImaging
import ShotguardTestSupport
import XCTest

/// With RECORD, as on a desktop (the storm loads the agent's X connection; RECORD runs on a
/// connection of its own, and scrot's read is a signal of its own). Tool windows are watched.
final class StormTests: WatchDesktopTestCase {
    /// 80,000 unmapped windows of flameshot's class, made a thousand at a time (each batch
    /// reaches the server and lives 20 ms, so the agent sees them) and destroyed, in a few
    /// seconds; then at once a scrot screenshot into the watched folder: it is rewritten redacted.
    func testAScreenshotRightAfterAWindowStormIsRedacted() throws {
        try stormThenScreenshot(count: 80_000, batch: 1_000, hold: 20, mapped: false)
    }

    /// The same with 20,000 windows shown as they are made (override-redirect, as a tool's
    /// overlay): each one shown and closed is a tool window the agent follows, and a closed one
    /// may ask for a fresh screen.
    func testAScreenshotRightAfterAStormOfShownToolWindowsIsRedacted() throws {
        try stormThenScreenshot(count: 20_000, batch: 500, hold: 100, mapped: true)
    }

    /// Runs the storm, then scrot into the watched folder; checks the rewrite and prints the time
    /// from the storm's end (and from scrot's exit) to it.
    private func stormThenScreenshot(count: Int, batch: Int, hold: Int, mapped: Bool, file: StaticString = #filePath, line: UInt = #line) throws {
        let screen = try desk.screen()
        let watch = try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard"], sandbox: sandbox, display: desk.name)
        let said = sandbox.path("made/storm.out")
        try runTool("/usr/bin/python3 '\(TestScripts.path("window-storm.py"))' \(count) \(batch) flameshot \(hold) \(mapped ? "mapped" : "") "
            + "> '\(said)'", display: desk.name, file: file, line: line)
        let stormEnded = Date()
        let shot = shots + "/scrot-storm.png"
        try runTool("scrot -o '\(shot)'", display: desk.name, file: file, line: line)
        let scrotExited = Date()
        let examined = watch.waitForExamined(shot, seconds: 300) { $0["file"] as? String == "rewritten" }
        XCTAssertNotNil(examined, watch.log, file: file, line: line)
        let rewritten = WatchAgent.time(of: examined) ?? Date()
        let storm = try String(contentsOfFile: said, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let seen = watch.events("tool-window") { $0["tool"] as? String == "flameshot" && $0["state"] as? String == "created" }.count
        print("storm: \(storm)\(mapped ? " (shown)" : ""); the agent saw \(seen) of them as tool windows; the screenshot was "
            + "rewritten \(milliseconds(from: stormEnded, to: rewritten)) ms after the storm ended, "
            + "\(milliseconds(from: scrotExited, to: rewritten)) ms after scrot exited")
        assertRedacted(try sandbox.image("shots/scrot-storm.png"), origin: fullScreen, screen: screen,
                       expected: try desk.expectedRedactions(), file: file, line: line)
    }
}
