// The agent's XEmbed tray icon in a real tray (trayer), its menu driven with xdotool, and the mark
// shown on screen while ffmpeg records it.
import Foundation
import ShotguardImaging
import ShotguardBase
import ShotguardTestSupport
import XCTest

final class TrayTests: WatchDesktopTestCase {
    static let green: UInt32 = 0x2E9E4F
    static let amber: UInt32 = 0xE0A000
    static let red: UInt32 = 0xD42A2A

    /// An agent on the vault's rule with a private session bus (for `status`), docked in trayer.
    /// Not the desk's corner rule: trayer sits in that corner, and while ffmpeg records, the
    /// shield's cover hides it there as it should.
    private func dockedAgent(_ bus: AgentBus) throws -> WatchAgent {
        try startTrayer(on: desk.name, for: self)
        let rules = try sandbox.write("vault-rules", text: "window class=Vault 100%x40+0+20\n")
        let watch = try WatchAgent(["--regions", rules, "--no-files", "--no-clipboard", "--no-tools"], sandbox: sandbox,
                                   display: desk.name, environment: bus.environment, indicator: true)
        XCTAssertTrue(watch.waitForEvent("presence") { $0["docked"] as? Bool == true && $0["icon"] as? String == "protecting" },
                      "the icon never docked in trayer: \(watch.events) \(watch.log)")
        return watch
    }

    private func shotguard(_ arguments: [String], _ bus: AgentBus) throws -> RunResult {
        try sandbox.run(arguments, environment: bus.environment.mapValues { $0 })
    }

    func testTheIconDocksInTrayerItsPixelsFollowTheStateAndItsMenuPauses() throws {
        let bus = try AgentBus(self, notificationServer: false)
        let watch = try dockedAgent(bus)
        let iconID = try XCTUnwrap(try findWindow(named: "shotguard tray icon", display: desk.name), "no icon window")
        let icon = try rootGeometry(of: iconID, display: desk.name)
        XCTAssertGreaterThan(icon.width, 8, "trayer gave the icon \(icon)")
        XCTAssertGreaterThan(share(of: Self.green, in: try freshScreen(desk.name), icon), 0.2, "the protecting icon is green")

        // The menu: a click on the icon opens it, a click on "Pause 10 minutes" pauses.
        _ = try xdotool(["mousemove", String(icon.x + icon.width / 2), String(icon.y + icon.height / 2), "click", "1"],
                        display: desk.name)
        let item = try XCTUnwrap(try findWindow(named: "Pause 10 minutes", display: desk.name, wait: true),
                                 "the menu did not open: \(String(watch.log.suffix(600)))")
        _ = try xdotool(["mousemove", "--window", String(item), "20", "10", "click", "1"], display: desk.name)
        XCTAssertTrue(watch.waitForEvent("presence") { $0["icon"] as? String == "paused" }, String(watch.log.suffix(600)))
        let status = try shotguard(["status"], bus)
        XCTAssertTrue(status.stdoutText.hasPrefix("paused until "), status.stdoutText + status.stderr)
        XCTAssertTrue(status.stdoutText.contains("10 minutes from now") || status.stdoutText.contains("9 minutes from now"),
                      status.stdoutText)
        XCTAssertNil(try findWindow(named: "shotguard menu", display: desk.name), "the menu closed after the choice")
        let paused = try freshScreen(desk.name)
        XCTAssertGreaterThan(share(of: Self.amber, in: paused, icon), 0.2, "the paused icon is amber")
        XCTAssertLessThan(share(of: Self.green, in: paused, icon), 0.05, "no green left")

        let protecting = { (event: [String: Any]) in event["icon"] as? String == "protecting" }
        let before = watch.events.filter { $0["event"] as? String == "presence" && protecting($0) }.count
        XCTAssertEqual(try shotguard(["resume"], bus).status, 0)
        XCTAssertTrue(watch.waitForEvent("presence", count: before + 1, where: protecting), String(watch.log.suffix(600)))
        XCTAssertGreaterThan(share(of: Self.green, in: try freshScreen(desk.name), icon), 0.2, "green again once resumed")
    }

    /// While ffmpeg records the screen the icon turns red and a mark at the top of the screen
    /// names it; both go when it stops.
    func testARecordingTurnsTheIconRedAndShowsTheMarkUntilItStops() throws {
        let bus = try AgentBus(self, notificationServer: false)
        let watch = try dockedAgent(bus)
        let iconID = try XCTUnwrap(try findWindow(named: "shotguard tray icon", display: desk.name))
        let icon = try rootGeometry(of: iconID, display: desk.name)
        XCTAssertNil(try findWindow(named: "shotguard recording indicator", display: desk.name), "no mark before a recording")

        let idle = { (event: [String: Any]) in event["indicator"] is NSNull && event["icon"] as? String == "protecting" }
        let idleBefore = watch.events.filter { $0["event"] as? String == "presence" && idle($0) }.count
        let ffmpeg = try startRecording(desk.name, seconds: 4)
        XCTAssertTrue(watch.waitForEvent("presence") { $0["indicator"] as? String == "RECORDING: ffmpeg" }, String(watch.log.suffix(600)))
        let markID = try XCTUnwrap(try findWindow(named: "shotguard recording indicator", display: desk.name),
                                   "the mark is not on screen while ffmpeg records")
        let mark = try rootGeometry(of: markID, display: desk.name)
        XCTAssertEqual(mark.y, 0, "the mark sits at the top: \(mark)")
        XCTAssertEqual(mark.x + mark.width / 2, 320, accuracy: 1, "and in the middle: \(mark)")
        let screen = try freshScreen(desk.name)
        XCTAssertGreaterThan(share(of: Self.red, in: screen, icon), 0.2, "the recording icon is red")
        XCTAssertGreaterThan(share(of: 0xE02424, in: screen, mark), 0.01, "the mark shows its red dot")

        XCTAssertEqual(ffmpeg.waitForExit(), 0)
        XCTAssertTrue(watch.waitForEvent("presence", count: idleBefore + 1, where: idle), String(watch.log.suffix(600)))
        XCTAssertTrue(watch.waitForEvent("recording") { $0["state"] as? String == "stopped" }, String(watch.log.suffix(600)))
        XCTAssertNil(try findWindow(named: "shotguard recording indicator", display: desk.name), "the mark went with the recording")
        XCTAssertGreaterThan(share(of: Self.green, in: try freshScreen(desk.name), icon), 0.2, "the icon is green again")
    }
}
