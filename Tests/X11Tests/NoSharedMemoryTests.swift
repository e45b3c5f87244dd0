// ScreenGrabber on an Xvfb without MIT-SHM (as on a remote display): it must use XGetImage.
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import XCTest

final class X11NoSharedMemoryTests: XvfbTestCase {
    override class var withoutSharedMemory: Bool { true }
    nonisolated(unsafe) static var screen = PixelBuffer(width: 0, height: 0)

    override class func prepare(_ display: Display) throws -> [AnyObject] {
        let (windows, screen) = try showDesktop(Scene.standard, on: display)
        Self.screen = screen
        return windows
    }

    func testFallsBackToGetImageAndCapturesExactly() throws {
        let display = try Self.fixture.scene()
        let grabber = ScreenGrabber(display: display)  // shared memory allowed, but not offered
        XCTAssertEqual(grabber.method, .getImage)
        assertSameColours(try grabber.captureScreen(), Self.screen)
        for rect in [Rect(x: 15, y: 25, width: 101, height: 87), Rect(x: 0, y: 0, width: 1, height: 1),
                     Rect(x: 250, y: 190, width: 70, height: 50), Rect(x: 0, y: 0, width: 320, height: 240)] {
            let (image, captured) = try grabber.capture(rect)
            XCTAssertEqual(captured, rect)
            assertSameColours(image, Self.screen.cropped(to: rect), "capture of \(rect)")
        }
        XCTAssertEqual(grabber.method, .getImage)
    }

    func testClipsAndRefusesLikeSharedMemory() throws {
        let grabber = ScreenGrabber(display: try Self.fixture.scene())
        let (image, captured) = try grabber.capture(Rect(x: 300, y: -10, width: 50, height: 40))
        XCTAssertEqual(captured, Rect(x: 300, y: 0, width: 20, height: 30))
        assertSameColours(image, Self.screen.cropped(to: captured))
        XCTAssertThrowsError(try grabber.capture(Rect(x: 320, y: 0, width: 5, height: 5))) { error in
            XCTAssertEqual((error as? X11Error)?.kind, .capture)
        }
    }
}
