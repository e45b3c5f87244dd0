// $XDG_CONFIG_HOME/shotguard/agent.conf: watch's long options as settings, errors named by
// file:line:column, the command line winning, and the settings the agent then runs with.
import Foundation
import ShotguardTestSupport
import XCTest

final class AgentConfigTests: WatchDesktopTestCase {
    private var configPath: String { sandbox.path(".config/shotguard/agent.conf") }

    /// `watch` with no display: a file that parses gets as far as opening the display (exit 1);
    /// one that does not stops before, with exit 2 and the place of the error.
    private func watchWithoutDisplay(_ settings: String, _ arguments: [String] = []) throws -> RunResult {
        try sandbox.write(".config/shotguard/agent.conf", text: settings)
        return try sandbox.run(["watch"] + arguments, environment: ["DISPLAY": nil])
    }

    func testEachErrorNamesTheFileLineAndColumnAndWhatWasExpected() throws {
        let cases: [(settings: String, place: String, says: String)] = [
            ("shield = true\nsheild = true\n", ":2:1: ", "unknown setting 'sheild' (expected a long option of 'shotguard watch': did you mean shield?)"),
            ("# a comment\n  notify = maybe\n", ":2:12: ", "'notify' is true or false, not 'maybe'"),
            ("keep = 5\nkeep-for = 1d\nkeep = abc\n", ":3:1: ", "'keep' is set twice (first at line 1)"),
            ("keep = abc\n", ":1:8: ", "--keep: 'abc' is not a number of reports"),
            ("keep-for = soon\n", ":1:12: ", "--keep-for: 'soon' is not a duration"),
            ("dir\n", ":1:1: ", "expected 'key = value'"),
            ("exec = \"notify-send\n", ":1:8: ", "the quote that opens this value is not closed"),
            ("shield-key = s\n", ":1:14: ", "--shield-key needs --shield"),
        ]
        for (settings, place, says) in cases {
            let result = try watchWithoutDisplay(settings)
            XCTAssertEqual(result.status, 2, "\(settings): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("shotguard: \(configPath)\(place)"), "\(settings): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(says), "\(settings): \(result.stderr)")
        }
    }

    func testTheCommandLineWinsAndGoodSettingsPass() throws {
        // The file's bad keep is replaced by the command line's: the agent goes on to the display.
        let overridden = try watchWithoutDisplay("keep = abc\n", ["--keep", "4"])
        XCTAssertEqual(overridden.status, 1, overridden.stderr)
        XCTAssertTrue(overridden.stderr.contains("no X display"), overridden.stderr)
        let good = try watchWithoutDisplay("""
            # the agent's settings
            shield = true
            shield-key = F9
            dir = ~/Shots
            dir = "/tmp/with space"
            notify = false
            tray = false
            keep-for = 7d
            exec = notify-send "$SHOTGUARD_IMAGE"

            """)
        XCTAssertEqual(good.status, 1, good.stderr)
        XCTAssertTrue(good.stderr.contains("no X display"), good.stderr)
        // --config names another file; a missing one is an error, not silence.
        let missing = try sandbox.run(["watch", "--config", sandbox.path("nowhere.conf")], environment: ["DISPLAY": nil])
        XCTAssertEqual(missing.status, 2, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("cannot read the agent's settings: \(sandbox.path("nowhere.conf"))"), missing.stderr)
    }

    /// The autostarted agent takes what the file says: the shield on, another folder watched
    /// (given from the home folder), no tray icon or mark.
    func testTheAgentRunsWithTheFilesSettings() throws {
        try sandbox.write(".config/shotguard/agent.conf", text: "shield = true\ndir = ~/Shots\nno-tray = true\nindicator = false\n")
        let watch = try WatchAgent(["--regions", regions, "--no-clipboard", "--no-tools"], sandbox: sandbox, display: desk.name)
        let watching = try XCTUnwrap(watch.events("watching").first, watch.log)
        XCTAssertEqual(watching["keys"] as? [String], ["Print"], "shield = true: \(watching)")
        XCTAssertTrue((watching["folders"] as? [String])?.contains(sandbox.path("Shots")) ?? false, "dir = ~/Shots: \(watching)")
        XCTAssertTrue(watch.waitForEvent("presence"), watch.log)
        XCTAssertNil(try findWindow(named: "shotguard tray icon", display: desk.name), "tray = false")
    }
}
