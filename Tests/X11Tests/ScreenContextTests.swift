// screenContext() and geometry(of:) without a window manager: names, geometry, stacking, vanished windows.
import ShotguardBase
import ShotguardImaging
import ShotguardRegions
import ShotguardX11
import ShotguardScene
import XCTest

final class X11ScreenContextTests: XCTestCase {
    nonisolated(unsafe) static let fixture = XvfbFixture()

    override class func setUp() {
        super.setUp()
        fixture.start(width: 320, height: 240)
    }

    override class func tearDown() {
        fixture.stop()
        super.tearDown()
    }

    /// A connection per test: the windows a test opens are its own.
    private var display: Display!

    override func setUpWithError() throws {
        display = try Self.fixture.display()
    }

    override func tearDown() {
        display = nil
    }

    private func window(_ frame: Rect, instance: String = "inst", className: String = "Klass",
                        title: String = "a window") throws -> PaintedWindow {
        try PaintedWindow(display: display, frame: frame, content: PixelBuffer(width: frame.width, height: frame.height),
                          instance: instance, className: className, title: title)
    }

    /// This test's windows in the context, in its order (other tests' windows are gone, but
    /// the check does not rely on it).
    private func mine(_ windows: [PaintedWindow]) -> [WindowInfo] {
        let ids = Set(windows.map { UInt($0.id) })
        return display.screenContext().windows.filter { ids.contains($0.id) }
    }

    func testClassInstanceUTF8TitleAndGeometry() throws {
        let title = "Bänk – café ✓"
        let painted = try window(Rect(x: 12, y: 34, width: 56, height: 78), instance: "keepassxc",
                                 className: "KeePassXC", title: title)
        let context = display.screenContext()
        XCTAssertEqual(context.width, 320)
        XCTAssertEqual(context.height, 240)
        let info = try XCTUnwrap(context.windows.first { $0.id == UInt(painted.id) }, "listed: \(context.windows)")
        XCTAssertEqual(info.className, "KeePassXC")
        XCTAssertEqual(info.instance, "keepassxc")
        XCTAssertEqual(info.title, title)
        XCTAssertEqual(info.frame, Rect(x: 12, y: 34, width: 56, height: 78))
        XCTAssertTrue(info.isViewable)
        XCTAssertEqual(try display.windowInfo(painted.id), info)
    }

    func testStackingOrderIsBottomFirstAndFollowsRaises() throws {
        let windows = try (0..<3).map { index in
            try window(Rect(x: 10 + index * 30, y: 10 + index * 20, width: 60, height: 40), title: "w\(index)")
        }
        XCTAssertEqual(mine(windows).map(\.title), ["w0", "w1", "w2"], "mapped later is higher")
        try runTool("xdotool", ["windowraise", hexID(UInt(windows[0].id))], display: display.name)
        display.sync()
        XCTAssertEqual(mine(windows).map(\.title), ["w1", "w2", "w0"], "raised to the top")
    }

    func testUnmappedAndDestroyedWindowsAreLeftOut() throws {
        let windows = try (0..<3).map { index in
            try window(Rect(x: 20 * index, y: 20 * index, width: 40, height: 30), title: "w\(index)")
        }
        try runTool("xdotool", ["windowunmap", "--sync", hexID(UInt(windows[1].id))], display: display.name)
        windows[2].destroy()
        XCTAssertEqual(mine(windows).map(\.title), ["w0"])
        XCTAssertEqual(try display.geometry(of: windows[1].id).isViewable, false, "unmapped, but still there")
        XCTAssertThrowsError(try display.geometry(of: windows[2].id))
    }

    func testWindowsPartlyOffScreenKeepTheirTrueFrame() throws {
        let frames = [Rect(x: -30, y: -20, width: 70, height: 50), Rect(x: 290, y: 200, width: 100, height: 90),
                      Rect(x: -10, y: 230, width: 400, height: 30)]
        let windows = try frames.map { try window($0) }
        XCTAssertEqual(mine(windows).map(\.frame), frames)
        for (painted, frame) in zip(windows, frames) {
            XCTAssertEqual(try display.geometry(of: painted.id).frame, frame)
        }
    }

    func testGeometryOfADestroyedWindowThrowsWindowGoneAndTheProcessLivesOn() throws {
        let painted = try window(Rect(x: 5, y: 5, width: 20, height: 20))
        let id = painted.id
        painted.destroy()
        for _ in 0..<3 {  // more than once: the error record is reset each time
            do {
                let geometry = try display.geometry(of: id)
                XCTFail("geometry of destroyed window \(hexID(UInt(id))): \(geometry)")
            } catch {
                XCTAssertEqual(error.kind, .windowGone)
                XCTAssertTrue(error.message.contains(hexID(UInt(id))), "names the window: \(error)")
            }
        }
        XCTAssertThrowsError(try display.windowInfo(id))
        XCTAssertFalse(display.isLost, "an X error is not a lost connection")
        // The connection still answers.
        let next = try window(Rect(x: 5, y: 5, width: 20, height: 20))
        XCTAssertEqual(try display.geometry(of: next.id).frame, Rect(x: 5, y: 5, width: 20, height: 20))
    }

    func testANeverExistingWindowIdThrowsWindowGone() throws {
        XCTAssertThrowsError(try display.geometry(of: 0x7FF_FFFF)) { error in
            XCTAssertEqual((error as? X11Error)?.kind, .windowGone)
        }
    }
}
