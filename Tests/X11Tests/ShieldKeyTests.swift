// The shield's key-to-cover path: an XTEST key press, heard as a raw event, maps the covers.
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

    private func shieldedPump() throws -> (pump: EventPump, shield: Shield, display: Display) {
        let display: Display = self.display
        let pump = try EventPump(display: display, watchClipboard: false)
        let shield = try pump.desktop.enableShield(keys: ["Print", "F9"])
        shield.overlays.update([ShieldCover(rect: red, rgb: 0xFF0000), ShieldCover(rect: mosaic, fill: .pixelate(blockSize: 8))])
        display.sync()
        return (pump, shield, display)
    }

    private var keyPresses: (EventPump) -> [(readAt: Double, mappedAt: Double, serverTime: UInt, coveredTime: UInt?)] {
        { pump in
            pump.signals.compactMap {
                if case .shieldKey(let readAt, let mappedAt, let serverTime, let coveredTime) = $0 {
                    (readAt, mappedAt, serverTime, coveredTime)
                } else { nil }
            }
        }
    }

    /// 20 presses of Print: each maps both covers, in their fills, over exactly their
    /// rectangles; the time from reading the event to flushing the maps is printed (measured,
    /// not judged: `make bench` reports it as figures).
    func testPrintMapsEveryCoverInItsFill() throws {
        let (pump, shield, display) = try shieldedPump()
        let grabber = ScreenGrabber(display: display)
        try assertScreen(grabber.captureScreen(), covered: false)
        var latencies: [Double] = []
        for press in 1...20 {
            try runTool("xdotool", ["key", "Print"], display: display.name)
            XCTAssertTrue(pump.run(seconds: 5) { keyPresses(pump).count == press }, "press \(press) was not heard")
            display.sync()
            XCTAssertTrue(shield.overlays.isUp)
            try assertScreen(grabber.captureScreen(), covered: true)
            shield.overlays.lower()
            display.sync()
            try assertScreen(grabber.captureScreen(), covered: false)
        }
        latencies = keyPresses(pump).map { ($0.mappedAt - $0.readAt) * 1e6 }.sorted()
        XCTAssertEqual(latencies.count, 20)
        XCTAssertTrue(latencies.allSatisfy { $0 >= 0 })
        // Each press knows the server's time once its covers were mapped: no earlier than the key.
        for press in keyPresses(pump) {
            let covered = try XCTUnwrap(press.coveredTime, "the covers' map was stamped")
            XCTAssertGreaterThanOrEqual(covered, press.serverTime)
        }
        print("shield key to covers mapped: median \(Int(latencies[10])) µs, max \(Int(latencies[19])) µs over 20 presses")
    }

    /// Only the chosen keys raise the shield: 'a' is heard as nothing, F9 (a --shield-key) is.
    func testOnlyTheChosenKeysRaiseIt() throws {
        let (pump, shield, display) = try shieldedPump()
        try runTool("xdotool", ["key", "a", "F9"], display: display.name)
        XCTAssertTrue(pump.run(seconds: 5) { !keyPresses(pump).isEmpty }, "F9 was not heard")
        // Both presses were sent before F9's event came: a raise for 'a' would be here too.
        display.sync()
        _ = pump.run(seconds: 0) { false }
        XCTAssertEqual(keyPresses(pump).count, 1)
        XCTAssertTrue(shield.overlays.isUp)
        shield.overlays.lower()
    }

    /// Covers follow new rectangles; one that is no longer needed is destroyed.
    func testCoversFollowTheirRectangles() throws {
        let (_, shield, display) = try shieldedPump()
        let moved = Rect(x: 100, y: 150, width: 30, height: 20)
        shield.overlays.update([ShieldCover(rect: moved, rgb: 0x00FF00)])
        XCTAssertEqual(shield.overlays.count, 1)
        shield.overlays.raise()
        display.sync()
        let screen = try ScreenGrabber(display: display).captureScreen()
        for y in 0..<240 {
            for x in 0..<320 {
                let want = moved.contains(x: x, y: y) ? 0x00FF00 : Self.wallpaper[x, y] & 0xFF_FFFF
                guard screen[x, y] & 0xFF_FFFF == want else {
                    return XCTFail("pixel (\(x),\(y)) is \(String(screen[x, y] & 0xFF_FFFF, radix: 16)), expected \(String(want, radix: 16))")
                }
            }
        }
        shield.overlays.lower()
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
