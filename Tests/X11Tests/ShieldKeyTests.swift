// The sentinel's covers: an XTEST key press, heard as a raw event on the sentinel's thread, maps them; a read raises those over what it read.
import Glibc
import ShotguardBase
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import ShotguardScene
import XCTest

final class ShieldKeyTests: XvfbTestCase {
    private static let wallpaper = Pixels.screenshot(width: 320, height: 240)
    private let red = Rect(x: 10, y: 12, width: 60, height: 40)
    private let mosaic = Rect(x: 200, y: 100, width: 50, height: 70)

    override class func prepare(_ display: Display) throws -> [AnyObject] {
        try display.setRootBackground(wallpaper)
        return []
    }

    /// A sentinel with two covers ready, once it said they are in place (none up).
    private func sentinel(keys: [String] = ["Print", "F9"]) throws -> (sentinel: Sentinel, events: SentinelEvents) {
        let sentinel = try Sentinel(displayName: display.name, excluding: [display], keys: keys, makesCovers: true)
        sentinel.setCovers([ShieldCover(rect: red, rgb: 0xFF0000), ShieldCover(rect: mosaic, fill: .pixelate(blockSize: 8))])
        return (sentinel, SentinelEvents(sentinel))
    }

    /// 20 presses of Print: each maps both covers, in their fills, over exactly their
    /// rectangles, from the sentinel's own thread; the time from reading the event to flushing
    /// the maps is printed (measured, not judged: `make bench` reports it as figures).
    func testPrintMapsEveryCoverInItsFill() throws {
        let (sentinel, events) = try sentinel()
        let grabber = ScreenGrabber(display: display)
        try assertScreen(grabber.captureScreen(), covered: false)
        for press in 1...20 {
            try runTool("xdotool", ["key", "Print"], display: display.name)
            XCTAssertTrue(events.wait { $0.keys.count == press }, "press \(press) was not heard")
            try assertScreen(grabber.captureScreen(), covered: true)
            sentinel.lowerKeyCovers()
            XCTAssertTrue(events.wait { $0.shown.last == 0 && $0.shownCount >= press }, "the covers did not come down")
            try assertScreen(grabber.captureScreen(), covered: false)
        }
        let latencies = events.keys.map { ($0.mappedAt - $0.readAt) * 1e6 }.sorted()
        XCTAssertEqual(latencies.count, 20)
        XCTAssertTrue(latencies.allSatisfy { $0 >= 0 })
        // Each press knows the server's time once its covers were mapped: no earlier than the key.
        for press in events.keys {
            let covered = try XCTUnwrap(press.coveredTime, "the covers' map was stamped")
            XCTAssertGreaterThanOrEqual(covered, press.serverTime)
        }
        print("shield key to covers mapped: median \(Int(latencies[10])) µs, max \(Int(latencies[19])) µs over 20 presses")
    }

    /// Only the chosen keys raise the shield: 'a' is heard as nothing, F9 (a --shield-key) is.
    func testOnlyTheChosenKeysRaiseIt() throws {
        let (sentinel, events) = try sentinel()
        try runTool("xdotool", ["key", "a", "F9"], display: display.name)
        XCTAssertTrue(events.wait { !$0.keys.isEmpty }, "F9 was not heard")
        // Both presses were sent before F9's event came: a raise for 'a' would be here too.
        XCTAssertEqual(events.keys.count, 1)
        sentinel.lowerKeyCovers()
        XCTAssertTrue(events.wait { $0.shown.last == 0 })
    }

    /// Covers follow new rectangles; one that is no longer needed is destroyed.
    func testCoversFollowTheirRectangles() throws {
        let (sentinel, events) = try sentinel()
        let moved = Rect(x: 100, y: 150, width: 30, height: 20)
        sentinel.setCovers([ShieldCover(rect: moved, rgb: 0x00FF00)])
        try runTool("xdotool", ["key", "Print"], display: display.name)
        XCTAssertTrue(events.wait { !$0.keys.isEmpty })
        let screen = try ScreenGrabber(display: display).captureScreen()
        for y in 0..<240 {
            for x in 0..<320 {
                let want = moved.contains(x: x, y: y) ? 0x00FF00 : Self.wallpaper[x, y] & 0xFF_FFFF
                guard screen[x, y] & 0xFF_FFFF == want else {
                    return XCTFail("pixel (\(x),\(y)) is \(String(screen[x, y] & 0xFF_FFFF, radix: 16)), expected \(String(want, radix: 16))")
                }
            }
        }
        sentinel.lowerKeyCovers()
        XCTAssertTrue(events.wait { $0.shown.last == 0 })
    }

    /// With reads covered, another client's read of the screen puts up the covers over what it
    /// read, at once, and they come down when it disconnects: a read of a corner far from both
    /// covers puts up none.
    func testAReadPutsUpTheCoversOverWhatItRead() throws {
        let (sentinel, events) = try sentinel(keys: [])
        sentinel.setCoversReads(true)
        try runTool("xwd", ["-root", "-silent", "-out", "/dev/null"], display: display.name)
        XCTAssertTrue(events.wait { $0.raised.contains { $0 == 2 } }, "xwd's read of the whole screen raised both covers "
            + "(reads said: \(events.reads); covers raised: \(events.raised); covers shown: \(events.shown))")
        // Its end may come in the sentinel's same turn as its read (a loaded machine): then the
        // covers were never mapped, and none is up after it either.
        XCTAssertTrue(events.wait { $0.ended > 0 && ($0.shown.last ?? 0) == 0 },
                      "xwd disconnected: its covers came down (ends said: \(events.ended), shown: \(events.shown))")
        let before = events.raised.count
        // ffmpeg reads exactly the region it records (a ShmGetImage of it).
        try runTool("ffmpeg", ["-loglevel", "error", "-f", "x11grab", "-video_size", "40x30", "-i", display.name + "+270,200",
                               "-frames:v", "1", "-f", "null", "-"], display: display.name)
        XCTAssertTrue(events.wait { $0.reads > 1 }, "ffmpeg's read was seen")
        XCTAssertEqual(events.raised.count, before, "nothing protected where ffmpeg read")
    }

    /// `covered`: red over `red`, black over `mosaic` (a pixelate rule shields in black), the
    /// wallpaper elsewhere; else the wallpaper everywhere.
    private func assertScreen(_ screen: PixelBuffer, covered: Bool, file: StaticString = #filePath, line: UInt = #line) {
        var wrong = 0
        for y in 0..<screen.height {
            for x in 0..<screen.width {
                var want = Self.wallpaper[x, y] & 0xFF_FFFF
                if covered, red.contains(x: x, y: y) { want = 0xFF0000 }
                if covered, mosaic.contains(x: x, y: y) { want = 0x000000 }
                if screen[x, y] & 0xFF_FFFF != want {
                    wrong += 1
                    if wrong == 1 {
                        XCTFail("pixel (\(x),\(y)) is \(String(screen[x, y] & 0xFF_FFFF, radix: 16)), expected \(String(want, radix: 16))",
                                file: file, line: line)
                    }
                }
            }
        }
        XCTAssertEqual(wrong, 0, covered ? "covers" : "no covers", file: file, line: line)
    }
}

/// What a sentinel said so far, gathered by waiting on its descriptor (bounded).
final class SentinelEvents {
    private let sentinel: Sentinel
    private(set) var keys: [(readAt: Double, mappedAt: Double, serverTime: UInt, coveredTime: UInt?)] = []
    /// How many covers each read raised, and how many were up at each change.
    private(set) var raised: [Int] = []
    private(set) var shown: [Int] = []
    private(set) var reads = 0
    /// Ends said of clients that read.
    private(set) var ended = 0
    var shownCount: Int { shown.count }

    init(_ sentinel: Sentinel) { self.sentinel = sentinel }

    /// Waits until `condition` holds of what was said, up to 10 s.
    func wait(_ condition: (SentinelEvents) -> Bool) -> Bool {
        let deadline = monotonicNow() + 10
        while !condition(self) {
            let remaining = deadline - monotonicNow()
            guard remaining > 0 else { return false }
            var descriptor = pollfd(fd: sentinel.fileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, Int32(remaining * 1000))
            for event in sentinel.take() {
                switch event {
                case .key(let readAt, let mappedAt, let serverTime, let coveredTime, _):
                    keys.append((readAt, mappedAt, serverTime, coveredTime))
                case .coversRaised(_, _, let covers, _): raised.append(covers)
                case .coversShown(let count): shown.append(count)
                case .read: reads += 1
                case .clientEnded: ended += 1
                default: break
                }
            }
        }
        return true
    }
}
