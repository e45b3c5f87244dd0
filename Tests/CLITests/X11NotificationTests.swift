// A real notification daemon (dunst, started by D-Bus activation for notify-send) on a private
// Xvfb: its override-redirect pop-up is in the window list with its type, and `window
// type=notification` covers it in a capture.
import Foundation
import ShotguardBase
import ShotguardImaging
import ShotguardX11
import ShotguardScene
import ShotguardScreen
import ShotguardTestSupport
import XCTest

final class X11NotificationTests: XCTestCase {
    func testADunstNotificationIsCoveredByATypeRule() throws {
        for program in ["dunst", "notify-send", "dbus-run-session"] where !programExists(program) {
            throw FixtureError("\(program) is not installed (Debian packages 'dunst', 'libnotify-bin', 'dbus')")
        }
        let sandbox = try Sandbox(self)
        let server = try VirtualDisplay(width: 400, height: 300)
        defer { server.stop() }
        let display = try Display(name: server.name)
        try display.setRootBackground(Pixels.screenshot(width: 400, height: 300))
        // notify-send's call makes the session bus start dunst, which the daemon's service file
        // names; the session lives until the test stops it.
        let session = try ChildProcess("dbus-run-session", ["--", "sh", "-c",
                                                            "notify-send -t 0 'Card 4111 1111 1111 1111' 'from the bank' && exec sleep 600"],
                                       environment: ["DISPLAY": server.name, "HOME": sandbox.home.path], output: .standardError,
                                       newSession: true)
        defer { session.stop() }
        var popup: WindowInfo?
        XCTAssertTrue(display.waitForWindows(seconds: 20) { context in
            popup = context.windows.first { $0.types.contains(.notification) }
            return popup != nil || session.hasExited
        }, "dunst showed no notification")
        let notification = try XCTUnwrap(popup, "dunst showed no notification")
        XCTAssertTrue(notification.isOverrideRedirect, "dunst's pop-up is no managed window")
        XCTAssertEqual(notification.className, "Dunst")

        let listed = try sandbox.run(["windows", "--json"], environment: ["DISPLAY": server.name])
        let items = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(listed.stdout)) as? [[String: Any]])
        XCTAssertEqual((items.first?["types"] as? [String])?.first, "notification", "on top of the stack")

        let rules = try sandbox.write("rules", text: "window type=notification fill=#ff00ff\n")
        // dunst may map its pop-up and then size it to its text: the captures are compared
        // with the frame the pop-up had on both sides of them.
        var frame = notification.outerFrame
        var steady = false
        for _ in 0..<5 where !steady {
            let plain = try sandbox.run(["capture", "--no-redact", "-o", "plain.png"], environment: ["DISPLAY": server.name])
            let redacted = try sandbox.run(["capture", "--regions", rules, "-o", "redacted.png"], environment: ["DISPLAY": server.name])
            XCTAssertEqual(plain.status, 0, plain.stderr)
            XCTAssertEqual(redacted.status, 0, redacted.stderr)
            let after = display.screenContext().windows.first { $0.types.contains(.notification) }?.outerFrame
            steady = after == frame
            frame = after ?? frame
        }
        XCTAssertTrue(steady, "dunst's pop-up kept changing its frame (last \(frame))")
        let shown = frame.intersection(Rect(x: 0, y: 0, width: 400, height: 300))
        XCTAssertFalse(shown.isEmpty)
        assertSameColours(try sandbox.image("redacted.png"), Pixels.painted(try sandbox.image("plain.png"), [(shown, 0xFF00FF)]))
    }
}
