// `status`, `pause` and `resume` when no agent runs: what they can tell about why, from the
// session bus and the systemd user manager (a fake that answers like one: the manager is not ours).
import Foundation
import ShotguardBase
import ShotguardBus
import ShotguardTestSupport
import XCTest

final class NoAgentTests: XCTestCase {
    private func shotguard(_ arguments: [String], _ bus: PrivateBus, programs: [PipedProcess] = [],
                           environment: [String: String] = [:]) throws -> PipedProcess {
        let process = try PipedProcess(try shotguardBinary(), arguments, environment: bus.environment(environment))
        serve([], programs: programs + [process]) { process.isFinished }
        process.wait()
        return process
    }

    func testStatusWithoutASessionBus() throws {
        let bus = try PrivateBus(self)
        let status = try shotguard(["status"], bus, environment: ["DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": ""])
        XCTAssertEqual(status.exitStatus, 1)
        XCTAssertEqual(status.stdoutText,
                       "off: no agent runs: no session bus: DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are not set\n")
        let empty = bus.folder.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let missing = try shotguard(["status", "--json"], bus, environment: ["DBUS_SESSION_BUS_ADDRESS": "",
                                                                             "XDG_RUNTIME_DIR": empty.path])
        XCTAssertEqual(missing.exitStatus, 1)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(missing.stdout)) as? [String: Any])
        XCTAssertEqual(object["state"] as? String, "off")
        XCTAssertEqual(object["agent"] as? Bool, false)
        XCTAssertEqual(object["why"] as? String,
                       "no agent runs: no session bus: DBUS_SESSION_BUS_ADDRESS is not set and there is no \(empty.path)/bus")
    }

    /// Without libsystemd every command still starts, since libsystemd is loaded only to reach
    /// the bus, and status says why there is no bus. While it was linked nothing started.
    func testStatusWithoutLibsystemd() throws {
        let bus = try PrivateBus(self)
        let status = try runWithoutLibrary("libsystemd.so.0", URL(fileURLWithPath: try shotguardBinary()), ["status"],
                                           environment: bus.environment())
        XCTAssertEqual(status.status, 1, status.stderr)
        let text = status.stdoutText
        XCTAssertTrue(text.hasPrefix("off: no agent runs: cannot load libsystemd.so.0 ("), text + status.stderr)
        XCTAssertTrue(text.hasSuffix("): the session bus needs libsystemd (Debian: libsystemd0)\n"), text)
    }

    func testNoAgentAndNoUserManager() throws {
        let bus = try PrivateBus(self)
        let status = try shotguard(["status"], bus)
        XCTAssertEqual(status.exitStatus, 1)
        XCTAssertEqual(status.stdoutText, "off: no agent runs: no systemd user manager on the session bus: start the agent "
            + "with 'shotguard watch' (the autostart entry runs 'shotguard autostart', which does)\n")
        for command in ["pause", "resume"] {
            let run = try shotguard([command], bus)
            XCTAssertEqual(run.exitStatus, 1, command)
            XCTAssertEqual(run.stdoutText, "", command)
            XCTAssertTrue(run.stderrText.hasPrefix("shotguard: \(command): no agent runs: no systemd user manager"), run.stderrText)
        }
    }

    /// A plain X session: the manager never heard of DISPLAY, so the unit never started.
    func testUserManagerWithoutDisplay() throws {
        let bus = try PrivateBus(self)
        let manager = try startFake("systemd-manager.py", ["--environment", "HOME=/home/u,LANG=C.UTF-8", "--unit",
                                                           #"{"LoadState": "loaded", "UnitFileState": "enabled"}"#], on: bus)
        let status = try shotguard(["status"], bus, programs: [manager])
        XCTAssertEqual(status.exitStatus, 1)
        XCTAssertEqual(status.stdoutText, "off: no agent runs: the systemd user manager has no DISPLAY (a session that does "
            + "not import it, such as a plain X session): run 'systemctl --user import-environment DISPLAY XAUTHORITY', "
            + "then 'systemctl --user restart shotguard.service'\n")
        let methods = records(of: manager).compactMap { $0["method"] as? String }
        XCTAssertEqual(methods, ["LoadUnit"], "status only asks; it starts and changes nothing")
    }

    func testUnitThatFailed() throws {
        let bus = try PrivateBus(self)
        let manager = try startFake("systemd-manager.py", ["--environment", "DISPLAY=:0", "--unit",
                                                           #"{"LoadState": "loaded", "ActiveState": "failed", "Result": "exit-code", "ExecMainStatus": 2}"#],
                                    on: bus)
        let status = try shotguard(["status"], bus, programs: [manager])
        XCTAssertEqual(status.stdoutText,
                       "off: no agent runs: shotguard.service failed (exit status 2): see 'journalctl --user -u shotguard.service'\n")
    }

    func testUnitNotInstalledAndUnitNotEnabled() throws {
        let bus = try PrivateBus(self)
        let missing = try startFake("systemd-manager.py", ["--environment", "DISPLAY=:0"], on: bus)
        XCTAssertEqual(try shotguard(["status"], bus, programs: [missing]).stdoutText, "off: no agent runs: shotguard.service "
            + "is not installed for the systemd user manager; run 'shotguard watch', or install the unit\n")
        missing.terminate()

        let disabled = try startFake("systemd-manager.py", ["--environment", "DISPLAY=:0", "--unit",
                                                            #"{"LoadState": "loaded", "UnitFileState": "disabled"}"#], on: bus)
        XCTAssertEqual(try shotguard(["status"], bus, programs: [disabled]).stdoutText, "off: no agent runs: shotguard.service "
            + "is not started and not enabled: run 'systemctl --user enable --now shotguard.service'\n")
    }

    /// The autostart entry with a user manager that has the unit: the session's display goes
    /// to the manager, a failed state from an earlier session is cleared, and the unit starts.
    func testAutostartStartsTheUnitWithTheSessionsDisplay() throws {
        let bus = try PrivateBus(self)
        let manager = try startFake("systemd-manager.py", ["--environment", "DISPLAY=:3", "--unit",
                                                           #"{"LoadState": "loaded", "ActiveState": "failed"}"#], on: bus)
        let autostart = try shotguard(["autostart"], bus, programs: [manager],
                                      environment: ["DISPLAY": ":5", "XAUTHORITY": "/home/u/.Xauthority"])
        XCTAssertEqual(autostart.exitStatus, 0, autostart.stderrText)
        XCTAssertEqual(autostart.stderrText, "shotguard: started shotguard.service in the systemd user manager for display :5\n")
        let calls = records(of: manager).filter { $0["method"] != nil }
        XCTAssertEqual(calls.map { $0["method"] as? String }, ["LoadUnit", "SetEnvironment", "ResetFailedUnit", "StartUnit"])
        guard calls.count == 4 else { return }
        XCTAssertEqual(calls[1]["arguments"] as? [[String]], [["DISPLAY=:5", "XAUTHORITY=/home/u/.Xauthority"]])
        XCTAssertEqual(calls[3]["arguments"] as? [String], ["shotguard.service", "replace"])
    }

    /// Without a user manager (or without the unit) the entry runs the agent itself: this
    /// process becomes `shotguard watch`, which here finds no X server.
    func testAutostartRunsTheAgentWhenThereIsNoUnit() throws {
        let bus = try PrivateBus(self)
        let expected = "shotguard: cannot open X display ':987' (is the X server running, and is DISPLAY right?)\n"
        let alone = try shotguard(["autostart"], bus, environment: ["DISPLAY": ":987"])
        XCTAssertEqual(alone.exitStatus, 1)
        XCTAssertEqual(alone.stderrText, expected, "the output of 'shotguard watch'")

        let manager = try startFake("systemd-manager.py", ["--environment", "DISPLAY=:0"], on: bus)
        let noUnit = try shotguard(["autostart"], bus, programs: [manager], environment: ["DISPLAY": ":987"])
        XCTAssertEqual(noUnit.exitStatus, 1)
        XCTAssertEqual(noUnit.stderrText, expected)
        XCTAssertEqual(records(of: manager).compactMap { $0["method"] as? String }, ["LoadUnit"], "nothing was started")

        let noDisplay = try shotguard(["autostart"], bus, environment: ["DISPLAY": ""])
        XCTAssertEqual(noDisplay.exitStatus, 1)
        XCTAssertEqual(noDisplay.stderrText,
                       "shotguard: autostart: DISPLAY is not set (run it from the X session, as its autostart entry does)\n")
    }
}
