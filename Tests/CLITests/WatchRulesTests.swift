// The rules for real desktops through the running agent: a notification pop-up (dunst) covered by
// its window type, `screen` less an allowed window, a window that asks for protection with no
// rule, and a locked system policy that the user's file, --no-guard and pause cannot weaken.
import Foundation
import ShotguardBase
import ShotguardImaging
import ShotguardScene
import ShotguardScreen
import ShotguardTestSupport
import ShotguardX11
import XCTest

final class WatchRulesTests: WatchDesktopTestCase {
    private let black: UInt32 = 0x000000
    private let magenta: UInt32 = 0xFF00FF

    private func agent(_ rules: String, _ extra: [String] = [], environment: [String: String] = [:]) throws -> WatchAgent {
        try WatchAgent(["--regions", rules, "--dir", shots, "--no-clipboard", "--no-tools"] + extra, sandbox: sandbox,
                       display: desk.name, environment: environment)
    }

    /// A scrot screenshot into the watched folder, once guard has rewritten it; its pixels.
    private func guardedScrot(_ name: String, by watch: WatchAgent, file: StaticString = #filePath, line: UInt = #line) throws -> PixelBuffer {
        let path = shots + "/" + name
        try runTool("scrot -o '\(path)'", display: desk.name, file: file, line: line)
        let report = try XCTUnwrap(watch.nextReport(), watch.log, file: file, line: line)
        XCTAssertEqual((report.json["guard"] as? [String: Any])?["file"] as? String, "rewritten", "\(report.json)", file: file, line: line)
        return try PNGDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
    }

    /// Presses the shield's key (F9) and grabs the screen while its covers are up.
    private func screenUnderTheShield(_ watch: WatchAgent, press: Int, file: StaticString = #filePath, line: UInt = #line) throws -> PixelBuffer {
        try runTool("xdotool key F9", display: desk.name, file: file, line: line)
        XCTAssertTrue(watch.waitForEvent("shield-key", count: press), watch.log, file: file, line: line)
        let screen = try desk.screen()
        XCTAssertTrue(watch.waitForCoversDown(count: press), watch.log, file: file, line: line)
        return screen
    }

    private func outerFrame(_ window: UInt) throws -> Rect { try desk.display.windowInfo(window).outerFrame }

    /// `screen` black everywhere but in `visible`.
    private func onlyVisible(_ visible: Rect, of screen: PixelBuffer) -> PixelBuffer {
        var image = PixelBuffer(width: screen.width, height: screen.height, fill: 0xFF00_0000)
        for y in max(0, visible.y)..<min(screen.height, visible.maxY) {
            for x in max(0, visible.x)..<min(screen.width, visible.maxX) { image[x, y] = screen[x, y] }
        }
        return image
    }

    // MARK: window types

    /// dunst, a real notification daemon, shows notify-send's message as an override-redirect
    /// pop-up: `window type=notification` covers it in a guarded scrot screenshot and under the
    /// shield. The agent has no session bus here, so no notification of its own joins the screen.
    func testANotificationPopUpIsCoveredInAScreenshotAndUnderTheShield() throws {
        for (program, package) in [("dunst", "dunst"), ("notify-send", "libnotify-bin"), ("gdbus", "libglib2.0-bin")] {
            _ = try requireTool(program, package: package)
        }
        let bus = try PrivateBus(self)
        let dunst = try PipedProcess("dunst", [], environment: bus.environment(["DISPLAY": desk.name]))
        defer { dunst.terminate() }
        let owned = try PipedProcess("gdbus", ["wait", "--session", "--timeout", "20", "org.freedesktop.Notifications"],
                                     environment: bus.environment())
        readOutput(of: [owned, dunst]) { owned.isFinished || dunst.isFinished }
        XCTAssertEqual(owned.wait(), 0, "dunst did not take org.freedesktop.Notifications: \(dunst.stderrText)")
        let sent = try PipedProcess("notify-send", ["-t", "0", "Card 4111 1111 1111 1111", "from the bank"],
                                    environment: bus.environment(["DISPLAY": desk.name]))
        readOutput(of: [sent]) { sent.isFinished }
        XCTAssertEqual(sent.wait(), 0, sent.stderrText)
        var popup: WindowInfo?
        XCTAssertTrue(desk.display.waitForWindows(seconds: 20) { context in
            popup = context.windows.first { $0.types.contains(.notification) && $0.isViewable }
            return popup != nil
        }, "dunst showed no notification: \(dunst.stderrText)")
        let notification = try XCTUnwrap(popup)
        XCTAssertTrue(notification.isOverrideRedirect, "dunst's pop-up is no managed window")

        let rules = try sandbox.write("notifications", text: "window type=notification fill=#ff00ff\nwindow class=Vault 100%x40+0+20\n")
        let watch = try agent(rules, ["--shield", "--shield-key", "F9"])
        let path = shots + "/notification.png"
        try runTool("scrot -o '\(path)'", display: desk.name)
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual((report.json["guard"] as? [String: Any])?["file"] as? String, "rewritten", "\(report.json)")
        let guarded = try PNGDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
        let shielded = try screenUnderTheShield(watch, press: 1)

        // dunst sizes its pop-up after it first maps it: what it shows is read once all is
        // done, and the pop-up is what the agent covered.
        let shown = try outerFrame(notification.id).intersection(fullScreen)
        XCTAssertFalse(shown.isEmpty, "the pop-up is on the screen")
        let covered = (report.json["redactions"] as? [[String: Any]] ?? []).filter { $0["line"] as? Int == 1 }.compactMap { $0["geometry"] as? String }
        XCTAssertEqual(covered, [shown.description], "\(report.json)")
        let screen = try desk.screen()
        let expected = [(shown, magenta), try desk.expectedRedactions()[0]]
        assertRedacted(guarded, origin: fullScreen, screen: screen, expected: expected)
        assertRedacted(shielded, origin: fullScreen, screen: screen, expected: expected)
    }

    // MARK: allow

    /// `screen` then `allow window class=Notes`: only Notes shows, in the guarded file and under
    /// the shield's covers alike; the desktop background and the Vault are covered.
    func testScreenLessAnAllowedWindowLeavesOnlyThatWindow() throws {
        let rules = try sandbox.write("allow-notes", text: "screen\nallow window class=Notes\n")
        let screen = try desk.screen()
        let notes = try outerFrame(desk.notes.id)
        let expected = onlyVisible(notes, of: screen)
        let watch = try agent(rules, ["--shield", "--shield-key", "F9"])
        assertSameColours(try guardedScrot("allowed.png", by: watch), expected, "the guarded file")
        assertSameColours(try screenUnderTheShield(watch, press: 1), expected, "the screen under the shield's covers")
    }

    // MARK: protect

    /// `shotguard protect --window ID` on Notes, which no rule names: the running agent covers it
    /// in the next screenshot, frame included, without a reload; after `--off` it does not.
    func testAWindowThatAsksForProtectionIsCoveredUntilItIsLetGo() throws {
        let notesID = hexID(UInt(desk.notes.id))
        let name = desk.name
        addTeardownBlock { try? runTool("xprop", ["-id", notesID, "-remove", "_SHOTGUARD_PROTECT"], display: name) }
        let screen = try desk.screen()
        let notes = try outerFrame(desk.notes.id)
        let standard = try desk.expectedRedactions()
        let watch = try agent(regions)

        let set = try desk.runShotguard(["protect", "--window", notesID], in: sandbox)
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertEqual(set.stdoutText, "window \(notesID) Notes/notes \"Notes\": protected (_SHOTGUARD_PROTECT=1)\n")
        assertRedacted(try guardedScrot("protected.png", by: watch), origin: fullScreen, screen: screen,
                       expected: [(notes, black)] + standard)

        let protections = watch.events("protection").count
        let off = try desk.runShotguard(["protect", "--window", notesID, "--off"], in: sandbox)
        XCTAssertEqual(off.status, 0, off.stderr)
        // A capture is held to every rectangle protected while it was made: a screenshot read
        // before the agent saw the window let go is still covered there (on purpose). The agent
        // says when what the rules protect changed; the screenshot comes after that.
        XCTAssertTrue(watch.waitForEvent("protection", count: protections + 1, seconds: 20), watch.log)
        assertRedacted(try guardedScrot("let-go.png", by: watch), origin: fullScreen, screen: screen, expected: standard)
        XCTAssertEqual(watch.events("rules").count, 0, "no reload was needed: \(watch.log)")
    }

    // MARK: system policy

    /// A system file with `lock` in XDG_CONFIG_DIRS covers Notes whatever the user's file allows;
    /// `watch --no-guard` is refused, and so is `pause` over the bus.
    func testALockedSystemPolicyKeepsCoveringWhateverTheUserSays() throws {
        let policy = try sandbox.write("xdg/shotguard/regions", text: "lock\nwindow class=Notes\n")
        let user = try sandbox.write("mine", text: "allow screen\nallow window class=Notes\n")
        let screen = try desk.screen()
        let notes = try outerFrame(desk.notes.id)
        let sentence = "the system policy \(policy) is locked (line 1: lock), so screenshots stay guarded\n"

        let unguarded = try sandbox.run(["watch", "--no-guard", "--regions", user], environment: ["DISPLAY": desk.name])
        XCTAssertEqual(unguarded.status, 2)
        XCTAssertEqual(unguarded.stderr, "shotguard: watch --no-guard is refused: " + sentence)

        let bus = try AgentBus(self, notificationServer: false)
        let watch = try agent(user, environment: bus.environment)
        assertRedacted(try guardedScrot("policy.png", by: watch), origin: fullScreen, screen: screen, expected: [(notes, black)])

        let pause = try sandbox.run(["pause", "10m"], environment: bus.environment.mapValues { $0 })
        XCTAssertEqual(pause.status, 1)
        XCTAssertEqual(pause.stdoutText, "")
        XCTAssertEqual(pause.stderr, "shotguard: pause: refused: pause is refused: " + sentence)
        let status = try sandbox.run(["status"], environment: bus.environment.mapValues { $0 })
        XCTAssertEqual(status.status, 0, status.stdoutText)
        XCTAssertEqual(status.lines.first, "protecting display \(desk.name)")
        assertRedacted(try guardedScrot("after-refusal.png", by: watch), origin: fullScreen, screen: screen,
                       expected: [(notes, black)])
    }
}

private extension WatchDesktop {
    /// Runs `shotguard` in `sandbox` on this desktop.
    func runShotguard(_ arguments: [String], in sandbox: Sandbox) throws -> RunResult {
        try sandbox.run(arguments, environment: ["DISPLAY": name])
    }
}
