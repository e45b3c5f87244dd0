// Guard on screenshot files: rewritten redacted in place, left alone, quarantined and restored.
import Foundation
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import XCTest

final class GuardFileTests: WatchDesktopTestCase {
    override class var serverHasRecord: Bool { false }

    private func agent(_ extra: [String] = []) throws -> WatchAgent {
        try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools"] + extra,
                       sandbox: sandbox, display: desk.name)
    }

    /// Makes a screenshot outside the watched folder with `command` (which writes `made/NAME`),
    /// then moves it in, so the test knows its bytes and mtime before the agent sees it.
    private func screenshot(_ name: String, _ command: String) throws -> (path: String, bytes: [UInt8], status: stat) {
        try runTool(command, display: desk.name)
        let made = sandbox.path("made/\(name)")
        var status = stat()
        XCTAssertEqual(lstat(made, &status), 0)
        let bytes = try sandbox.bytes("made/\(name)")
        let path = shots + "/" + name
        XCTAssertEqual(rename(made, path), 0, "move into the watched folder")
        return (path, bytes, status)
    }

    private func fileBytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    func testAScreenshotThatRulesHitIsRewrittenRedactedWithItsModificationTimeKept() throws {
        let screen = try desk.screen()
        let watch = try agent()
        // A thumbnail a file manager made of the original, named by the MD5 of its URI; made
        // before the file arrives, since guard rewrites it within a tenth of a second.
        let thumbnail = try thumbnailPath(for: shots + "/scrot-guard.png")
        try sandbox.write(thumbnail, [1, 2, 3])
        let unrelated = try sandbox.write(".cache/thumbnails/normal/0123456789abcdef0123456789abcdef.png", [4])
        let shot = try screenshot("scrot-guard.png", "scrot -o '\(sandbox.path("made/scrot-guard.png"))'")
        XCTAssertTrue(watch.waitForRewrite(of: shot.path), watch.log)

        let rewritten = try PNGDecoder.decode(try fileBytes(shot.path), source: shot.path)
        assertRedacted(rewritten, origin: fullScreen, screen: screen, expected: try desk.expectedRedactions())
        var after = stat()
        XCTAssertEqual(lstat(shot.path, &after), 0)
        XCTAssertEqual(after.st_mtim.tv_sec, shot.status.st_mtim.tv_sec, "mtime kept")
        XCTAssertEqual(after.st_mtim.tv_nsec, shot.status.st_mtim.tv_nsec, "mtime kept to the nanosecond")
        XCTAssertEqual(after.st_mode, shot.status.st_mode, "mode kept")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: shots), ["scrot-guard.png"], "no temporary file left")
        XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.path(thumbnail)), "the thumbnail of the original is gone")
        XCTAssertTrue(FileManager.default.fileExists(atPath: unrelated), "other thumbnails stay")

        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual(report.json["schema"] as? Int, 5)
        XCTAssertEqual(report.json["type"] as? String, "screenshot")
        XCTAssertEqual((report.json["guard"] as? [String: Any])?["file"] as? String, "rewritten")
        // The rename of the rewrite is not a second screenshot.
        XCTAssertTrue(watch.waitForEvent("ignored") { $0["why"] as? String == "own-rewrite" },
                      "the rename of the rewrite was seen and ignored: \(watch.events)")
        XCTAssertTrue(watch.waitUntilSettled(examined: 1))
        XCTAssertNil(watch.nextReport(seconds: 0), "one screenshot, one report")
    }

    func testScrotWritingStraightIntoTheFolderIsRewritten() throws {
        let screen = try desk.screen()
        let watch = try agent()
        try runTool("scrot -o '\(shots)/scrot-direct.png'", display: desk.name)
        XCTAssertTrue(watch.waitForRewrite(of: "\(shots)/scrot-direct.png"), watch.log)
        let rewritten = try PNGDecoder.decode(try fileBytes(shots + "/scrot-direct.png"), source: "scrot-direct.png")
        assertRedacted(rewritten, origin: fullScreen, screen: screen, expected: try desk.expectedRedactions())
    }

    func testARegionThatMissesEveryRuleStaysByteIdentical() throws {
        let watch = try agent()
        // Inside the Notes window: away from the Vault and from the clock corner.
        let shot = try screenshot("maim-notes.png", "maim -u -g 100x60+340+200 '\(sandbox.path("made/maim-notes.png"))'")
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual((report.json["redactions"] as? [Any])?.count, 0)
        XCTAssertEqual((report.json["guard"] as? [String: Any])?["file"] as? String, "unchanged")
        XCTAssertEqual(try fileBytes(shot.path), shot.bytes, "byte-identical")
        var after = stat()
        XCTAssertEqual(lstat(shot.path, &after), 0)
        XCTAssertEqual(after.st_ino, shot.status.st_ino, "same inode: never rewritten")
    }

    func testNoGuardOnlyReports() throws {
        let watch = try agent(["--no-guard"])
        let shot = try screenshot("scrot-noguard.png", "scrot -o '\(sandbox.path("made/scrot-noguard.png"))'")
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual((report.json["redactions"] as? [Any])?.count, 2, "the report is redacted")
        XCTAssertTrue(report.json["guard"] is NSNull)
        XCTAssertEqual(try fileBytes(shot.path), shot.bytes, "the file is left as the tool wrote it")
    }

    /// Scaled and mirrored (a copy made smaller alone is placed as the screen made small), a
    /// screenshot cannot be placed: it is set aside, and restores.
    func testAScaledAndMirroredScreenshotIsQuarantinedAndCanBeRestored() throws {
        let screen = try desk.screen()
        let watch = try agent()
        let full = sandbox.path("made/full.png")
        let shot = try screenshot("screenshot-scaled.png",
                                  "scrot -o '\(full)' && /usr/bin/convert '\(full)' -resize 50% -flop '\(sandbox.path("made/screenshot-scaled.png"))'")
        XCTAssertTrue(watch.waitForEvent("examined") { $0["file"] as? String == "quarantined" && $0["quarantine"] is String }, watch.log)
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        let guardObject = try XCTUnwrap(report.json["guard"] as? [String: Any])
        XCTAssertEqual(guardObject["file"] as? String, "quarantined")
        let id = try XCTUnwrap(guardObject["quarantine"] as? String)

        // Its path holds a placeholder of its size and format that shows nothing of the screen:
        // guard never writes screen pixels where something else was.
        let placeholder = try PNGDecoder.decode(try fileBytes(shot.path), source: shot.path)
        XCTAssertEqual(placeholder.width, 320)
        XCTAssertEqual(placeholder.height, 200)
        var colours = Set<UInt32>()
        for y in 0..<placeholder.height { for x in 0..<placeholder.width { colours.insert(placeholder[x, y] & 0xFF_FFFF) } }
        XCTAssertEqual(colours, [0x3C3F41, 0xF0F0F0], "only the placeholder's background and its words")
        XCTAssertNil(report.image, "no rule touched the fallback (the active window): its unredacted image is not kept")
        _ = screen

        let list = try sandbox.run(["quarantine", "list", "--json"])
        XCTAssertEqual(list.status, 0, list.stderr)
        let entries = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(list.stdout)) as? [[String: Any]], list.stdoutText)
        XCTAssertEqual(entries.count, 1)
        let entry = try XCTUnwrap(entries.first)
        XCTAssertEqual(entry["id"] as? String, id)
        XCTAssertEqual(entry["path"] as? String, shot.path)

        let copy = sandbox.path("restored.png")
        XCTAssertEqual(try sandbox.run(["quarantine", "restore", id, "-o", copy]).status, 0)
        XCTAssertEqual(try fileBytes(copy), shot.bytes, "restore -o gives back the original bytes")
        XCTAssertEqual(try sandbox.run(["quarantine", "restore", id]).status, 0)
        XCTAssertEqual(try fileBytes(shot.path), shot.bytes, "restore puts the original back at its path")

        let unknown = try sandbox.run(["quarantine", "restore", "nope"])
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.stderr.contains(id), "the error lists the ids there are: \(unknown.stderr)")
        XCTAssertEqual(try sandbox.run(["quarantine", "purge"]).status, 0)
        XCTAssertEqual(try sandbox.run(["quarantine", "list", "--json"]).stdoutText, "[]\n")
    }

    func testLeftoverTemporaryFilesAreRemovedAtStart() throws {
        let leftover = try sandbox.write("shots/.shotguard-rewrite-0123456789abcdef.tmp", [1, 2, 3])
        let lookAlike = try sandbox.write("shots/.shotguard-rewrite-notmine.tmp", [4])
        let watch = try agent()
        XCTAssertFalse(FileManager.default.fileExists(atPath: leftover), watch.log)
        XCTAssertEqual(watch.events("leftover-removed").map { $0["path"] as? String }, [leftover], watch.log)
        XCTAssertTrue(FileManager.default.fileExists(atPath: lookAlike), "only guard's own pattern is removed")
    }

    /// `WxH+X+Y` as a rectangle.
    private func rect(fromGeometry text: String) -> Rect? {
        let numbers = text.split(whereSeparator: { "x+".contains($0) }).compactMap { Int($0) }
        guard numbers.count == 4 else { return nil }
        return Rect(x: numbers[2], y: numbers[3], width: numbers[0], height: numbers[1])
    }

    /// Where a file manager keeps the normal-size thumbnail of `path`, relative to the sandbox,
    /// computed independently: GLib's URI of the file and Python's MD5.
    private func thumbnailPath(for path: String) throws -> String {
        let script = "import hashlib,sys\nfrom gi.repository import GLib\n"
            + "print(hashlib.md5(GLib.filename_to_uri(sys.argv[1], None).encode()).hexdigest())"
        let output = sandbox.path("md5.txt")
        try runTool("/usr/bin/python3 -c '\(script)' '\(path)' > '\(output)'", display: desk.name)
        let digest = try String(contentsOfFile: output, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(digest.count, 32)
        return ".cache/thumbnails/normal/\(digest).png"
    }
}
