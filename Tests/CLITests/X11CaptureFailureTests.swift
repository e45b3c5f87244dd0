// `capture` when something is missing: the window, the display, the regions file, or a valid one.
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import ShotguardScene
import XCTest

final class X11CaptureFailureTests: X11DesktopTestCase {
    nonisolated(unsafe) static let desktop = X11Desktop(width: 200, height: 150, windows: [])
    override class var sharedDesktop: X11Desktop { desktop }
    override class var rulesText: String { "screen 10x10+0+0\n" }

    private func window() throws -> PaintedWindow {
        try PaintedWindow(display: try desktop.display(), frame: Rect(x: 10, y: 10, width: 40, height: 30),
                          content: PixelBuffer(width: 40, height: 30), instance: "gone", className: "Gone", title: "gone")
    }

    func testAWindowThatClosedBeforeTheCapture() throws {
        let closing = try window()
        let id = hexID(UInt(closing.id))
        closing.destroy()
        let result = try desktop.run(["capture", "--window", id, "--regions", rules, "-o", "shot.png"], in: sandbox)
        assertFailure(result, status: 1, prefix: "shotguard: window \(id) ", mentions: ["does not exist"])
        assertOnlyFiles(["rules"], in: sandbox)
    }

    func testAnUnmappedWindowIsNotCaptured() throws {
        let hidden = try window()
        let id = hexID(UInt(hidden.id))
        try runTool("xdotool", ["windowunmap", "--sync", id], display: try desktop.name())
        let result = try desktop.run(["capture", "--window", id, "--regions", rules, "-o", "shot.png"], in: sandbox)
        assertFailure(result, status: 1, prefix: "shotguard: window \(id) ", mentions: ["not viewable"])
        assertOnlyFiles(["rules"], in: sandbox)
    }

    func testNoDisplay() throws {
        let result = try sandbox.run(["capture", "--regions", rules, "-o", "shot.png"])  // DISPLAY is not passed on
        assertFailure(result, status: 1, prefix: "shotguard: ", mentions: ["DISPLAY"])
        assertOnlyFiles(["rules"], in: sandbox)
    }

    /// A failure is one line on stderr, even with no regions file: "nothing was redacted" is not
    /// news when nothing was captured.
    func testNoDisplayAndNoRegionsFileIsStillOneLine() throws {
        let result = try sandbox.run(["capture", "-o", "shot.png"])
        assertFailure(result, status: 1, prefix: "shotguard: ", mentions: ["DISPLAY"])
        assertOnlyFiles(["rules"], in: sandbox)
    }

    func testADisplayThatIsNotThere() throws {
        let result = try sandbox.run(["capture", "--regions", rules, "-o", "shot.png"], environment: ["DISPLAY": ":9999"])
        assertFailure(result, status: 1, prefix: "shotguard: ", mentions: [":9999"])
        assertOnlyFiles(["rules"], in: sandbox)
    }

    /// One warning line, exit 0: the capture was written as asked, but nothing protects it.
    func testNoRegionsFileWarnsThatNothingProtectsTheCapture() throws {
        let result = try desktop.run(["capture", "-o", "shot.png"], in: sandbox)
        XCTAssertEqual(result.status, 0, result.stderr)
        let path = sandbox.path(".config/shotguard/regions")
        XCTAssertEqual(result.stderr, "shotguard: warning: no regions file at \(path), so no rule protects this capture: "
            + "it was written unredacted\n")
        XCTAssertEqual(try sandbox.image("shot.png").width, 200)
        assertOnlyFiles(["rules", "shot.png"], in: sandbox)
    }

    /// Regression: a rectangle wholly off the screen was reported as captured (0x0+5000+5000).
    func testAGeometryWhollyOffTheScreenIsAnError() throws {
        for geometry in ["10x10+5000+5000", "10x10-300+0", "10x10+0+150"] {
            let result = try desktop.run(["capture", "--geometry", geometry, "--regions", rules, "-o", "shot.png"], in: sandbox)
            assertFailure(result, status: 2, prefix: "shotguard: capture: --geometry \(geometry) lies wholly off the 200x150 screen")
        }
        assertOnlyFiles(["rules"], in: sandbox)
        let partly = try desktop.run(["capture", "--geometry", "50x50+180+130", "--regions", rules, "-o", "shot.png"], in: sandbox)
        XCTAssertEqual(partly.status, 0, "a rectangle partly on screen is clipped: \(partly.stderr)")
        XCTAssertEqual(try sandbox.image("shot.png").width, 20)
    }

    func testInvalidRegionsFileWritesNothing() throws {
        let bad = try sandbox.write("bad", text: "screen 10x10+0+0\nwindow class=Vault fill=blurr\n")
        let result = try desktop.run(["capture", "--regions", bad, "-o", "shot.png"], in: sandbox)
        assertFailure(result, status: 2, prefix: "shotguard: \(bad):2:", mentions: ["unknown fill 'blurr'"])
        assertOnlyFiles(["rules", "bad"], in: sandbox)
    }

    func testInvalidDefaultRegionsFileWritesNothingEvenToStandardOutput() throws {
        try sandbox.write(".config/shotguard/regions", text: "screan 10x10+0+0\n")
        let result = try desktop.run(["capture", "-o", "-"], in: sandbox)
        assertFailure(result, status: 2, prefix: "shotguard: \(sandbox.path(".config/shotguard/regions")):1:1: ")
    }

    func testDanglingDefaultRegionsLinkIsRefused() throws {
        try FileManager.default.createDirectory(atPath: sandbox.path(".config/shotguard"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: sandbox.path(".config/shotguard/regions"),
                                                   withDestinationPath: sandbox.path("moved-away"))
        let result = try desktop.run(["capture", "-o", "shot.png"], in: sandbox)
        assertFailure(result, status: 2, prefix: "shotguard: \(sandbox.path(".config/shotguard/regions")): ")
        XCTAssertFalse(sandbox.contents().contains("shot.png"))
    }
}
