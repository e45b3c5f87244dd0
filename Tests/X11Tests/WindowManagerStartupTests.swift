// startWindowManager(): once it returns, openbox manages and shows the next window at once.
import ShotguardBase
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import ShotguardScene
import XCTest

final class X11WindowManagerStartupTests: XCTestCase {
    /// Regression: `startWindowManager` returned when openbox set `_NET_SUPPORTING_WM_CHECK`,
    /// before it listened for map requests; a window mapped then was never shown. Several fresh
    /// servers, since the race is in startup.
    func testAWindowOpenedRightAfterStartupIsShownAndManaged() throws {
        for attempt in 1...3 {
            let server = try startPrivateServer(width: 200, height: 150, windowManager: true)
            defer { server.stop() }
            try openWindow(on: server.name, attempt: attempt)
        }
    }

    /// Opens a window at once and checks it is managed; the connection closes on return, before
    /// the server stops.
    private func openWindow(on name: String, attempt: Int) throws {
        let display = try Display(name: name)
        let window = try PaintedWindow(display: display, frame: Rect(x: 20, y: 20, width: 60, height: 40),
                                       content: PixelBuffer(width: 60, height: 40, fill: 0xFFE0_1010),
                                       instance: "early", className: "Early", title: "attempt \(attempt)")
        XCTAssertTrue(display.waitForProperties(of: [display.root], seconds: 5) { display.topLevelWindows().contains(window.id) },
                      "attempt \(attempt): managed")
        XCTAssertTrue(display.waitForProperties(of: [window.id], seconds: 5) { display.frameExtents(of: window.id).top > 0 },
                      "attempt \(attempt): decorated")
        window.destroy()
    }
}
