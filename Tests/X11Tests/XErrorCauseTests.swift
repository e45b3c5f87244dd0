// X protocol errors explained as causes, through the one error trap.
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import XCTest

final class XErrorCauseTests: XvfbTestCase {
    override class var serverSize: (width: Int, height: Int) { (160, 120) }

    /// BadMatch (8) from GetImage (73) means the rectangle or the window, not the server.
    func testBadMatchFromGetImageNamesTheRectangle() {
        let error = XProtocolError(code: 8, request: 73, resource: 0x100)
        XCTAssertEqual(error.cause, "the rectangle is off screen or the window is not viewable (BadMatch)")
        XCTAssertEqual(X11Error(error, doing: "XGetImage failed").message,
                       "XGetImage failed: the rectangle is off screen or the window is not viewable (BadMatch)")
    }

    func testBadWindowNamesTheWindow() {
        let error = XProtocolError(code: 3, request: 20, resource: 0x1A0_0007)
        XCTAssertEqual(error.cause, "window 0x1a00007 does not exist (it may have closed) (BadWindow)")
        XCTAssertEqual(error.kind, .windowGone)
    }

    /// A real request on a window that does not exist, trapped and explained; no crash.
    func testGeometryOfAMissingWindowThrowsItsCause() throws {
        XCTAssertThrowsError(try display.geometry(of: 0x1FF_FFF0)) { error in
            let error = error as? X11Error
            XCTAssertEqual(error?.kind, .windowGone)
            XCTAssertEqual(error?.message, "window 0x1fffff0 does not exist (it may have closed) (BadWindow)")
        }
    }
}
