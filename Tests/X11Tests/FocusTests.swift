// activeWindow() with no window manager: the top-level window that holds the input focus.
import ShotguardBase
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import ShotguardScene
import XCTest
import ShotguardScreen

final class X11FocusTests: XvfbTestCase {
    private func window(_ x: Int, _ title: String) throws -> PaintedWindow {
        try PaintedWindow(display: display, frame: Rect(x: x, y: 20, width: 50, height: 50),
                          content: PixelBuffer(width: 50, height: 50), instance: title, className: "Focus", title: title)
    }

    private func focus(_ window: PaintedWindow) throws {
        try runTool("xdotool", ["windowfocus", "--sync", hexID(UInt(window.id))], display: display.name)
    }

    func testTheFocusedWindowIsActive() throws {
        let first = try window(10, "first")
        let second = try window(100, "second")
        try focus(first)
        XCTAssertEqual(display.activeWindow(), first.id)
        XCTAssertEqual(display.screenContext().activeWindowID, UInt(first.id))
        try focus(second)
        XCTAssertEqual(display.activeWindow(), second.id)
        XCTAssertEqual(display.screenContext().activeWindowID, UInt(second.id))
    }

    /// When the focused window closes, the focus reverts to the root: that is no active window,
    /// not the root posing as one (`capture --active` would grab the whole screen).
    func testNoActiveWindowAfterTheFocusedOneCloses() throws {
        let closing = try window(10, "closing")
        try focus(closing)
        XCTAssertEqual(display.activeWindow(), closing.id)
        closing.destroy()
        let active = display.activeWindow()
        XCTAssertNil(active, "active window \(active.map { hexID(UInt($0)) } ?? "none"), root is \(hexID(UInt(display.root)))")
        XCTAssertNil(display.screenContext().activeWindowID)
    }
}
