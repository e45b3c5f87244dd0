// Where guard cannot redact a screenshot it fails closed: too large, closed late, a full disk, a state folder that takes nothing.
import Foundation
import Glibc
import ShotguardBase
import ShotguardImaging
import ShotguardTestSupport
import XCTest

/// With RECORD, as on a desktop. Screenshots are either captured before the agent starts and
/// written in by a program that never reads the screen (so no screen reader is followed to a
/// file of its own), or piped out of `scrot -` so that scrot's read, a moment before, is what
/// ties a file named as a screenshot that cannot be placed to a capture (`GuardPolicy.judge`).
final class FailClosedTests: WatchDesktopTestCase {
    private func agent(environment: [String: String] = [:]) throws -> WatchAgent {
        try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools"], sandbox: sandbox, display: desk.name,
                       environment: environment)
    }

    /// A tmpfs of `size` (mount's syntax: `1M`) on the existing folder `path`, unmounted when the
    /// test ends.
    private func mountTmpfs(at path: String, size: String, readOnly: Bool = false) throws {
        let options = "size=\(size),mode=0700" + (readOnly ? ",ro" : "")
        let mount = try ChildProcess("mount", ["-t", "tmpfs", "-o", options, "tmpfs", path], output: .standardError)
        guard mount.waitForExit() == 0 else { throw FixtureError("cannot mount a tmpfs on \(path) (the test needs root)") }
        addTeardownBlock { _ = try? ChildProcess("umount", ["-l", path], output: .standardError).waitForExit() }
    }

    /// Fills the file system of `folder` with zeros in a file named `filler` (no image name).
    private func fill(_ folder: String) throws {
        try runTool("dd if=/dev/zero of='\(folder)/filler' bs=4096 2>/dev/null; test -s '\(folder)/filler'", display: desk.name)
    }

    /// The placeholder guard leaves where a screenshot was set aside: grey with words, nothing else.
    private func assertPlaceholder(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let image = try PNGDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
        var colours = Set<UInt32>()
        for y in 0..<image.height { for x in 0..<image.width { colours.insert(image[x, y] & 0xFF_FFFF) } }
        XCTAssertEqual(colours, [0x3C3F41, 0xF0F0F0], "only the placeholder's background and its words", file: file, line: line)
    }

    /// The one quarantine entry for `path`: its original's bytes and the reason recorded.
    private func quarantined(_ path: String, environment: [String: String?] = [:],
                             file: StaticString = #filePath, line: UInt = #line) throws -> (original: [UInt8], reason: String) {
        let list = try sandbox.run(["quarantine", "list", "--json"], environment: environment)
        let entries = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(list.stdout)) as? [[String: Any]], list.stdoutText,
                                    file: file, line: line)
        let entry = try XCTUnwrap(entries.first { $0["path"] as? String == path }, list.stdoutText, file: file, line: line)
        let restored = sandbox.path("made/restored.bin")
        let restore = try sandbox.run(["quarantine", "restore", try XCTUnwrap(entry["id"] as? String), "-o", restored],
                                      environment: environment)
        XCTAssertEqual(restore.status, 0, restore.stderr, file: file, line: line)
        return (try sandbox.bytes("made/restored.bin"), entry["reason"] as? String ?? "")
    }

    /// The log line that mentions `text`, whole: where the wording is the feature (an error that
    /// names its cause for the person who reads the log).
    private func logLine(_ watch: WatchAgent, containing text: String) -> String {
        watch.log.split(separator: "\n").first { $0.contains(text) }.map(String.init) ?? ""
    }

    /// A valid screenshot PNG over the 64 MiB read limit (a 70 MB ancillary chunk after its
    /// header), written by a program that did not read the screen right after scrot did: it is
    /// not read, and is set aside unread — moved into quarantine whole, a placeholder in its place.
    func testAScreenshotOver64MiBIsSetAsideUnread() throws {
        let watch = try agent()
        let path = shots + "/Screenshot-huge.png"
        let insert = """
            import struct, sys, zlib
            png = sys.stdin.buffer.read()
            body = bytes(70 * 1000 * 1000)
            chunk = struct.pack(">I", len(body)) + b"prVt" + body + struct.pack(">I", zlib.crc32(b"prVt" + body))
            sys.stdout.buffer.write(png[:33] + chunk + png[33:])
            """
        try runTool("cd '\(sandbox.path("made"))' && scrot - | /usr/bin/python3 -c '\(insert)' > '\(path)'", display: desk.name)
        XCTAssertNotNil(watch.waitForExamined(path, seconds: 20) { $0["file"] as? String == "quarantined" }, watch.log)
        try assertPlaceholder(path)
        let (original, reason) = try quarantined(path)
        XCTAssertGreaterThan(original.count, 70_000_000)
        XCTAssertEqual(Array(original.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "the whole PNG, moved as it was")
        print("fail closed, too large: set aside because it \(reason)")
    }

    /// A writer that keeps its file open and closes it 6 s after its last byte: the file is
    /// examined when it is closed, whatever its age, and rewritten redacted.
    func testAScreenshotClosedSixSecondsAfterItWasWrittenIsRedacted() throws {
        try runTool("scrot -o '\(sandbox.path("made/c.png"))'", display: desk.name)
        let screen = try desk.screen()
        let watch = try agent()
        let path = shots + "/Screenshot-late.png"
        let said = try sandbox.write("made/writer.out", [])
        let changes = try FileChanges([said])
        let writer = """
            import os, sys, time
            data = open(sys.argv[1], "rb").read()
            out = open(sys.argv[2], "wb", buffering=0)
            time.sleep(0.5)
            out.write(data)
            print("written", flush=True)
            time.sleep(6)
            out.close()
            print("closed", flush=True)
            """
        let child = try ChildProcess("/bin/sh", ["-c", "exec /usr/bin/python3 -c '\(writer)' '\(sandbox.path("made/c.png"))' '\(path)' "
                                                 + "> '\(said)'"], output: .standardError)
        defer { child.stop() }
        let text = { (try? String(contentsOfFile: said, encoding: .utf8)) ?? "" }
        XCTAssertTrue(changes.wait(seconds: 15) { text().contains("closed") }, text())
        let rewrote = watch.waitForExamined(path) { $0["file"] as? String == "rewritten" }
        let rewritten = try XCTUnwrap(WatchAgent.time(of: rewrote), watch.log)
        var status = stat()
        XCTAssertEqual(lstat(path, &status), 0)
        let written = Date(timeIntervalSince1970: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9)
        print("fail closed, closed late: rewritten \(milliseconds(from: written, to: rewritten)) ms after its bytes were written")
        assertRedacted(try sandbox.image("shots/Screenshot-late.png"), origin: fullScreen, screen: screen,
                       expected: try desk.expectedRedactions())
    }

    /// The watched folder is a full file system: the redacted rewrite cannot be written. The
    /// screenshot is moved aside into quarantine (on another file system: copied, then removed),
    /// a placeholder takes its place, and a warning says so (the disk's error is the quarantine
    /// entry's reason).
    func testAFullDiskDuringTheRewriteSetsTheScreenshotAside() throws {
        try runTool("scrot -o '\(sandbox.path("made/d.png"))'", display: desk.name)
        let capture = try sandbox.bytes("made/d.png")
        try mountTmpfs(at: shots, size: "1M")
        let watch = try agent()
        // Copied in under a name no one examines, the disk filled, then named as a screenshot.
        try runTool("cp '\(sandbox.path("made/d.png"))' '\(shots)/.incoming'", display: desk.name)
        try fill(shots)
        let path = shots + "/Screenshot-full-disk.png"
        XCTAssertEqual(rename(shots + "/.incoming", path), 0)
        XCTAssertNotNil(watch.waitForExamined(path) { $0["file"] as? String == "quarantined" }, watch.log)
        let line = logLine(watch, containing: "guard: \(path) could not be redacted")
        print("fail closed, full disk: \(line)")
        XCTAssertTrue(line.contains("shotguard: error: ") && line.contains("No space left on device"),
                      "the failure is logged as an error that names its cause: \(line)")
        try assertPlaceholder(path)
        let entry = try quarantined(path)
        XCTAssertEqual(entry.original, capture, "the original is in quarantine")
        XCTAssertTrue(entry.reason.contains("No space left on device"), entry.reason)
    }

    /// The state folder (where the quarantine lives) is a full file system, and a screenshot must
    /// be set aside (scaled and mirrored, it cannot be placed): nothing can be moved there, so the screenshot
    /// is made unreadable (mode 0) where it is, and an error names the state folder's error.
    func testAFullStateFolderLeavesTheScreenshotUnreadable() throws {
        let state = sandbox.path("state")
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        try mountTmpfs(at: state, size: "64k")
        let watch = try agent(environment: ["XDG_STATE_HOME": state])
        try fill(state)
        let path = shots + "/Screenshot-scaled.png"
        try runTool("cd '\(sandbox.path("made"))' && scrot - | /usr/bin/convert - -resize 50% -flop '\(path)'", display: desk.name)
        XCTAssertNotNil(watch.waitForExamined(path) { $0["file"] as? String == "unreadable" }, watch.log)
        let line = logLine(watch, containing: "guard: \(path) could not be redacted nor moved aside")
        print("fail closed, full state folder: \(line)")
        var status = stat()
        XCTAssertEqual(lstat(path, &status), 0)
        XCTAssertEqual(status.st_mode & 0o7777, 0, "no one but root reads it")
        // As another user (the sandbox opened for the walk only): the file itself refuses the read.
        XCTAssertEqual(chmod(sandbox.home.path, 0o711), 0)
        let reader = try ChildProcess("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "--", "cat", path],
                                      output: .discard)
        XCTAssertNotEqual(reader.waitForExit(), 0, "another user read the screenshot")
        let control = try ChildProcess("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "--", "test", "-x", shots],
                                       output: .discard)
        XCTAssertEqual(control.waitForExit(), 0, "the folder is open to the walk, so the refusal is the file's mode")
        XCTAssertTrue(line.contains("shotguard: error: ") && line.contains("No space left on device"),
                      "the failure is logged as an error with its cause: \(line)")
    }
}
