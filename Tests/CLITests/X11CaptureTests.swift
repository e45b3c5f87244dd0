// `capture` on a known desktop: the screen, a rectangle, a window; every pixel redacted or not as the rules say.
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import XCTest

final class X11CaptureTests: X11DesktopTestCase {
    nonisolated(unsafe) static let desktop = X11Scene.desktop()
    override class var sharedDesktop: X11Desktop { desktop }

    /// Runs `capture -o shot.png` plus `extra`, expects a quiet success, returns the image.
    private func capture(_ extra: [String], file: StaticString = #filePath, line: UInt = #line) throws -> PixelBuffer {
        let result = try desktop.run(["capture", "-o", "shot.png"] + extra, in: sandbox, file: file, line: line)
        XCTAssertEqual(result.status, 0, "stderr: \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stderr, "", file: file, line: line)
        XCTAssertEqual(result.stdout, [], file: file, line: line)
        assertOnlyFiles(["rules", "shot.png"], in: sandbox, file: file, line: line)
        defer { try? FileManager.default.removeItem(atPath: sandbox.path("shot.png")) }
        return try sandbox.image("shot.png")
    }

    func testScreenIsRedactedByWindowAndScreenRules() throws {
        let expected = X11Scene.redacted(desktop.screen)
        for target in [["--screen"], []] {
            assertSameColours(try capture(target + ["--regions", rules]), expected)
        }
    }

    func testNoRedactIsTheScreenAsPaintedAndTheRulesChangeOnlyTheirRectangles() throws {
        let plain = try capture(["--no-redact"])
        assertSameColours(plain, desktop.screen)
        let redacted = try capture(["--regions", rules])
        assertSameColours(redacted, Pixels.painted(plain, X11Scene.covers.map { ($0.rect, $0.rgb) }))
    }

    func testNoSharedMemoryCapturesTheSame() throws {
        assertSameColours(try capture(["--no-shm", "--regions", rules]), X11Scene.redacted(desktop.screen))
    }

    func testStandardOutput() throws {
        let result = try desktop.run(["capture", "--regions", rules, "-o", "-"], in: sandbox)
        XCTAssertEqual(result.status, 0, "stderr: \(result.stderr)")
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(Array(result.stdout.prefix(8)), PNGChunks.signature, "stdout is a PNG")
        assertSameColours(try PNGDecoder.decode(result.stdout, source: "stdout"), X11Scene.redacted(desktop.screen))
        assertOnlyFiles(["rules"], in: sandbox)
    }

    func testGeometryIsClippedToTheScreenAndRedactedInImageCoordinates() throws {
        let cases = [("101x87+15+25", Rect(x: 15, y: 25, width: 101, height: 87)),
                     ("200x200+250+150", Rect(x: 250, y: 150, width: 70, height: 90)),
                     ("100x50-0-0", Rect(x: 220, y: 190, width: 100, height: 50)),
                     ("50%x50%+160+0", Rect(x: 160, y: 0, width: 160, height: 120))]
        for (geometry, area) in cases {
            let image = try capture(["--geometry", geometry, "--regions", rules])
            assertSameColours(image, X11Scene.redacted(desktop.screen, area: area))
        }
    }

    func testWindowsByTheIdsThatWindowsPrints() throws {
        let listed = try desktop.run(["windows", "--ids"], in: sandbox)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let ids = listed.stdoutText.split(separator: "\n").map(String.init)
        XCTAssertEqual(ids, desktop.ids.reversed().map { hexID($0) }, "top first")
        for (id, window) in zip(desktop.ids, X11Scene.windows) {
            let area = window.frame.intersection(Rect(x: 0, y: 0, width: X11Scene.width, height: X11Scene.height))
            let image = try capture(["--window", hexID(id), "--regions", rules])
            assertSameColours(image, X11Scene.redacted(desktop.screen, area: area))
            assertSameColours(try capture(["--window", String(id), "--no-redact"]), desktop.screen.cropped(to: area))
        }
    }
}
