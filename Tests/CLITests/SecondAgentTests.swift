// One agent per display, whatever the display is called: `:N`, `:0N`, `unix/:N` and `:N.0` name one server.
import Foundation
import ShotguardTestSupport
import XCTest

/// The lock does not depend on RECORD; the suite runs with it, as on a desktop.
final class SecondAgentTests: WatchDesktopTestCase {
    /// A second agent started with another spelling of the running one's display is refused
    /// (exit 2), and the first keeps running.
    func testAnotherNameOfTheSameDisplayIsRefused() throws {
        let watch = try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard"], sandbox: sandbox, display: desk.name)
        let number = try XCTUnwrap(desk.name.split(separator: ":").last.map(String.init), desk.name)
        for name in [":0\(number)", ":00\(number)", "unix/:\(number)", "unix:\(number)", ":\(number).0"] {
            var environment = testEnvironment(home: sandbox.home)
            environment["DISPLAY"] = name
            let second = try runProgram(try shotguardBinary(), ["watch", "--spool", sandbox.path("spool2"), "--no-clipboard"],
                                        environment: environment, in: sandbox.home, timeout: 15)
            XCTAssertEqual(second.status, 2, "DISPLAY=\(name): \(second.stderr)")
            XCTAssertTrue(second.stderr.contains("another shotguard watch is already running on display \(name)"),
                          "DISPLAY=\(name): \(second.stderr)")
        }
        XCTAssertTrue(watch.process.isRunning, "the first agent keeps running")
    }

    /// Regression: `shotguard autostart` beside a running agent exited 2 ("another shotguard
    /// watch is already running"); the running agent is left alone, and autostart succeeds.
    func testAutostartBesideARunningAgentLeavesItAndSucceeds() throws {
        let watch = try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard"], sandbox: sandbox, display: desk.name)
        var environment = testEnvironment(home: sandbox.home)
        environment["DISPLAY"] = desk.name
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/bus"
        let autostart = try runProgram(try shotguardBinary(), ["autostart"], environment: environment, in: sandbox.home, timeout: 15)
        XCTAssertEqual(autostart.status, 0, autostart.stderr)
        XCTAssertEqual(autostart.stderr, "shotguard: an agent already runs for display \(desk.name); it is left as it is\n")
        XCTAssertTrue(watch.process.isRunning, "the running agent keeps running")
    }
}
