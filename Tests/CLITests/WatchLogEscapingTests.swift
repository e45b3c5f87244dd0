// The agent's log lines quote file names that any program can choose: escaped, never raw.
import Foundation
import XCTest

final class WatchLogEscapingTests: WatchDesktopTestCase {
    override class var serverHasRecord: Bool { false }

    /// A screenshot named to retitle (ESC ]0;… BEL) and clear (ESC [2J) the terminal of whoever
    /// reads the log: the log line shows the escapes as text.
    func testFileNamesWithTerminalControlsAreLoggedEscaped() throws {
        let watch = try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools"],
                                   sandbox: sandbox, display: desk.name)
        let name = "screenshot-\u{1B}]0;owned\u{07}\u{1B}[2J.png"
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: shots + "/" + name))
        XCTAssertTrue(watch.waitForLog("screenshot-\\x1b]0;owned\\x07\\x1b[2J.png", seconds: 10), watch.log)
        XCTAssertFalse(watch.log.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, watch.log)
    }
}
