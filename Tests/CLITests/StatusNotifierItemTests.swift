// The agent's StatusNotifierItem, read by a watcher and host on a private session bus as a panel
// reads it: registered, its Status, ToolTip and menu following the state, its menu's clicks obeyed.
import Foundation
import ShotguardBase
import ShotguardTestSupport
import XCTest

final class StatusNotifierItemTests: WatchDesktopTestCase {
    /// The item as the watcher last read it: (Status, tooltip text, menu labels that are enabled).
    private func reads(_ watcher: PipedProcess) -> [(status: String, toolTip: String, enabled: [String], sender: String)] {
        records(of: watcher).compactMap { record in
            guard let item = record["item"] as? [String: Any], let menu = record["menu"] as? [[String: Any]] else { return nil }
            let toolTip = (item["ToolTip"] as? [String])?.last ?? ""
            let enabled = menu.filter { $0["enabled"] as? Bool == true && $0["type"] as? String != "separator" }
                .compactMap { $0["label"] as? String }
            return (item["Status"] as? String ?? "", toolTip, enabled, record["sender"] as? String ?? "")
        }
    }

    /// Waits until the watcher's last reading meets `condition`; that reading.
    private func waitForRead(_ watcher: PipedProcess, line: UInt = #line,
                             _ condition: @escaping ((status: String, toolTip: String, enabled: [String], sender: String)) -> Bool)
        -> (status: String, toolTip: String, enabled: [String], sender: String)? {
        readOutput(of: [watcher], limit: 20, line: line) { self.reads(watcher).last.map(condition) ?? false }
        return reads(watcher).last
    }

    func testTheItemRegistersAndItsStatusToolTipAndMenuFollowTheState() throws {
        let bus = try PrivateBus(self)
        let watcher = try startFakeServer("sni-watcher.py", on: bus)
        defer { watcher.terminate() }
        let environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
        let watch = try WatchAgent(["--regions", regions, "--no-files", "--no-clipboard", "--no-tools"], sandbox: sandbox,
                                   display: desk.name, environment: environment)
        let first = try XCTUnwrap(waitForRead(watcher) { $0.toolTip.hasPrefix("Protecting with 3 rules") }, watch.log)
        XCTAssertEqual(first.status, "Active")
        XCTAssertTrue(records(of: watcher).contains { ($0["registered"] as? String)?.hasPrefix("org.kde.StatusNotifierItem-") ?? false })
        XCTAssertEqual(first.enabled, ["Pause 10 minutes", "Pause 1 hour", "Pause until resumed", "Open reports folder", "Edit rules",
                                       "Open quarantine"])
        XCTAssertTrue(watch.waitForEvent("presence") { $0["item"] as? Bool == true }, "the agent knows a host shows the item")

        // Paused from the command line: the item says so.
        XCTAssertEqual(try sandbox.run(["pause", "10m"], environment: environment).status, 0)
        let paused = try XCTUnwrap(waitForRead(watcher) { $0.status == "NeedsAttention" }, watch.log)
        XCTAssertTrue(paused.toolTip.hasPrefix("Paused until "), paused.toolTip)
        XCTAssertEqual(paused.enabled.first, "Resume", "only Resume among the pauses: \(paused.enabled)")

        // Resumed from the menu, as a panel does it: Event(id, "clicked").
        let gdbus = try requireTool("gdbus", package: "libglib2.0-bin")
        let click = try runProgram(gdbus, ["call", "--session", "--dest", paused.sender, "--object-path", "/MenuBar", "--method",
                                           "com.canonical.dbusmenu.Event", "4", "clicked", "<int32 0>", "0"],
                                   environment: bus.environment())
        XCTAssertEqual(click.status, 0, click.stderr)
        let resumed = try XCTUnwrap(waitForRead(watcher) { $0.status == "Active" }, watch.log)
        XCTAssertTrue(resumed.toolTip.hasPrefix("Protecting with 3 rules"), resumed.toolTip)
        XCTAssertTrue(try sandbox.run(["status"], environment: environment).stdoutText.hasPrefix("protecting"))

        // A recording: the item needs attention and names the program, until it stops.
        let ffmpeg = try startRecording(desk.name, seconds: 3)
        let recording = try XCTUnwrap(waitForRead(watcher) { $0.toolTip.contains("Recording: ffmpeg") }, watch.log)
        XCTAssertEqual(recording.status, "NeedsAttention")
        XCTAssertEqual(ffmpeg.waitForExit(), 0)
        let after = try XCTUnwrap(waitForRead(watcher) { !$0.toolTip.contains("Recording") }, watch.log)
        XCTAssertEqual(after.status, "Active")
    }

    /// With no watcher on the bus the agent runs as before: no item shown, no error said.
    func testWithoutAWatcherNothingFails() throws {
        let bus = try PrivateBus(self)
        let watch = try WatchAgent(["--regions", regions, "--no-files", "--no-clipboard", "--no-tools"], sandbox: sandbox,
                                   display: desk.name, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        XCTAssertTrue(watch.waitForEvent("presence"), watch.log)
        XCTAssertEqual(watch.events("problem").count, 0, "no warning, no error: \(watch.log)")
        XCTAssertFalse(watch.events.contains { $0["event"] as? String == "presence" && $0["item"] as? Bool == true })
    }
}
