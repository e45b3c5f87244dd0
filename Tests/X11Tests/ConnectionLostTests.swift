// The X server going away while a Display is open: errors, never a dead test process.
import ShotguardBase
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import ShotguardScene
import XCTest

/// Each test starts and stops its own servers: losing one is the point.
final class X11ConnectionLostTests: XCTestCase {
    func testCaptureAfterTheServerStopsThrowsAndTheProcessLivesOn() throws {
        let doomed = try startPrivateServer(width: 160, height: 120)
        let display = try Display(name: doomed.name)
        for allow in [true, false] {
            XCTAssertEqual(try ScreenGrabber(display: display, allowSharedMemory: allow).captureScreen().width, 160)
        }
        let shared = ScreenGrabber(display: display)
        let plain = ScreenGrabber(display: display, allowSharedMemory: false)
        doomed.stop()
        for grabber in [shared, plain, shared] {
            XCTAssertThrowsError(try grabber.captureScreen()) { error in
                let kind = (error as? X11Error)?.kind
                XCTAssertTrue(kind == .connectionLost || kind == .capture, "\(error)")
            }
        }
        XCTAssertTrue(display.isLost)
        XCTAssertThrowsError(try display.geometry(of: display.root))
        _ = display.screenContext()  // answers something, and does not exit
    }

    /// Losing one server says nothing about another: its windows must still close, and its
    /// captures must not be reported as a lost connection.
    func testLosingOneServerLeavesOtherConnectionsWorking() throws {
        let healthy = try startPrivateServer(width: 160, height: 120)
        try checkOtherConnection(on: healthy.name)
        healthy.stop()
    }

    /// Loses a second server while a connection to `name` is open; that connection closes on
    /// return, before its server stops.
    private func checkOtherConnection(on name: String) throws {
        let live = try Display(name: name)
        let doomed = try startPrivateServer(width: 160, height: 120)
        let dying = try Display(name: doomed.name)
        doomed.stop()
        XCTAssertThrowsError(try ScreenGrabber(display: dying).captureScreen())
        XCTAssertTrue(dying.isLost)

        XCTAssertFalse(live.isLost, "the other connection is not lost")
        let window = try PaintedWindow(display: live, frame: Rect(x: 10, y: 10, width: 30, height: 30),
                                       content: PixelBuffer(width: 30, height: 30, fill: 0xFF10_E010),
                                       instance: "alive", className: "Alive", title: "alive")
        let (image, _) = try ScreenGrabber(display: live).capture(Rect(x: 10, y: 10, width: 30, height: 30))
        XCTAssertEqual(image.rgb(x: 29, y: 29), 0x10E010)
        window.destroy()
        XCTAssertThrowsError(try live.geometry(of: window.id), "destroy() closed the window")
    }
}
