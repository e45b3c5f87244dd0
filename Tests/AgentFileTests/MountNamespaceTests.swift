// A path only another mount namespace sees, reached through a process that lives in it.
import Foundation
import Glibc
@testable import ShotguardAgent
import ShotguardBase
import ShotguardTestSupport
import XCTest

final class MountNamespaceTests: XCTestCase {
    /// A shell in a namespace of its own mounts a folder and writes a file there: the agent's
    /// namespace never sees it, the shell's root does, and the agent's own process is no way in.
    func testAFileOnlyAnotherNamespaceSeesIsReachedThroughAProcessInIt() throws {
        _ = try requireTool("unshare", package: "util-linux")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shotguard-namespace-\(UUID().uuidString)").path
        let hidden = folder + "/hidden"
        try FileManager.default.createDirectory(atPath: hidden, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let ready = folder + "/ready", go = folder + "/go"
        XCTAssertEqual(mkfifo(ready, 0o600), 0)
        XCTAssertEqual(mkfifo(go, 0o600), 0)
        // Opened for reading and writing, the FIFO never blocks the shell's `read`.
        let release = open(go, O_RDWR)
        XCTAssertGreaterThanOrEqual(release, 0)
        defer { close(release) }
        let inside = "mount -t tmpfs none '\(hidden)' && echo made > '\(hidden)/f' && echo ok > '\(ready)' && read line < '\(go)'"
        let child = try ChildProcess("unshare", (getuid() == 0 ? ["-m"] : ["-r", "-m"]) + ["sh", "-c", inside], output: .standardError)
        // Blocks until the shell has written its file.
        let signal = open(ready, O_RDONLY)
        XCTAssertGreaterThanOrEqual(signal, 0)
        var byte: UInt8 = 0
        XCTAssertEqual(read(signal, &byte, 1), 1, "the namespace's shell failed")
        close(signal)

        let path = BytePath(hidden + "/f")
        XCTAssertFalse(FileManager.default.fileExists(atPath: hidden + "/f"), "the agent's namespace never sees it")
        let own = try XCTUnwrap(MountNamespace.own)
        let theirs = try XCTUnwrap(MountNamespace.of(pid: child.pid))
        XCTAssertNotEqual(theirs, own)
        let reached = try XCTUnwrap(MountNamespace.reach(path, in: theirs, through: child.pid))
        XCTAssertEqual(reached, BytePath("/proc/\(child.pid)/root" + hidden + "/f"))
        XCTAssertEqual(try String(contentsOfFile: reached.lossyText, encoding: .utf8), "made\n")
        XCTAssertNil(MountNamespace.reach(path, in: theirs, through: getpid()), "a process of another namespace is no way in")
        XCTAssertEqual(MountNamespace.reach(path, in: own, through: nil), path)

        XCTAssertEqual(write(release, "go\n", 3), 3)
        XCTAssertEqual(child.waitForExit(), 0)
        XCTAssertNil(MountNamespace.reach(path, in: theirs, through: child.pid), "its namespace is gone with it")
    }
}
