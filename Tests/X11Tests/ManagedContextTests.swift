// The screen context under a window manager: pop-ups (override-redirect windows) belong to it,
// since they can show what an application's rules hide; and a window rule without a geometry
// covers the decorations, since the title bar shows the title a `title~` rule matched on.
import ShotguardBase
import ShotguardImaging
import ShotguardRegions
import ShotguardTestSupport
import ShotguardX11
import ShotguardScene
import XCTest
import ShotguardScreen

final class X11ManagedContextTests: XvfbTestCase {
    override class var serverSize: (width: Int, height: Int) { (400, 300) }
    override class var windowManager: Bool { true }

    override class func prepare(_ display: Display) throws -> [AnyObject] {
        try paintWallpaper(on: display)
        return []
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

    func testAWholeWindowRuleCoversTheTitleBarAndAGeometryOnlyTheClient() throws {
        let display = try Self.fixture.scene()
        let window = try PaintedWindow(display: display, frame: Rect(x: 60, y: 70, width: 150, height: 90),
                                       content: PixelBuffer(width: 150, height: 90, fill: 0xFF20_8020), instance: "bank",
                                       className: "Browser", title: "My Bank - Browser")
        defer { window.destroy() }
        let client = try display.geometry(of: window.id).frame
        let extents = display.frameExtents(of: window.id)
        XCTAssertGreaterThan(extents.top, 0, "openbox draws a title bar")
        let regions = try RegionsFile.parse("window title~\"(?i)bank\"\nwindow class=Browser 10x10+0+0\n", path: "rules")
        let hits = regions.hits(against: display.screenContext())
        XCTAssertEqual(hits.map(\.rect), [
            Rect(x: client.x - extents.left, y: client.y - extents.top, width: client.width + extents.left + extents.right,
                 height: client.height + extents.top + extents.bottom),
            Rect(x: client.x, y: client.y, width: 10, height: 10),
        ])
    }
}
