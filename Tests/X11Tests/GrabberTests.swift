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

    /// Grabs `rect` through a ring of `ringRows` rows in strips of `stripRows`, copying each
    /// strip out as it arrives: the image, the rectangle, each strip's rows, each reservation.
    private func ringCapture(_ grabber: ScreenGrabber, _ rect: Rect, stripRows: Int, ringRows: Int,
                             stopAt: Int = .max) throws -> (PixelBuffer, Rect, [Range<Int>], [Int], X11Error?)? {
        try grabber.withRingCapture(rect, stripRows: stripRows, ringRows: ringRows) { ring, captured, grab in
            var image = PixelBuffer(width: captured.width, height: captured.height)
            var strips: [Range<Int>] = []
            var reserved: [Int] = []
            let error = grab({ until in
                reserved.append(until)
                return until <= stopAt
            }, { strip in
                strips.append(strip)
                let top = strip.lowerBound % ring.height
                let rows = ring.rows(top..<(top + strip.count))
                let copied = PixelBuffer(copying: rows)
                for y in 0..<strip.count {
                    for x in 0..<captured.width { image[x, strip.lowerBound + y] = copied[x, y] }
                }
            })
            return (image, captured, strips, reserved, error)
        }
    }

    func testRingStripsArriveTopToBottomAndHoldTheSamePixels() throws {
        let grabber = ScreenGrabber(display: display)
        let rect = Rect(x: 7, y: 3, width: 250, height: 201)
        let (image, captured, strips, reserved, error) = try XCTUnwrap(try ringCapture(grabber, rect, stripRows: 16, ringRows: 48),
                                                                      "a local Xvfb offers MIT-SHM")
        XCTAssertNil(error)
        XCTAssertEqual(captured, rect)
        let ends = Array(stride(from: 16, to: 201, by: 16)) + [201]
        XCTAssertEqual(strips.map(\.upperBound), ends, "one strip at a time, top to bottom, the last one short")
        XCTAssertEqual(reserved, ends, "each strip's rows reserved before it is grabbed")
        assertSameColours(image, screen.cropped(to: rect), "every strip through a ring of three")
        XCTAssertNil(try ScreenGrabber(display: display, allowSharedMemory: false).withRingCapture(rect, stripRows: 16, ringRows: 48) {
            _, _, _ in 0
        }, "without MIT-SHM there is no ring")
    }

    func testARingSizedSegmentGrabsEveryStripAndMakesWayForAWholeFrame() throws {
        let grabber = ScreenGrabber(display: display, segmentRows: 48)
        XCTAssertEqual(grabber.method, ScreenGrabber.Method.sharedMemory)
        for rect in [Rect(x: 0, y: 0, width: 320, height: 240), Rect(x: 31, y: 17, width: 199, height: 203)] {
            let (image, _, strips, _, error) = try XCTUnwrap(try ringCapture(grabber, rect, stripRows: 16, ringRows: 48),
                                                             "a ring of 48 rows fits the segment")
            XCTAssertNil(error)
            XCTAssertEqual(strips.count, (rect.height + 15) / 16, "\(rect): every strip through one segment")
            assertSameColours(image, screen.cropped(to: rect), "\(rect)")
        }
        XCTAssertNil(try grabber.withRingCapture(Self.screen.bounds, stripRows: 100, ringRows: 300) { _, _, _ in 0 },
                     "a ring taller than the segment is not grabbed")
        XCTAssertNil(try grabber.withRingCapture(Self.screen.bounds, stripRows: 16, ringRows: 40) { _, _, _ in 0 },
                     "a ring that is not a whole number of strips is not grabbed")
        assertSameColours(try grabber.captureScreen(), screen, "a whole-frame segment replaced the ring-sized one")
        XCTAssertEqual(grabber.method, ScreenGrabber.Method.sharedMemory)
    }

    /// A reservation refused (the encoder stopped) stops the grab before that strip, with an
    /// error, and the segment stays in use.
    func testARefusedReservationStopsTheRingGrab() throws {
        let grabber = ScreenGrabber(display: display)
        let rect = Rect(x: 0, y: 0, width: 120, height: 100)
        let (_, _, strips, _, error) = try XCTUnwrap(try ringCapture(grabber, rect, stripRows: 16, ringRows: 48, stopAt: 48))
        XCTAssertNotNil(error, "a stopped grab says so")
        XCTAssertEqual(strips.map(\.upperBound), [16, 32, 48], "nothing grabbed past the refused reservation")
        XCTAssertEqual(grabber.method, ScreenGrabber.Method.sharedMemory, "a stop is no reason to leave MIT-SHM")
        XCTAssertNil(grabber.takeFallbackNotice())
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
