// ScreenGrabber on a screen of known pixels: the whole screen, rectangles, clipping, both methods.
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import XCTest

final class X11GrabberTests: XvfbTestCase {
    nonisolated(unsafe) static var screen = PixelBuffer(width: 0, height: 0)

    override class func prepare(_ display: Display) throws -> [AnyObject] {
        let (windows, screen) = try showDesktop(Scene.standard, on: display)
        Self.screen = screen
        return windows
    }

    private var screen: PixelBuffer { Self.screen }

    func testWholeScreenBySharedMemory() throws {
        let grabber = ScreenGrabber(display: display)
        XCTAssertEqual(grabber.method, .sharedMemory, "a local Xvfb offers MIT-SHM")
        assertSameColours(try grabber.captureScreen(), screen)
        XCTAssertEqual(grabber.method, .sharedMemory, "the segment kept working")
        XCTAssertNil(grabber.takeFallbackNotice(), "nothing fell back")
    }

    func testStripsArriveTopToBottomAndHoldTheSamePixels() throws {
        let grabber = ScreenGrabber(display: display)
        let rect = Rect(x: 7, y: 3, width: 250, height: 201)
        var reports: [Int] = []
        let (image, captured, error) = try XCTUnwrap(try grabber.withStripCapture(rect, stripRows: 16) { rows, captured, grab, _ in
            let error = grab { arrived in reports.append(arrived) }
            return (PixelBuffer(copying: rows), captured, error)
        }, "a local Xvfb offers MIT-SHM")
        XCTAssertNil(error)
        XCTAssertEqual(captured, rect)
        XCTAssertEqual(reports, Array(stride(from: 16, to: 201, by: 16)) + [201], "one report per strip, the last one short")
        assertSameColours(image, screen.cropped(to: rect))
        XCTAssertNil(try ScreenGrabber(display: display, allowSharedMemory: false).withStripCapture(rect) { _, _, _, _ in 0 },
                     "without MIT-SHM there are no strips")
    }

    func testAStripSizedSegmentGrabsEveryStripAndMakesWayForAWholeFrame() throws {
        let grabber = ScreenGrabber(display: display, stripSegment: true)
        XCTAssertEqual(grabber.method, .sharedMemory)
        for rect in [Rect(x: 0, y: 0, width: 320, height: 240), Rect(x: 31, y: 17, width: 199, height: 203)] {
            var reports = 0
            let (image, error) = try XCTUnwrap(try grabber.withStripCapture(rect) { rows, _, grab, release in
                let error = grab { _ in reports += 1 }
                let image = PixelBuffer(copying: rows)
                release()
                return (image, error)
            }, "the default strip fits the strip-sized segment")
            XCTAssertNil(error)
            let strip = ScreenGrabber.stripRows(forHeight: rect.height)
            XCTAssertEqual(reports, (rect.height + strip - 1) / strip, "\(rect): every strip copied out of one segment")
            assertSameColours(image, screen.cropped(to: rect), "\(rect)")
        }
        XCTAssertNil(try grabber.withStripCapture(Self.screen.bounds, stripRows: 100) { _, _, _, _ in 0 },
                     "a strip taller than the segment is not grabbed in strips")
        assertSameColours(try grabber.captureScreen(), screen, "a whole-frame segment replaced the strip-sized one")
        XCTAssertEqual(grabber.method, .sharedMemory)
    }

    func testWholeScreenByGetImageWhenSharedMemoryIsNotAllowed() throws {
        let grabber = ScreenGrabber(display: display, allowSharedMemory: false)
        XCTAssertEqual(grabber.method, .getImage)
        assertSameColours(try grabber.captureScreen(), screen)
    }

    func testRectangleAcrossWindowsByBothMethods() throws {
        let rect = Rect(x: 15, y: 25, width: 101, height: 87)
        for allow in [true, false] {
            let (image, captured) = try ScreenGrabber(display: display, allowSharedMemory: allow).capture(rect)
            XCTAssertEqual(captured, rect, "shm \(allow)")
            assertSameColours(image, screen.cropped(to: rect), "shm \(allow)")
        }
    }

    func testRectanglePartlyOffScreenIsClippedAndSaysWhere() throws {
        let cases = [
            (Rect(x: 300, y: -10, width: 50, height: 40), Rect(x: 300, y: 0, width: 20, height: 30)),
            (Rect(x: -5, y: 220, width: 30, height: 40), Rect(x: 0, y: 220, width: 25, height: 20)),
            (Rect(x: 250, y: 190, width: 200, height: 200), Rect(x: 250, y: 190, width: 70, height: 50)),
            (Rect(x: -100, y: -100, width: 1000, height: 1000), Rect(x: 0, y: 0, width: 320, height: 240)),
        ]
        for allow in [true, false] {
            let grabber = ScreenGrabber(display: display, allowSharedMemory: allow)
            for (asked, expected) in cases {
                let (image, captured) = try grabber.capture(asked)
                XCTAssertEqual(captured, expected, "capture of \(asked), shm \(allow)")
                assertSameColours(image, screen.cropped(to: expected), "capture of \(asked), shm \(allow)")
            }
        }
    }

    func testRectangleEntirelyOffScreenThrows() throws {
        let outside = [Rect(x: 320, y: 0, width: 10, height: 10), Rect(x: -20, y: -20, width: 20, height: 20),
                       Rect(x: 0, y: 240, width: 320, height: 5), Rect(x: 10, y: 10, width: 0, height: 5)]
        for allow in [true, false] {
            let grabber = ScreenGrabber(display: display, allowSharedMemory: allow)
            for rect in outside {
                XCTAssertThrowsError(try grabber.capture(rect), "capture of \(rect)") { error in
                    XCTAssertEqual((error as? X11Error)?.kind, .capture, "\(rect): \(error)")
                    XCTAssertTrue("\(error)".contains("\(rect)"), "the error names the rectangle: \(error)")
                }
            }
            // The grabber still works after refusing.
            assertSameColours(try grabber.captureScreen(), screen, "after the errors, shm \(allow)")
        }
    }

    func testRepeatedCapturesOfDifferentSizesReuseOneGrabber() throws {
        let rects = [Rect(x: 0, y: 0, width: 320, height: 240), Rect(x: 7, y: 3, width: 1, height: 1),
                     Rect(x: 0, y: 239, width: 320, height: 1), Rect(x: 319, y: 0, width: 1, height: 240),
                     Rect(x: 33, y: 41, width: 37, height: 53), Rect(x: 100, y: 100, width: 220, height: 140),
                     Rect(x: 0, y: 0, width: 320, height: 240), Rect(x: 61, y: 71, width: 3, height: 169)]
        for allow in [true, false] {
            let grabber = ScreenGrabber(display: display, allowSharedMemory: allow)
            for rect in rects + rects.reversed() {
                let (image, captured) = try grabber.capture(rect)
                XCTAssertEqual(captured, rect)
                assertSameColours(image, screen.cropped(to: rect), "capture of \(rect), shm \(allow)")
            }
            XCTAssertEqual(grabber.method, allow ? .sharedMemory : .getImage, "no fallback was needed")
        }
    }
}
