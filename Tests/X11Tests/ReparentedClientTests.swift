// Without EWMH, a window manager that reparents leaves frames on the root: the client inside
// each frame is found, levels of all frames read in batches.
import CX11
import ShotguardImaging
import ShotguardRegions
import ShotguardX11
import XCTest

final class X11ReparentedClientTests: XCTestCase {
    nonisolated(unsafe) static let fixture = XvfbFixture()

    override class func setUp() {
        super.setUp()
        fixture.start(width: 320, height: 240)
    }

    override class func tearDown() {
        fixture.stop()
        super.tearDown()
    }

    /// A mapped window under `parent`; with `client`, WM_CLASS and WM_STATE as a managed client has.
    private func window(_ display: Display, parent: Window, x: Int32, y: Int32, client className: String? = nil) -> Window {
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
        let display = try Self.fixture.display()
        // A frame holding its client; one with a decoration window around the client; one with
        // its client three levels down; one with it four levels down (past the search, so the
        // frame stands for it); a bare window (no class, no children), which is itself.
        let frame = window(display, parent: display.root, x: 0, y: 0)
        let direct = window(display, parent: frame, x: 2, y: 10, client: "Direct")
        let decorated = window(display, parent: display.root, x: 70, y: 0)
        let nested = window(display, parent: window(display, parent: decorated, x: 1, y: 1), x: 1, y: 8, client: "Nested")
        var parent = window(display, parent: display.root, x: 140, y: 0)
        for _ in 0..<2 { parent = window(display, parent: parent, x: 0, y: 0) }
        let deep = window(display, parent: parent, x: 0, y: 0, client: "Deep")
        let tooDeep = window(display, parent: display.root, x: 210, y: 0)
        parent = tooDeep
        for _ in 0..<3 { parent = window(display, parent: parent, x: 0, y: 0) }
        _ = window(display, parent: parent, x: 0, y: 0, client: "TooDeep")
        let bare = window(display, parent: display.root, x: 260, y: 0)
        display.sync()

        XCTAssertEqual(Array(display.topLevelWindows().suffix(5)), [direct, nested, deep, tooDeep, bare])
        let classes = display.screenContext().windows.suffix(5).map(\.className)
        XCTAssertEqual(classes, ["Direct", "Nested", "Deep", "", ""])
    }
}
