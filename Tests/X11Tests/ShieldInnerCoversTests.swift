// The shield's covers inside a protected window and its frame, on a real server: made in the frame, and made again in a new frame when the window is reparented.
import CX11
import ShotguardImaging
import ShotguardTestSupport
import XCTest
@testable import ShotguardX11

final class ShieldInnerCoversTests: XvfbTestCase {
    /// A white top-level "frame" at `rect`, mapped.
    private func frame(_ display: Display, _ rect: Rect) -> Window {
        let window = XCreateSimpleWindow(display.handle, display.root, Int32(rect.x), Int32(rect.y), UInt32(rect.width),
                                         UInt32(rect.height), 0, 0, display.pixel(rgb: 0xFFFFFF))
        XMapWindow(display.handle, window)
        return window
    }

    /// Hands every event queued to `covers`; the types it took.
    private func pump(_ display: Display, into covers: ShieldInnerCovers) -> [Int32] {
        display.sync()
        var taken: [Int32] = []
        var event = XEvent()
        while XPending(display.handle) > 0 {
            XNextEvent(display.handle, &event)
            if covers.handle(&event) { taken.append(event.type) }
        }
        display.sync()
        return taken
    }

    /// How many pixels of `rect` on the screen are not black.
    private func notBlack(_ display: Display, _ rect: Rect) throws -> Int {
        let screen = try ScreenGrabber(display: display).captureScreen()
        return (rect.y..<rect.maxY).reduce(0) { count, y in count + (rect.x..<rect.maxX).filter { screen.rgb(x: $0, y: y) != 0 }.count }
    }

    /// A window the rules name whole, in a frame with a 20-pixel title bar: its covers hide the
    /// frame too. Reparented into another frame (a window manager framing it anew) while they
    /// are up, they are made in the new frame at its ReparentNotify, and a capture of the new
    /// frame counts as one of the window; the old frame shows again.
    func testTheFramesCoverFollowsTheWindowIntoANewFrame() throws {
        let first = frame(display, Rect(x: 10, y: 10, width: 120, height: 100))
        let second = frame(display, Rect(x: 170, y: 100, width: 120, height: 100))
        let client = XCreateSimpleWindow(display.handle, first, 0, 20, 120, 80, 0, 0, display.pixel(rgb: 0x808080))
        XMapWindow(display.handle, client)
        display.sync()
        let covers = ShieldInnerCovers(display: display)
        let whole = Rect(x: 0, y: 0, width: Int(ShieldInnerCovers.size), height: Int(ShieldInnerCovers.size))
        covers.update([InnerCoverTarget(window: UInt(client), rects: [whole], coversFrame: true, rgb: 0x000000)])
        XCTAssertEqual(covers.covered(byCaptureOf: UInt(first)), [UInt(client)])
        covers.show([UInt(client)])
        display.sync()
        XCTAssertEqual(try notBlack(display, Rect(x: 10, y: 10, width: 120, height: 100)), 0, "the first frame, title bar and all")

        XReparentWindow(display.handle, client, second, 0, 20)
        XCTAssertTrue(pump(display, into: covers).contains(ReparentNotify), "no ReparentNotify of the window was taken")
        XCTAssertEqual(covers.covered(byCaptureOf: UInt(second)), [UInt(client)])
        XCTAssertEqual(covers.covered(byCaptureOf: UInt(first)), [])
        XCTAssertEqual(try notBlack(display, Rect(x: 170, y: 100, width: 120, height: 100)), 0, "the second frame, title bar and all")
        XCTAssertEqual(try notBlack(display, Rect(x: 10, y: 10, width: 120, height: 100)), 120 * 100, "the first frame, empty now")

        // No longer protected: its covers go, and it shows again.
        covers.update([])
        display.sync()
        XCTAssertEqual(try notBlack(display, Rect(x: 170, y: 100, width: 120, height: 100)), 120 * 100, "the second frame uncovered")
    }

    /// A child the program maps in the covered window later, and a decoration the window
    /// manager maps in a covered frame, stack above the covers: they are raised over them again.
    func testChildrenMappedLaterAreCoveredToo() throws {
        // A row of one window is covered; another is covered whole, frame and all.
        let rowFrame = frame(display, Rect(x: 10, y: 10, width: 120, height: 100))
        let rowWindow = XCreateSimpleWindow(display.handle, rowFrame, 0, 20, 120, 80, 0, 0, display.pixel(rgb: 0x808080))
        let wholeFrame = frame(display, Rect(x: 170, y: 100, width: 120, height: 100))
        let wholeWindow = XCreateSimpleWindow(display.handle, wholeFrame, 0, 20, 120, 80, 0, 0, display.pixel(rgb: 0x808080))
        XMapWindow(display.handle, rowWindow)
        XMapWindow(display.handle, wholeWindow)
        display.sync()
        let covers = ShieldInnerCovers(display: display)
        let whole = Rect(x: 0, y: 0, width: Int(ShieldInnerCovers.size), height: Int(ShieldInnerCovers.size))
        covers.update([InnerCoverTarget(window: UInt(rowWindow), rects: [Rect(x: 0, y: 0, width: 120, height: 40)], rgb: 0x000000),
                       InnerCoverTarget(window: UInt(wholeWindow), rects: [whole], coversFrame: true, rgb: 0x000000)])
        covers.show([UInt(rowWindow), UInt(wholeWindow)])
        display.sync()
        let row = Rect(x: 10, y: 30, width: 120, height: 40), wholeArea = Rect(x: 170, y: 100, width: 120, height: 100)
        XCTAssertEqual(try notBlack(display, row), 0)
        XCTAssertEqual(try notBlack(display, wholeArea), 0)

        let inside = XCreateSimpleWindow(display.handle, rowWindow, 10, 5, 50, 30, 0, 0, display.pixel(rgb: 0xFFFFFF))
        let button = XCreateSimpleWindow(display.handle, wholeFrame, 100, 2, 16, 16, 0, 0, display.pixel(rgb: 0xFF0000))
        XMapWindow(display.handle, inside)
        XMapWindow(display.handle, button)
        XCTAssertTrue(pump(display, into: covers).contains(MapNotify), "no MapNotify was taken")
        XCTAssertEqual(try notBlack(display, row), 0, "the program's new child shows over the row's cover")
        XCTAssertEqual(try notBlack(display, wholeArea), 0, "the window manager's new button shows over the frame's cover")
        XRaiseWindow(display.handle, inside)
        XCTAssertTrue(pump(display, into: covers).contains(ConfigureNotify), "no ConfigureNotify was taken")
        XCTAssertEqual(try notBlack(display, row), 0, "the child, raised, shows over the row's cover")

        // A child resized again and again under the covers (a toolkit's layout) raises nothing:
        // the raises it would spend are there for the next child mapped over them.
        for step in 0..<(ShieldInnerCovers.maximumRaises + 8) {
            XResizeWindow(display.handle, button, UInt32(10 + step % 6), 16)
            _ = pump(display, into: covers)
        }
        let late = XCreateSimpleWindow(display.handle, rowWindow, 70, 5, 30, 30, 0, 0, display.pixel(rgb: 0xFFFFFF))
        XMapWindow(display.handle, late)
        _ = pump(display, into: covers)
        XCTAssertEqual(try notBlack(display, row), 0, "a child mapped after many resizes shows over the row's cover")
    }
}
