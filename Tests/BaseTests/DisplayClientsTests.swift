// The processes taken for an X client the server could not tell: this user's, on the display, started in the window.
import Foundation
import Glibc
import ShotguardBase
import XCTest

final class DisplayClientsTests: XCTestCase {
    func testDisplayNamesThatPointAtOneDisplay() {
        XCTAssertEqual(DisplayAddress(":0"), DisplayAddress(":0.0"))
        XCTAssertEqual(DisplayAddress(":0"), DisplayAddress("unix:0"))
        XCTAssertNotEqual(DisplayAddress(":0"), DisplayAddress(":1"))
        XCTAssertNotEqual(DisplayAddress(":10"), DisplayAddress("localhost:10.0"), "over TCP (ssh -X) is another display")
        XCTAssertEqual(DisplayAddress("localhost:10.0")?.host, "localhost")
        for broken in ["", "0", ":", ":x", "host:", ":-1"] { XCTAssertNil(DisplayAddress(broken), broken) }
    }

    /// A program started by a shell that has exited (as a reader started from a terminal is no
    /// child of the agent), with `display` in its environment; its pid.
    private func orphan(display: String) throws -> Int32 {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("display-clients-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("pid").path
        let shell = try ChildProcess("/bin/sh", ["-c", "DISPLAY='\(display)' sleep 60 </dev/null >/dev/null 2>&1 & echo $! > '\(file)'"])
        XCTAssertEqual(shell.waitForExit(), 0)
        let text = try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let pid = try XCTUnwrap(Int32(text))
        addTeardownBlock { kill(pid, SIGKILL) }
        return pid
    }

    func testOnlyThisDisplaysProgramsStartedInTheWindowAreFound() throws {
        let display = try XCTUnwrap(DisplayAddress(":97"))
        let on = try orphan(display: ":97.0")
        let other = try orphan(display: ":98")
        let child = try ChildProcess("sleep", ["60"], environment: ["DISPLAY": ":97"])
        defer { child.stop() }
        let stat = try XCTUnwrap(ProcessStat.of(pid: on))
        let started = ProcessTree.startSeconds(stat)
        XCTAssertEqual(DisplayClients.environment("DISPLAY", of: on), ":97.0")
        XCTAssertNil(DisplayClients.environment("SHOTGUARD_NO_SUCH_VARIABLE", of: on))
        let found = DisplayClients.started(on: display, from: started - 5, to: started + 5, except: [], limit: 8)
        XCTAssertTrue(found.contains(on), "\(found)")
        XCTAssertFalse(found.contains(other), "another display's")
        XCTAssertFalse(found.contains(child.pid), "the caller's own child")
        XCTAssertFalse(DisplayClients.started(on: display, from: started + 1, to: started + 5, except: [], limit: 8).contains(on),
                       "started before the window")
        XCTAssertFalse(DisplayClients.started(on: display, from: started - 5, to: started + 5, except: [on], limit: 8).contains(on))
    }
}
