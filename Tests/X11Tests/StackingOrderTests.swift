// Under a window manager: override-redirect windows take their true place in the stacking
// order (a pop-up may lie under a managed window), frames lead to their clients, and the
// window list reads what it reads in a fixed number of round trips.
import CX11
import ShotguardBase
import ShotguardImaging
import ShotguardRegions
import ShotguardX11
import ShotguardScene
import ShotguardTestSupport
import XCTest
import ShotguardScreen

final class X11StackingOrderTests: XCTestCase {
    nonisolated(unsafe) static let fixture = XvfbFixture()

    override class func setUp() {
        super.setUp()
        fixture.start(width: 400, height: 300, windowManager: true)
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

    private func window(_ frame: Rect, _ className: String, popup: Bool = false) throws -> PaintedWindow {
        try PaintedWindow(display: display, frame: frame, content: PixelBuffer(width: frame.width, height: frame.height),
                          instance: className.lowercased(), className: className, title: className, popup: popup)
    }

    /// A pop-up lowered under a managed window is listed under it: the managed window's cover
    /// is not cut by the pop-up, and the pop-up's is cut by the managed window's frame.
    func testAPopupUnderAManagedWindowIsListedUnderIt() throws {
        let popup = try window(Rect(x: 20, y: 20, width: 200, height: 150), "Popup", popup: true)
        let vault = try window(Rect(x: 100, y: 80, width: 150, height: 100), "Vault")
        defer {
            vault.destroy()
            popup.destroy()
        }
        XLowerWindow(display.handle, popup.id)
        display.sync()
        let context = display.screenContext()
        let order = context.windows.map(\.id)
        let popupIndex = try XCTUnwrap(order.firstIndex(of: UInt(popup.id)))
        let vaultIndex = try XCTUnwrap(order.firstIndex(of: UInt(vault.id)))
        XCTAssertLessThan(popupIndex, vaultIndex, "the pop-up is under the managed window")
        let vaultInfo = context.windows[vaultIndex]
        XCTAssertTrue(vaultInfo.isOpaque)
        XCTAssertEqual(vaultInfo.opaqueArea, vaultInfo.outerFrame)
        let regions = try RegionsFile.parse("window class=Vault\nwindow class=Popup", path: "rules")
        let resolutions = regions.resolve(against: context)
        XCTAssertEqual(resolutions[0].hits.map(\.rect), [vaultInfo.outerFrame], "nothing above the vault")
        let popupArea = resolutions[1].hits.reduce(0) { $0 + $1.rect.area }
        let hidden = Rect(x: 20, y: 20, width: 200, height: 150).intersection(vaultInfo.outerFrame).area
        XCTAssertEqual(popupArea, 200 * 150 - hidden, "the vault's frame hides part of the pop-up")
        XCTAssertFalse(resolutions[1].hits.contains { !$0.rect.intersection(vaultInfo.outerFrame).isEmpty })

        // Raised again, the pop-up is on top and cuts the vault's cover.
        XRaiseWindow(display.handle, popup.id)
        display.sync()
        XCTAssertEqual(display.screenContext().windows.last?.id, UInt(popup.id))
    }

    /// The frame openbox puts around a client leads to the client; what the client hides is
    /// the frame's rectangle at most.
    func testAFrameLeadsToItsClient() throws {
        let vault = try window(Rect(x: 60, y: 60, width: 120, height: 80), "Vault")
        defer { vault.destroy() }
        var root: Window = 0, parent: Window = 0
        var children: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        XQueryTree(display.handle, vault.id, &root, &parent, &children, &count)
        if let children { XFree(children) }
        XCTAssertNotEqual(parent, display.root, "openbox reparented the client")
        XCTAssertEqual(try display.clientWindow(of: parent), vault.id)
        XCTAssertEqual(try display.clientWindow(of: vault.id), vault.id)
        let info = try display.windowInfo(vault.id)
        let frame = try display.geometry(of: parent).frame
        XCTAssertEqual(info.opaqueArea, info.outerFrame.intersection(frame), "inside openbox's frame")
        XCTAssertEqual(info.opaqueArea, info.outerFrame, "openbox's extents are its frame's")
        XCTAssertGreaterThan(info.outerFrame.height, info.frame.height, "with its title bar")
        XCTAssertTrue(info.isOpaque)
    }
}
