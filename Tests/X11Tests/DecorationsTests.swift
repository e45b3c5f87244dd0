// A window rule without a geometry covers the window's decorations too: the title bar shows the
// title that a `title~` rule matched on.
import ShotguardImaging
import ShotguardRegions
import ShotguardX11
import XCTest

final class X11DecorationsTests: XCTestCase {
    nonisolated(unsafe) static let fixture = XvfbFixture()

    override class func setUp() {
        super.setUp()
        fixture.start(width: 400, height: 300, windowManager: true)
        fixture.prepare { display in
            try Scene.paintWallpaper(on: display)
            return []
        }
    }

    override class func tearDown() {
        fixture.stop()
        super.tearDown()
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
