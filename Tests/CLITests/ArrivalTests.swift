// Screenshots that arrive by link() raise only IN_CREATE: a hard link and an O_TMPFILE given a name are examined and redacted too.
import Foundation
import Glibc
import ShotguardBase
import ShotguardImaging
import ShotguardTestSupport
import XCTest

/// On a server without RECORD: each screenshot is made with scrot outside the watched folders
/// while the agent runs, then given a name in ~/Pictures/Screenshots. With RECORD the agent would
/// follow scrot to that first file and rewrite it before the link is made.
final class ArrivalTests: WatchDesktopTestCase {
    override class var serverHasRecord: Bool { false }

    private var screenshots: String { sandbox.path("Pictures/Screenshots") }

    /// An agent on its default folders (~/Pictures/Screenshots among them).
    private func agent() throws -> WatchAgent {
        try FileManager.default.createDirectory(atPath: screenshots, withIntermediateDirectories: true)
        return try WatchAgent(["--regions", regions, "--no-clipboard", "--no-tools"], sandbox: sandbox, display: desk.name)
    }

    /// A capture written outside the folder, then hard-linked in: examined from its IN_CREATE and
    /// rewritten in place (the inode itself), so that the name outside the folder shows the
    /// redacted image too; the original is kept in quarantine.
    func testAHardLinkIntoTheFolderIsRedactedUnderBothNames() throws {
        let screen = try desk.screen()
        let watch = try agent()
        let outside = sandbox.path("made/a.png")
        try runTool("scrot -o '\(outside)'", display: desk.name)
        let original = try sandbox.bytes("made/a.png")
        let linked = screenshots + "/Screenshot-ln.png"
        try runTool("ln '\(outside)' '\(linked)'", display: desk.name)
        XCTAssertTrue(watch.waitForRewrite(of: linked), watch.log)

        for path in [linked, outside] {
            assertRedacted(try PNGDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), source: path),
                           origin: fullScreen, screen: screen, expected: try desk.expectedRedactions())
        }
        var inFolder = stat(), elsewhere = stat()
        XCTAssertEqual(lstat(linked, &inFolder), 0)
        XCTAssertEqual(lstat(outside, &elsewhere), 0)
        XCTAssertEqual(inFolder.st_ino, elsewhere.st_ino, "still one file under two names")
        XCTAssertEqual(inFolder.st_nlink, 2)

        let list = try sandbox.run(["quarantine", "list", "--json"])
        let entries = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(list.stdout)) as? [[String: Any]], list.stdoutText)
        let entry = try XCTUnwrap(entries.first { $0["path"] as? String == linked }, "the original is kept: \(list.stdoutText)")
        let restored = sandbox.path("made/restored.bin")
        XCTAssertEqual(try sandbox.run(["quarantine", "restore", try XCTUnwrap(entry["id"] as? String), "-o", restored]).status, 0)
        XCTAssertEqual(try sandbox.bytes("made/restored.bin"), original)
    }

    /// A writer that fills an unnamed O_TMPFILE in the folder and names it with linkat (as some
    /// programs save atomically), holding it open afterwards: its only event is IN_CREATE, and
    /// it is redacted.
    func testAnOTmpfileNamedByLinkatIsRedacted() throws {
        let screen = try desk.screen()
        let watch = try agent()
        let capture = sandbox.path("made/b.png")
        try runTool("scrot -o '\(capture)'", display: desk.name)
        let named = screenshots + "/Screenshot-tmpfile.png"
        let said = try sandbox.write("made/writer.out", [])
        let changes = try FileChanges([said])
        let script = """
            import os, sys, time
            data = open(sys.argv[1], "rb").read()
            folder = os.open(os.path.dirname(sys.argv[2]), os.O_RDONLY | os.O_DIRECTORY)
            fd = os.open(os.path.dirname(sys.argv[2]), os.O_TMPFILE | os.O_WRONLY, 0o644)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            # linkat(AT_FDCWD, "/proc/self/fd/N", folder, name, AT_SYMLINK_FOLLOW): a dir_fd makes
            # Python call linkat, where plain link() would link the /proc symlink itself.
            os.link("/proc/self/fd/%d" % fd, os.path.basename(sys.argv[2]), dst_dir_fd=folder)
            print("linked", flush=True)
            time.sleep(60)
            """
        let writer = try ChildProcess("/bin/sh", ["-c", "exec /usr/bin/python3 -c '\(script)' '\(capture)' '\(named)' > '\(said)'"],
                                      output: .standardError)
        defer { writer.stop() }
        XCTAssertTrue(changes.wait(seconds: 10) { (try? String(contentsOfFile: said, encoding: .utf8))?.contains("linked") ?? false })
        XCTAssertTrue(watch.waitForRewrite(of: named), watch.log)
        XCTAssertFalse(writer.hasExited, "the writer still holds the file open: no IN_CLOSE_WRITE came")
        assertRedacted(try sandbox.image("Pictures/Screenshots/Screenshot-tmpfile.png"), origin: fullScreen, screen: screen,
                       expected: try desk.expectedRedactions())
    }
}
