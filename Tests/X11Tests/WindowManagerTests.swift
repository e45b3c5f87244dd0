// Windows under openbox: reparented clients, _NET_ACTIVE_WINDOW, stacking list and frame extents.
import ShotguardBase
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import ShotguardScene
import XCTest
import ShotguardScreen

final class X11WindowManagerTests: XvfbTestCase {
    override class var serverSize: (width: Int, height: Int) { (400, 300) }
    override class var windowManager: Bool { true }

    override class func prepare(_ display: Display) throws -> [AnyObject] {
        try paintWallpaper(on: display)
        return []
    }

    private func window(_ index: Int, colours: [UInt32]) throws -> (PaintedWindow, PixelBuffer) {
        let content = Pixels.quadrants(width: 90, height: 70, colours)
        let painted = try PaintedWindow(display: display, frame: Rect(x: 30 + index * 120, y: 40, width: 90, height: 70),
                                        content: content, instance: "wm\(index)", className: "Managed", title: "managed \(index)")
        return (painted, content)
    }

    private func activate(_ window: PaintedWindow) throws {
        try runTool("xdotool", ["windowactivate", "--sync", hexID(UInt(window.id))], display: display.name)
    }

    func testClientsAreListedWithTheirOwnGeometryAndPixels() throws {
        let (painted, content) = try window(0, colours: [0xE01010, 0x10E010, 0x1010E0, 0xE0E010])
        XCTAssertTrue(display.waitForProperties(of: [display.root], seconds: 5) { self.display.topLevelWindows().contains(painted.id) },
                      "_NET_CLIENT_LIST_STACKING lists the client, not openbox's frame")
        let info = try XCTUnwrap(display.screenContext().windows.first { $0.id == UInt(painted.id) })
        XCTAssertEqual(info.className, "Managed")
        XCTAssertEqual(info.title, "managed 0")
        XCTAssertEqual(info.frame.width, 90)
        XCTAssertEqual(info.frame.height, 70)
        let (image, captured) = try ScreenGrabber(display: display).capture(info.frame)
        XCTAssertEqual(captured, info.frame)
        assertSameColours(image, content, "the client's pixels are at its root geometry")
    }

    func testFrameExtentsAreTheDecorationsAroundTheClient() throws {
        let (painted, _) = try window(1, colours: [0xF0F0F0, 0x101010, 0xE010E0, 0x10E0E0])
        XCTAssertTrue(display.waitForProperties(of: [painted.id], seconds: 5) { self.display.frameExtents(of: painted.id).top > 0 },
                      "openbox sets _NET_FRAME_EXTENTS")
        let extents = display.frameExtents(of: painted.id)
        XCTAssertGreaterThan(extents.top, extents.bottom, "a title bar: \(extents)")
        XCTAssertGreaterThanOrEqual(extents.left, 0)
        let client = try display.geometry(of: painted.id).frame
        XCTAssertGreaterThanOrEqual(client.x - extents.left, 0, "the frame is on screen: \(client) \(extents)")
        XCTAssertGreaterThanOrEqual(client.y - extents.top, 0, "the frame is on screen: \(client) \(extents)")
    }

    func testActiveWindowFollowsActivation() throws {
        let (first, _) = try window(0, colours: [0xE01010, 0xE01010, 0xE01010, 0xE01010])
        let (second, _) = try window(1, colours: [0x10E010, 0x10E010, 0x10E010, 0x10E010])
        try activate(first)
        XCTAssertEqual(display.activeWindow(), first.id)
        try activate(second)
        XCTAssertEqual(display.activeWindow(), second.id)
        XCTAssertEqual(display.screenContext().activeWindowID, UInt(second.id))
    }

    func testStackingFollowsActivationBottomFirst() throws {
        let windows = try (0..<3).map { try window($0, colours: [0x101010, 0x202020, 0x303030, 0xE0E0E0]).0 }
        let ids = windows.map { UInt($0.id) }
        func order() -> [UInt] { display.screenContext().windows.map(\.id).filter { ids.contains($0) } }
        XCTAssertTrue(display.waitForProperties(of: [display.root], seconds: 5) { order() == ids }, "mapped later is higher: \(order()), expected \(ids)")
        try activate(windows[0])
        let raised = [ids[1], ids[2], ids[0]]
        XCTAssertTrue(display.waitForProperties(of: [display.root], seconds: 5) { order() == raised }, "activated is raised: \(order()), expected \(raised)")
    }
}
