// screenContext() and geometry(of:) without a window manager: names, geometry, stacking, vanished
// windows, and clients inside the frames of a window manager that reparents without EWMH.
import CX11
import ShotguardBase
import ShotguardImaging
import ShotguardRegions
import ShotguardTestSupport
import ShotguardX11
import ShotguardScene
import XCTest
import ShotguardScreen

final class X11ScreenContextTests: XvfbTestCase {
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

    // Without EWMH, a window manager that reparents leaves frames on the root: the client inside
    // each frame is found, the levels of all frames read in batches.

    /// A mapped window under `parent`; with `client`, WM_CLASS and WM_STATE as a managed client has.
    private func bareWindow(_ display: Display, parent: Window, x: Int32, y: Int32, client className: String? = nil) -> Window {
        let window = XCreateSimpleWindow(display.handle, parent, x, y, 60, 40, 0, 0, 0x808080)
        if let className {
            var hint = XClassHint()
            className.withCString { name in
                hint.res_name = UnsafeMutablePointer(mutating: name)
                hint.res_class = UnsafeMutablePointer(mutating: name)
                XSetClassHint(display.handle, window, &hint)
            }
            var state: [UInt] = [1, 0]  // NormalState, no icon
            let atom = display.atom("WM_STATE")
            state.withUnsafeMutableBytes { bytes in
                _ = XChangeProperty(display.handle, window, atom, atom, 32, PropModeReplace,
                                    bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), 2)
            }
        }
        XMapWindow(display.handle, window)
        return window
    }

    func testClientsInsideFramesAreFoundDownToThreeLevels() throws {
        let display: Display = self.display
        // A frame holding its client; one with a decoration window around the client; one with
        // its client three levels down; one with it four levels down (past the search, so the
        // frame stands for it); a bare window (no class, no children), which is itself.
        let frame = bareWindow(display, parent: display.root, x: 0, y: 0)
        let direct = bareWindow(display, parent: frame, x: 2, y: 10, client: "Direct")
        let decorated = bareWindow(display, parent: display.root, x: 70, y: 0)
        let nested = bareWindow(display, parent: bareWindow(display, parent: decorated, x: 1, y: 1), x: 1, y: 8, client: "Nested")
        var parent = bareWindow(display, parent: display.root, x: 140, y: 0)
        for _ in 0..<2 { parent = bareWindow(display, parent: parent, x: 0, y: 0) }
        let deep = bareWindow(display, parent: parent, x: 0, y: 0, client: "Deep")
        let tooDeep = bareWindow(display, parent: display.root, x: 210, y: 0)
        parent = tooDeep
        for _ in 0..<3 { parent = bareWindow(display, parent: parent, x: 0, y: 0) }
        _ = bareWindow(display, parent: parent, x: 0, y: 0, client: "TooDeep")
        let bare = bareWindow(display, parent: display.root, x: 260, y: 0)
        display.sync()

        XCTAssertEqual(Array(display.topLevelWindows().suffix(5)), [direct, nested, deep, tooDeep, bare])
        let classes = display.screenContext().windows.suffix(5).map(\.className)
        XCTAssertEqual(classes, ["Direct", "Nested", "Deep", "", ""])
    }
}
