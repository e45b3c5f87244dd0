// `shotguard watch` follows the regions file: written after start, replaced by an editor's rename, emptied, removed.
import Foundation
import Glibc
import ShotguardImaging
import ShotguardTestSupport
import XCTest

final class WatchRegionsFollowTests: WatchDesktopTestCase {
    /// The default regions file of the sandbox (`XDG_CONFIG_HOME` is `home/.config`).
    private var defaultRegions: String { sandbox.path(".config/shotguard/regions") }

    /// An agent on the default regions file (no `--regions`), watching only `shots` for files.
    /// Without the readers' shield: the test's own read of the screen puts covers up (from the
    /// sentinel's copy of the rules, told to it a moment after the agent read them), and scrot's
    /// read just after would show them; this suite is about the rules guard applies.
    private func agent(_ extra: [String] = []) throws -> WatchAgent {
        try WatchAgent(["--dir", shots, "--no-clipboard", "--no-tools", "--no-shield"] + extra, sandbox: sandbox, display: desk.name)
    }

    /// Takes a screenshot with scrot into the watched folder; the agent's report of it, and the
    /// screen as it was just before.
    private func screenshot(_ name: String, _ watch: WatchAgent, file: StaticString = #filePath,
                            line: UInt = #line) throws -> (report: [String: Any], image: PixelBuffer?, screen: PixelBuffer) {
        let screen = try desk.screen()
        try runTool("scrot -o '\(shots)/\(name)'", display: desk.name, file: file, line: line)
        let report = try XCTUnwrap(watch.nextReport(), "no report of \(name): \(watch.log)", file: file, line: line)
        return (report.json, report.image, screen)
    }

    private func redactionCount(_ report: [String: Any]) -> Int? { (report["redactions"] as? [Any])?.count }

    /// Waits until the agent took the rules at the default path as `state` (read, reloaded,
    /// removed), `count` of them with these `kinds`.
    private func waitForRules(_ watch: WatchAgent, _ state: String, count: Int, kinds: [String: Int],
                              file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(watch.waitForEvent("rules") {
            $0["state"] as? String == state && $0["path"] as? String == self.defaultRegions && $0["rules"] as? Int == count
                && $0["kinds"] as? [String: Int] == kinds
        }, watch.log, file: file, line: line)
    }

    /// The first run was unprotected and stayed so: the agent started before the user wrote the
    /// file (its folder not even made yet) only warned, and never read the file written after.
    func testARegionsFileWrittenAfterTheAgentStartedProtectsTheNextScreenshot() throws {
        let watch = try agent()
        let watching = try XCTUnwrap(watch.events("watching").first, watch.log)
        XCTAssertTrue(watching["regions"] is NSNull, "no regions file: \(watching)")
        XCTAssertEqual(watching["rules"] as? Int, 0, "\(watching)")
        XCTAssertTrue(watch.events("problem").contains { $0["level"] as? String == "warning" }, "the start warns of it: \(watch.log)")

        // As the README's first steps do it: make the folder, then write the file.
        try FileManager.default.createDirectory(atPath: sandbox.path(".config/shotguard"), withIntermediateDirectories: true)
        try Data(WatchDesktop.regions.utf8).write(to: URL(fileURLWithPath: defaultRegions))
        waitForRules(watch, "read", count: 3, kinds: ["window": 2, "screen": 1])

        let shot = try screenshot("scrot-first.png", watch)
        XCTAssertEqual(redactionCount(shot.report), 2, "\(shot.report)")
        assertRedacted(shot.image, origin: fullScreen, screen: shot.screen, expected: try desk.expectedRedactions())
        XCTAssertEqual((shot.report["guard"] as? [String: Any])?["file"] as? String, "rewritten", watch.log)
        let onDisk = try PNGDecoder.decode(try sandbox.bytes("shots/scrot-first.png"), source: "scrot-first.png")
        assertRedacted(onDisk, origin: fullScreen, screen: shot.screen, expected: try desk.expectedRedactions())
    }

    /// An editor saves by writing a new file and renaming it over the old one: the new rules
    /// apply to the next screenshot. One that truncates before it writes leaves an empty file
    /// for a moment: the rules stay until it is written again. A removed file protects nothing.
    func testAnEditorsRenameReplacesTheRulesAndAnEmptiedFileKeepsThem() throws {
        try sandbox.write(".config/shotguard/regions", text: WatchDesktop.regions)
        let watch = try agent()
        assertWatching(watch, rules: 3)

        let saved = try sandbox.write(".config/shotguard/.regions.swp", text: "screen 100x50+10+10 fill=#ff0000  # edited\n")
        XCTAssertEqual(rename(saved, defaultRegions), 0, "the editor's rename")
        waitForRules(watch, "read", count: 1, kinds: ["screen": 1])
        let edited = try screenshot("scrot-edited.png", watch)
        let red = [(rect: Rect(x: 10, y: 10, width: 100, height: 50), fill: UInt32(0xFF0000))]
        assertRedacted(edited.image, origin: fullScreen, screen: edited.screen, expected: red)

        let emptied = open(defaultRegions, O_WRONLY | O_TRUNC)
        XCTAssertGreaterThanOrEqual(emptied, 0)
        close(emptied)
        XCTAssertTrue(watch.waitForEvent("rules-kept") { $0["why"] as? String == "empty" && $0["rules"] as? Int == 1 }, watch.log)
        let kept = try screenshot("scrot-emptied.png", watch)
        assertRedacted(kept.image, origin: fullScreen, screen: kept.screen, expected: red)

        XCTAssertEqual(unlink(defaultRegions), 0)
        waitForRules(watch, "removed", count: 0, kinds: [:])
        let removed = try screenshot("scrot-removed.png", watch)
        XCTAssertEqual(redactionCount(removed.report), 0, "\(removed.report)")
        XCTAssertEqual((removed.report["guard"] as? [String: Any])?["file"] as? String, "unchanged", watch.log)
    }

    /// The start-up log said neither what is protected nor which folders are watched (folders
    /// only with --verbose), so a screenshot saved elsewhere leaked without a word. The start
    /// says both (its event carries what its lines say).
    func testTheStartUpLogNamesTheRulesAndTheFolders() throws {
        let watch = try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools"], sandbox: sandbox,
                                   display: desk.name)
        let watching = try XCTUnwrap(watch.events("watching").first, watch.log)
        XCTAssertEqual(watching["regions"] as? String, regions, "\(watching)")
        XCTAssertEqual(watching["rules"] as? Int, 3, "\(watching)")
        let folders = try XCTUnwrap(watching["folders"] as? [String], "\(watching)")
        // The XDG pictures folder (~/Pictures without user-dirs.dirs), its Screenshots, home, --dir.
        for folder in [sandbox.path("Pictures"), sandbox.path("Pictures/Screenshots"), sandbox.home.path, shots] {
            XCTAssertTrue(folders.contains(folder), "the folders named at start include \(folder): \(folders)")
        }
    }

    /// The agent started on the default regions file with `rules` rules.
    private func assertWatching(_ watch: WatchAgent, rules: Int, file: StaticString = #filePath, line: UInt = #line) {
        let watching = watch.events("watching").first
        XCTAssertEqual(watching?["regions"] as? String, defaultRegions, watch.log, file: file, line: line)
        XCTAssertEqual(watching?["rules"] as? Int, rules, watch.log, file: file, line: line)
    }
}

extension WatchRegionsFollowTests {
    /// Dotfile managers (GNU Stow, home-manager) leave the regions file as a link into another
    /// folder, and the user edits it there: the edit must be followed as one made in place.
    func testARegionsFileThatIsALinkIsFollowedWhereItPoints() throws {
        let target = try sandbox.write("dotfiles/shotguard-regions", text: WatchDesktop.regions)
        try FileManager.default.createDirectory(atPath: sandbox.path(".config/shotguard"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: defaultRegions, withDestinationPath: target)
        let watch = try agent()
        assertWatching(watch, rules: 3)
        let saved = try sandbox.write("dotfiles/.shotguard-regions.swp", text: "screen 100x50+10+10 fill=#ff0000\n")
        XCTAssertEqual(rename(saved, target), 0, "the editor's rename, where the link points")
        waitForRules(watch, "read", count: 1, kinds: ["screen": 1])
    }
}
