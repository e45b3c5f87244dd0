// shotguard's own windows (the recording mark, the tray's menu, a shield's covers) are left out of
// the window list rules resolve against; a user's override-redirect window is not.
import ShotguardImaging
import ShotguardScene
import ShotguardScreen
import ShotguardTestSupport
import ShotguardX11
import XCTest

final class OwnWindowsTests: XvfbTestCase {
    func testTheRecordingMarkIsShownAndLeftOutOfTheWindowList() throws {
        let user = try PaintedWindow(display: display, frame: Rect(x: 100, y: 0, width: 120, height: 30),
                                     content: PixelBuffer(width: 120, height: 30, fill: 0xFF40_4040), instance: "menu",
                                     className: "Menu", title: "a menu", popup: true)
        let presence = try PresenceWindows(displayName: try Self.fixture.name(), tray: false, indicator: true)
        presence.setRecording("RECORDING: FFMPEG")
        // Shown: the server has it on screen once setRecording returned.
        let screen = try ScreenGrabber(display: display).captureScreen()
        var red = 0
        for y in 0..<24 { for x in 0..<320 where screen[x, y] & 0xFF_FFFF == 0xE02424 { red += 1 } }
        XCTAssertGreaterThan(red, 50, "the mark's dot is on screen")
        let windows = display.screenContext().windows
        XCTAssertTrue(windows.contains { $0.id == UInt(user.id) }, "a user's pop-up is listed")
        XCTAssertFalse(windows.contains { $0.title == "shotguard recording indicator" }, "the mark is not: \(windows)")
        presence.setRecording(nil)
        XCTAssertEqual(try ScreenGrabber(display: display).captureScreen().pixels.filter { $0 & 0xFF_FFFF == 0xE02424 }.count, 0,
                       "gone once hidden")
    }

    func testOnlyOverrideRedirectWindowsWithShotguardsTitlesAreOwn() {
        func window(_ title: String, popup: Bool) -> WindowInfo {
            WindowInfo(id: 1, className: "X", instance: "x", title: title, frame: Rect(x: 0, y: 0, width: 1, height: 1), isViewable: true,
                       isOverrideRedirect: popup)
        }
        for title in ["shotguard shield", "shotguard menu", "shotguard recording indicator", "shotguard picker"] {
            XCTAssertTrue(OwnWindows.contains(window(title, popup: true)), title)
            XCTAssertFalse(OwnWindows.contains(window(title, popup: false)), "a managed window titled \(title) is the user's")
        }
        XCTAssertFalse(OwnWindows.contains(window("shotguard", popup: true)))
    }
}
