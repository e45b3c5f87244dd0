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
        XCTAssertTrue(watch.waitForEvent("rules-kept") { $0["why"] as? String == "empty" && $0["rules"] as? Int == 3 }, watch.log)
        try runTool("scrot -o '\(shots)/scrot-truncated.png'", display: desk.name)
        XCTAssertTrue(watch.waitForRewrite(of: "\(shots)/scrot-truncated.png"), watch.log)
        close(truncated)
        assertRedacted(try sandbox.image("shots/scrot-truncated.png"), origin: fullScreen, screen: screen,
                       expected: try desk.expectedRedactions())
        XCTAssertEqual(watch.events("rules").count, 0, "nothing was read from the empty file: \(watch.log)")
    }
}
