// `redact` with window rules resolved against a live display, with and without --origin.
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import XCTest

final class X11RedactTests: X11DesktopTestCase {
    nonisolated(unsafe) static let desktop = X11Scene.desktop()
    override class var sharedDesktop: X11Desktop { desktop }

    private func redact(_ extra: [String], file: StaticString = #filePath, line: UInt = #line) throws -> PixelBuffer {
        let result = try desktop.run(["redact", "in.png", "--regions", rules, "-o", "out.png"] + extra, in: sandbox,
                                     file: file, line: line)
        XCTAssertEqual(result.status, 0, "stderr: \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stderr, "", file: file, line: line)
        XCTAssertEqual(result.stdout, [], file: file, line: line)
        return try sandbox.image("out.png")
    }

    func testWindowRulesOnAFullScreenImage() throws {
        try sandbox.write("in.png", png: desktop.screen)
        assertSameColours(try redact([]), X11Scene.redacted(desktop.screen))
    }

    func testOriginPlacesAPartOfTheScreen() throws {
        for area in [Rect(x: 100, y: 0, width: 220, height: 200), Rect(x: 200, y: 100, width: 120, height: 140),
                     Rect(x: 0, y: 0, width: 45, height: 35)] {
            try sandbox.write("in.png", png: desktop.screen.cropped(to: area))
            let output = try redact(["--origin", "+\(area.x)+\(area.y)"])
            assertSameColours(output, X11Scene.redacted(desktop.screen, area: area))
        }
    }

    /// The same part of the screen without --origin is taken to be at +0+0: the rules land elsewhere.
    func testWithoutOriginTheImageIsTakenToBeAtTheTopLeft() throws {
        let area = Rect(x: 200, y: 100, width: 120, height: 140)
        let part = desktop.screen.cropped(to: area)
        try sandbox.write("in.png", png: part)
        let atTopLeft = Rect(x: 0, y: 0, width: area.width, height: area.height)
        assertSameColours(try redact([]), Pixels.painted(part, X11Scene.covers(inImageAt: atTopLeft)))
    }

    func testNoWindowMatchesLeavesOnlyScreenRules() throws {
        let onlyNobody = try sandbox.write("nobody", text: "window class=Nobody\nscreen 5x5+1+1 fill=#ff0000\n")
        try sandbox.write("in.png", png: desktop.screen)
        let result = try desktop.run(["redact", "in.png", "--regions", onlyNobody, "-o", "out.png"], in: sandbox)
        XCTAssertEqual(result.status, 0, result.stderr)
        assertSameColours(try sandbox.image("out.png"),
                          Pixels.painted(desktop.screen, [(Rect(x: 1, y: 1, width: 5, height: 5), 0xFF0000)]))
    }
}
