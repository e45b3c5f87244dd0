// SIGHUP while an editor has truncated the regions file keeps the rules in force, with a warning.
import Foundation
import Glibc
import ShotguardImaging
import ShotguardTestSupport
import XCTest

/// Reloading does not depend on RECORD; the suite runs with it, as on a desktop.
/// (WatchRegionsFollowTests covers an emptied default file noticed by inotify; this is SIGHUP
/// on a `--regions` file caught in the middle of an editor's save.)
final class RegionsTruncatedTests: WatchDesktopTestCase {
    func testSIGHUPOnATruncatedRegionsFileKeepsTheRulesAndTheNextScreenshotIsRedacted() throws {
        let screen = try desk.screen()
        let watch = try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools"], sandbox: sandbox,
                                   display: desk.name)
        let truncated = open(regions, O_WRONLY | O_TRUNC)
        XCTAssertGreaterThanOrEqual(truncated, 0)
        watch.send(SIGHUP)
        XCTAssertTrue(watch.waitForLog("warning: \(regions) is empty: kept the previous 3 rules: 2 windows, 1 screen until it is written again",
                                       seconds: 10), watch.log)
        try runTool("scrot -o '\(shots)/scrot-truncated.png'", display: desk.name)
        XCTAssertTrue(watch.waitForLog("guard: rewrote \(shots)/scrot-truncated.png", seconds: 10), watch.log)
        close(truncated)
        assertRedacted(try sandbox.image("shots/scrot-truncated.png"), origin: fullScreen, screen: screen,
                       expected: try desk.expectedRedactions())
        XCTAssertFalse(watch.log.contains("protecting with no rules"), watch.log)
        XCTAssertFalse(watch.log.contains("reloaded \(regions)"), "nothing was reloaded from the empty file: \(watch.log)")
    }
}
