// A field rule in a session without a D-Bus session bus: the command starts none. libdbus's X11
// autolaunch (dbus-launch) used to start a session bus, the AT-SPI bus launcher, its bus and
// registryd, all of which outlived `regions check`.
import Foundation
import Glibc
import ShotguardBase
import ShotguardX11
import ShotguardScene
import ShotguardTestSupport
import XCTest

final class SessionBusLeakTests: XCTestCase {
    func testAFieldRuleWithoutASessionBusStartsNoBus() throws {
        guard programExists("dbus-launch") else {
            throw FixtureError("dbus-launch is not installed (Debian package 'dbus-x11'): without it nothing could be autolaunched")
        }
        let sandbox = try Sandbox(self)
        let server = try VirtualDisplay(width: 64, height: 48)
        defer { server.stop() }
        let regions = try sandbox.write("regions", text: "field role=password\n")
        let before = processes(on: server.name)
        // A clean session: no DBUS_SESSION_BUS_ADDRESS, no XDG_RUNTIME_DIR, nothing on the display.
        let check = try sandbox.run(["regions", "check", "--regions", regions], environment: ["DISPLAY": server.name])
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertTrue(check.stdoutText.contains("no D-Bus session bus in this session"), check.stdoutText)
        XCTAssertTrue(check.stdoutText.contains("    hits nothing"), check.stdoutText)
        let capture = try sandbox.run(["capture", "--regions", regions, "-o", "shot.png"], environment: ["DISPLAY": server.name])
        XCTAssertEqual(capture.status, 0, capture.stderr)
        let after = processes(on: server.name)
        XCTAssertEqual(after, before, "processes left running on the display: \(after.subtracting(before).sorted())")
        XCTAssertFalse(try Display(name: server.name).advertisesSessionBus(), "no bus was autolaunched for the display")
        // Whatever a failure left behind was started by the commands above: stop it.
        for leftover in after.subtracting(before) { kill(leftover.pid, SIGTERM) }
    }

    /// The processes whose environment names `display` (what dbus-launch and the buses it
    /// starts inherit), by pid and program.
    private func processes(on display: String) -> Set<LeftProcess> {
        let marker = Array("DISPLAY=\(display)".utf8) + [0]
        var found = Set<LeftProcess>()
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return found }
        for entry in entries {
            guard let pid = Int32(entry), pid != getpid(),
                  let environ = FileManager.default.contents(atPath: "/proc/\(entry)/environ") else { continue }
            let bytes = [UInt8](environ)
            let named = bytes.starts(with: marker) || bytes.indices.contains { $0 > 0 && bytes[$0 - 1] == 0 && bytes[$0...].starts(with: marker) }
            guard named else { continue }
            let program = (try? String(contentsOfFile: "/proc/\(entry)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
            found.insert(LeftProcess(pid: pid, program: program))
        }
        return found
    }
}

private struct LeftProcess: Hashable, Comparable, CustomStringConvertible {
    let pid: Int32
    let program: String

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.pid < rhs.pid }
    var description: String { "\(program) (\(pid))" }
}
