// Menus and pop-ups (override-redirect windows) belong to the screen context under a window
// manager too: an application's pop-up can show what its rules hide, outside its main window.
import ShotguardImaging
import ShotguardX11
import XCTest

final class X11PopupTests: XCTestCase {
    nonisolated(unsafe) static let fixture = XvfbFixture()

    override class func setUp() {
        super.setUp()
        fixture.start(width: 320, height: 240, windowManager: true)
        fixture.prepare { display in
            try Scene.paintWallpaper(on: display)
            return []
        }
    }

    override class func tearDown() {
        fixture.stop()
        super.tearDown()
    }

    func testAPopupIsInTheContextAboveTheManagedWindows() throws {
        let display = try Self.fixture.scene()
        let main = try PaintedWindow(display: display, frame: Rect(x: 20, y: 20, width: 120, height: 80),
                                     content: PixelBuffer(width: 120, height: 80, fill: 0xFF10_20E0), instance: "vault",
                                     className: "Vault", title: "Vault")
        let menu = try PaintedWindow(display: display, frame: Rect(x: 150, y: 60, width: 90, height: 100),
                                     content: PixelBuffer(width: 90, height: 100, fill: 0xFFE0_2010), instance: "vault",
                                     className: "Vault", title: "", popup: true)
        defer {
            menu.destroy()
            main.destroy()
        }
        let windows = display.screenContext().windows
        let ids = windows.map(\.id)
        XCTAssertTrue(ids.contains(UInt(main.id)), "the managed window")
        XCTAssertEqual(ids.last, UInt(menu.id), "the pop-up, on top")
        XCTAssertEqual(windows.last?.frame, Rect(x: 150, y: 60, width: 90, height: 100))
        XCTAssertEqual(windows.last?.className, "Vault")
    }
}
