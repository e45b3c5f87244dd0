// A private Xvfb per suite with windows of known pixels, for tests that run shotguard against X.
import Foundation
import ShotguardBase
import ShotguardImaging
import ShotguardX11
import ShotguardScene
import XCTest

/// Why a suite's desktop is not there; thrown in each test's setUp so every test fails saying so.
struct DesktopError: Error, CustomStringConvertible {
    let description: String
}

/// One window of a desktop: where it is, what it shows and what it is called.
struct DesktopWindow {
    var frame: Rect
    var colours: [UInt32]
    var className: String
    var instance: String
    var title: String

    /// Four quadrants (top-left, top-right, bottom-left, bottom-right): a shift or flip shows.
    var content: PixelBuffer {
        var image = PixelBuffer(width: frame.width, height: frame.height)
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                image[x, y] = 0xFF00_0000 | colours[(y < frame.height / 2 ? 0 : 2) + (x < frame.width / 2 ? 0 : 1)]
            }
        }
        return image
    }
}

/// An Xvfb (and openbox, when asked) with a patterned wallpaper and `windows` on it, bottom first.
/// `start` records a failure instead of throwing, since `class func setUp` cannot fail a test.
final class X11Desktop {
    let width: Int
    let height: Int
    let layout: [DesktopWindow]
    private var server: VirtualDisplay?
    private var connection: Display?
    private var painted: [PaintedWindow] = []
    private var failure: String?

    init(width: Int, height: Int, windows: [DesktopWindow]) {
        self.width = width
        self.height = height
        self.layout = windows
    }

    func start(windowManager: Bool = false) {
        do throws(X11Error) {
            let server = try VirtualDisplay(width: width, height: height)
            self.server = server
            if windowManager, !server.startWindowManager() {
                failure = programExists("openbox") ? "openbox did not take over \(server.name) within 5 s"
                    : "openbox is not installed (Debian package 'openbox'); this suite needs a window manager"
                return
            }
            let display = try Display(name: server.name)
            connection = display
            try display.setRootBackground(Pixels.screenshot(width: width, height: height))
            painted = try layout.map { window throws(X11Error) in
                try PaintedWindow(display: display, frame: window.frame, content: window.content,
                                  instance: window.instance, className: window.className, title: window.title)
            }
        } catch {
            failure = "cannot set up a private X desktop: \(error.message)"
        }
    }

    /// Closes the desktop's connection before stopping the server (a connection that outlives
    /// its server is a lost one), then stops openbox and Xvfb by their pids.
    func stop() {
        painted = []
        connection = nil
        server?.stop()
        server = nil
    }

    /// The display name, for DISPLAY; throws the setup failure.
    func name() throws -> String {
        if let failure { throw DesktopError(description: failure) }
        guard let server else { throw DesktopError(description: "the suite's Xvfb was not started") }
        return server.name
    }

    /// The desktop's own connection (it owns the windows).
    func display() throws -> Display {
        _ = try name()
        guard let connection else { throw DesktopError(description: "the suite's desktop was not set up") }
        return connection
    }

    /// The window ids, in `layout` order.
    var ids: [UInt] { painted.map { UInt($0.id) } }

    /// What the screen shows: the wallpaper with the windows drawn bottom first, clipped.
    var screen: PixelBuffer {
        var out = Pixels.screenshot(width: width, height: height)
        for window in layout {
            let content = window.content
            let frame = window.frame
            for y in max(0, frame.y)..<min(height, frame.maxY) {
                for x in max(0, frame.x)..<min(width, frame.maxX) { out[x, y] = content[x - frame.x, y - frame.y] }
            }
        }
        return out
    }

    /// Runs `shotguard` in `sandbox` with DISPLAY set to this desktop.
    func run(_ arguments: [String], in sandbox: Sandbox, stdin: [UInt8]? = nil,
             file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        try sandbox.run(arguments, stdin: stdin, environment: ["DISPLAY": try name()], file: file, line: line)
    }
}

/// Runs an X tool (xdotool) with DISPLAY set; fails the test unless it exits 0.
func runXTool(_ program: String, _ arguments: [String], display: String,
              file: StaticString = #filePath, line: UInt = #line) throws {
    guard programExists(program) else { throw DesktopError(description: "\(program) is not installed; this test needs it") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["DISPLAY=\(display)", program] + arguments
    try process.run()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, "\(program) \(arguments.joined(separator: " "))", file: file, line: line)
}

/// Asserts that `actual` has `expected`'s size and the same 0xRRGGBB everywhere, naming the
/// first pixels that differ (the fourth byte is padding in a capture, not a colour).
func assertSameColours(_ actual: PixelBuffer, _ expected: PixelBuffer, file: StaticString = #filePath, line: UInt = #line) {
    let opaque = { (image: PixelBuffer) in
        PixelBuffer(width: image.width, height: image.height, pixels: image.pixels.map { 0xFF00_0000 | $0 }, hasAlpha: false)
    }
    assertSamePixels(opaque(actual), opaque(expected), file: file, line: line)
}
