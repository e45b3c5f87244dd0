// `capture --active` and `--frame` under openbox: the active client, with or without decorations.
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import XCTest

final class X11ActiveWindowTests: X11DesktopTestCase {
    nonisolated(unsafe) static let desktop = X11Desktop(width: 400, height: 300, windows: [
        DesktopWindow(frame: Rect(x: 20, y: 30, width: 120, height: 90), colours: [0xE01010, 0x10E010, 0x1010E0, 0xE0E010],
                      className: "Back", instance: "back", title: "back"),
        DesktopWindow(frame: Rect(x: 200, y: 80, width: 150, height: 100), colours: [0xF01818, 0x18F018, 0x1818F0, 0xF0F018],
                      className: "Front", instance: "front", title: "front"),
    ])
    override class var sharedDesktop: X11Desktop { desktop }
    override class var windowManager: Bool { true }
    override class var rulesText: String { "window class=Front 20x10+0+0 fill=#ff0000\nwindow class=Back\nscreen 10x10+0+0\n" }

    /// Activates window `index` and returns where openbox put its client area.
    private func activate(_ index: Int) throws -> Rect {
        let id = desktop.ids[index]
        try runTool("xdotool", ["windowactivate", "--sync", hexID(id)], display: try desktop.name())
        return try desktop.display().geometry(of: .init(id)).frame
    }

    private func capture(_ extra: [String], file: StaticString = #filePath, line: UInt = #line) throws -> PixelBuffer {
        let result = try desktop.run(["capture", "--regions", rules, "-o", "-"] + extra, in: sandbox, file: file, line: line)
        XCTAssertEqual(result.status, 0, "stderr: \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stderr, "", file: file, line: line)
        return try PNGDecoder.decode(result.stdout, source: "stdout")
    }

    func testActiveIsTheActiveClientRedactedByItsRules() throws {
        let front = try activate(1)
        XCTAssertEqual(front.width, 150)
        XCTAssertEqual(front.height, 100)
        let expected = Pixels.painted(desktop.layout[1].content, [(Rect(x: 0, y: 0, width: 20, height: 10), 0xFF0000)])
        assertSameColours(try capture(["--active"]), expected)
        _ = try activate(0)
        assertSameColours(try capture(["--active"]), PixelBuffer(width: 120, height: 90, fill: 0xFF00_0000))
    }

    func testFrameAddsTheDecorationsAroundTheSameClientPixels() throws {
        let front = try activate(1)
        let extents = try desktop.display().frameExtents(of: .init(desktop.ids[1]))
        XCTAssertGreaterThan(extents.top, 0, "openbox decorates the window: \(extents)")
        let framed = try capture(["--active", "--frame"])
        XCTAssertEqual(framed.width, front.width + extents.left + extents.right)
        XCTAssertEqual(framed.height, front.height + extents.top + extents.bottom)
        guard framed.width >= front.width + extents.left, framed.height >= front.height + extents.top else { return }
        let client = framed.cropped(to: Rect(x: extents.left, y: extents.top, width: front.width, height: front.height))
        let expected = Pixels.painted(desktop.layout[1].content, [(Rect(x: 0, y: 0, width: 20, height: 10), 0xFF0000)])
        assertSameColours(client, expected)
        let byWindow = try capture(["--window", hexID(desktop.ids[1]), "--frame"])
        assertSameColours(byWindow, framed)
    }

    func testWindowsMarksTheActiveWindow() throws {
        _ = try activate(0)
        let result = try desktop.run(["windows"], in: sandbox)
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0.hasPrefix("* ") }, lines.filter { $0.hasPrefix("* \(hexID(desktop.ids[0])) ") },
                       result.stdoutText)
        XCTAssertEqual(lines.filter { $0.hasPrefix("* ") }.count, 1, result.stdoutText)
    }
}
