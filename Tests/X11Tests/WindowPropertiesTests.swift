// What the window list reads beyond names and geometry, on real windows: EWMH types, whether a
// window is opaque (visual, opacity, shape), _SHOTGUARD_PROTECT, and frame extents kept honest.
import CX11
import ShotguardBase
import ShotguardImaging
import ShotguardRegions
import ShotguardX11
import ShotguardScene
import ShotguardTestSupport
import XCTest
import ShotguardScreen

final class X11WindowPropertiesTests: XCTestCase {
    nonisolated(unsafe) static let fixture = XvfbFixture()

    override class func setUp() {
        super.setUp()
        fixture.start(width: 320, height: 240)
    }

    override class func tearDown() {
        fixture.stop()
        super.tearDown()
    }

    private var display: Display!

    override func setUpWithError() throws {
        display = try Self.fixture.display()
    }

    override func tearDown() {
        display = nil
    }

    private func window(_ frame: Rect, className: String = "Klass", argb: Bool = false, popup: Bool = false) throws -> PaintedWindow {
        try PaintedWindow(display: display, frame: frame, content: PixelBuffer(width: frame.width, height: frame.height),
                          instance: className.lowercased(), className: className, title: className, argb: argb, popup: popup)
    }

    private func info(_ window: PaintedWindow) throws -> WindowInfo {
        try XCTUnwrap(display.screenContext().windows.first { $0.id == UInt(window.id) }, "\(hexID(UInt(window.id))) is listed")
    }

    func testTypesComeFromThePropertyOrFromWhatTheWindowIs() throws {
        let square = Rect(x: 10, y: 10, width: 30, height: 30)
        let notification = try window(square)
        display.setWindowTypes(["_KDE_NET_WM_WINDOW_TYPE_OVERRIDE", "_NET_WM_WINDOW_TYPE_NOTIFICATION"], on: notification.id)
        let menu = try window(square, popup: true)
        display.setWindowTypes(["_NET_WM_WINDOW_TYPE_DROPDOWN_MENU", "_NET_WM_WINDOW_TYPE_MENU"], on: menu.id)
        let plain = try window(square)
        let transient = try window(square)
        display.setLongs("WM_TRANSIENT_FOR", type: XA_WINDOW, [UInt(plain.id)], on: transient.id)
        let bareTooltip = try window(square, popup: true)
        XCTAssertEqual(try info(notification).types, [.notification], "an unknown atom is skipped")
        XCTAssertEqual(try info(menu).types, [.dropdown, .menu])
        XCTAssertEqual(try info(plain).types, [.normal])
        XCTAssertEqual(try info(transient).types, [.dialog])
        XCTAssertEqual(try info(bareTooltip).types, [], "override-redirect with no type has none")
        XCTAssertTrue(try info(menu).isOverrideRedirect)
        XCTAssertFalse(try info(plain).isOverrideRedirect)
        XCTAssertEqual(try display.windowInfo(notification.id), try info(notification))
    }

    func testARGBTranslucentAndShapedWindowsAreNotOpaque() throws {
        let square = Rect(x: 50, y: 50, width: 40, height: 40)
        let plain = try window(square)
        let argb = try window(square, argb: true)
        let faded = try window(square)
        display.setLongs("_NET_WM_WINDOW_OPACITY", type: XA_CARDINAL, [0x7FFF_FFFF], on: faded.id)
        let full = try window(square)
        display.setLongs("_NET_WM_WINDOW_OPACITY", type: XA_CARDINAL, [0xFFFF_FFFF], on: full.id)
        let shaped = try window(square)
        display.shape(shaped.id, to: Rect(x: 0, y: 0, width: 20, height: 40))
        XCTAssertTrue(try info(plain).isOpaque)
        XCTAssertFalse(try info(argb).isOpaque, "a 32-bit visual")
        XCTAssertFalse(try info(faded).isOpaque, "opacity below full")
        XCTAssertTrue(try info(full).isOpaque, "full opacity")
        XCTAssertFalse(try info(shaped).isOpaque, "a bounding shape")
    }

    func testTheProtectPropertyIsReadSetAndCleared() throws {
        let keys = try window(Rect(x: 100, y: 100, width: 60, height: 40), className: "Keys")
        XCTAssertFalse(try info(keys).requestsProtection)
        try display.setProtection(true, of: keys.id)
        XCTAssertTrue(try info(keys).requestsProtection)
        let hits = try RegionsFile.parse("", path: "empty").hits(against: display.screenContext())
        XCTAssertEqual(hits.map(\.rect), [Rect(x: 100, y: 100, width: 60, height: 40)], "covered with no rule")
        XCTAssertEqual(hits.map(\.line), [0])
        display.setLongs(Display.protectProperty, type: XA_CARDINAL, [2], on: keys.id)
        XCTAssertFalse(try info(keys).requestsProtection, "only 1 asks")
        try display.setProtection(false, of: keys.id)
        XCTAssertFalse(try info(keys).requestsProtection)
        let id = keys.id
        keys.destroy()
        XCTAssertThrowsError(try display.setProtection(true, of: id)) { error in
            XCTAssertEqual((error as? X11Error)?.kind, .windowGone)
        }
        XCTAssertThrowsError(try display.clientWindow(of: id))
    }

    /// Any client may claim decorations: a window nobody reparented has no pixels past its
    /// border, so claimed extents widen what a rule covers, never what the window hides.
    func testClaimedFrameExtentsHideNothingOutsideAWindowNobodyReparented() throws {
        let vault = try window(Rect(x: 100, y: 100, width: 100, height: 100), className: "Vault")
        let liar = try window(Rect(x: 150, y: 150, width: 50, height: 40), className: "Liar")
        display.setLongs("_NET_FRAME_EXTENTS", type: XA_CARDINAL, [100, 100, 100, 100], on: liar.id)
        XCTAssertEqual(try info(liar).outerFrame, Rect(x: 50, y: 50, width: 250, height: 240))
        XCTAssertEqual(try info(liar).opaqueArea, Rect(x: 150, y: 150, width: 50, height: 40))
        let hits = try RegionsFile.parse("window class=Vault", path: "rules").hits(against: display.screenContext())
        XCTAssertEqual(hits.reduce(0) { $0 + $1.rect.area }, 100 * 100 - 50 * 40, "only the liar's real rectangle is cut out")
        liar.destroy()
        vault.destroy()
    }

    /// Real windows: the opaque one above is cut out of the cover; an ARGB one is not.
    func testCoversFollowWhatIsVisibleOnRealWindows() throws {
        let vault = try window(Rect(x: 10, y: 120, width: 100, height: 60), className: "Vault")
        let viewer = try window(Rect(x: 60, y: 100, width: 100, height: 100), className: "Viewer")
        let regions = try RegionsFile.parse("window class=Vault", path: "rules")
        XCTAssertEqual(regions.hits(against: display.screenContext()).map(\.rect), [Rect(x: 10, y: 120, width: 50, height: 60)])
        viewer.destroy()
        let glass = try window(Rect(x: 60, y: 100, width: 100, height: 100), className: "Glass", argb: true)
        defer { glass.destroy() }
        XCTAssertEqual(regions.hits(against: display.screenContext()).map(\.rect), [Rect(x: 10, y: 120, width: 100, height: 60)])
        vault.destroy()
    }
}
