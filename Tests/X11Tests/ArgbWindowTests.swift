// A depth-32 (ARGB) window, as compositing toolkits make, shows in a capture of the 24-bit root.
import ShotguardBase
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import ShotguardScene
import XCTest
import ShotguardScreen

final class X11ArgbWindowTests: XvfbTestCase {
    override class func prepare(_ display: Display) throws -> [AnyObject] {
        try paintWallpaper(on: display)
        return []
    }

    func testAnARGBWindowIsCapturedAsItShows() throws {
        let display = try Self.fixture.scene()
        let wallpaper = Pixels.screenshot(width: 320, height: 240)
        let frame = Rect(x: 30, y: 40, width: 90, height: 70)
        let content = Pixels.quadrants(width: 90, height: 70, [0x11_22E0, 0xE0_2211, 0x22_E011, 0xE0_E0E0])
        let window = try PaintedWindow(display: display, frame: frame, content: content, instance: "argb",
                                       className: "Argb", title: "argb", argb: true)
        defer { window.destroy() }
        let capture = try ScreenGrabber(display: display).capture(Rect(x: 0, y: 0, width: 320, height: 240))
        assertSameColours(capture.image, Pixels.composed(wallpaper, [(frame, content)]))
        XCTAssertEqual(try display.windowInfo(window.id).frame, frame)
    }
}
