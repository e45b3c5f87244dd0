// `redact --rect`: every pixel inside each rectangle is the fill, every pixel outside is the input.
import ShotguardImaging
import ShotguardTestSupport
import XCTest

final class RedactRectTests: XCTestCase {
    private var sandbox: Sandbox!
    /// 101 wide, so 50% of the width is 50.5 and must round up to 51.
    private let original = Pixels.screenshot(width: 101, height: 67)

    override func setUpWithError() throws {
        sandbox = try Sandbox(self)
        try sandbox.write("in.png", png: original)
    }

    /// Runs `redact in.png -o out.png` plus `extra`, expects success, returns the output image.
    private func redact(_ extra: [String], file: StaticString = #filePath, line: UInt = #line) throws -> PixelBuffer {
        let result = try sandbox.run(["redact", "in.png", "-o", "out.png"] + extra, file: file, line: line)
        XCTAssertEqual(result.status, 0, "stderr: \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stderr, "", file: file, line: line)
        XCTAssertEqual(result.stdout, [], file: file, line: line)
        assertOnlyFiles(["in.png", "out.png"], in: sandbox, file: file, line: line)
        return try sandbox.image("out.png")
    }

    func testPixelRectDefaultsToBlack() throws {
        let output = try redact(["--rect", "30x20+5+7"])
        assertSamePixels(output, Pixels.painted(original, [(Rect(x: 5, y: 7, width: 30, height: 20), 0x000000)]))
    }

    func testPercentRectFromFarCornerWithColour() throws {
        let output = try redact(["--rect", "30x20+5+7", "--rect", "50%x10-0-0", "--fill", "#ff0000"])
        let expected = Pixels.painted(original, [
            (Rect(x: 5, y: 7, width: 30, height: 20), 0xFF0000),
            (Rect(x: 50, y: 57, width: 51, height: 10), 0xFF0000),
        ])
        assertSamePixels(output, expected)
    }

    func testRectReachingPastTheEdgeIsClipped() throws {
        let output = try redact(["--rect", "40x40+90+60", "--fill", "#00ff00"])
        assertSamePixels(output, Pixels.painted(original, [(Rect(x: 90, y: 60, width: 11, height: 7), 0x00FF00)]))
    }

    func testPixelateMakesUniformBlocksAndLeavesTheRestAlone() throws {
        let output = try redact(["--rect", "50%x10-0-0", "--fill", "pixelate:4"])
        let area = Rect(x: 50, y: 57, width: 51, height: 10)
        var outside = original
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX { outside[x, y] = output[x, y] }
        }
        assertSamePixels(output, outside)
        assertPixelated(output, from: original, in: area, block: 4)
    }

    func testMaximumCompressionStillWritesTheSamePixels() throws {
        let output = try redact(["--rect", "30x20+5+7", "--compression", "9"])
        assertSamePixels(output, Pixels.painted(original, [(Rect(x: 5, y: 7, width: 30, height: 20), 0x000000)]))
    }

    func testOverwritesAnExistingOutput() throws {
        try sandbox.write("out.png", text: "old contents")
        let output = try redact(["--rect", "1x1+0+0"])
        assertSamePixels(output, Pixels.painted(original, [(Rect(x: 0, y: 0, width: 1, height: 1), 0x000000)]))
    }
}

/// What `redact` says when no regions file applies.
final class RedactWarningTests: XCTestCase {
    /// Regression: `redact --rect` with no regions file must not say nothing was redacted: it
    /// covered the rectangle, so it says nothing at all.
    func testARectWithoutARegionsFileIsNotWarnedAbout() throws {
        let sandbox = try Sandbox(self)
        let input = try sandbox.write("in.png", png: Pixels.screenshot(width: 40, height: 30))
        let result = try sandbox.run(["redact", input, "--rect", "5x5+0+0", "-o", "out.png"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
    }

    /// Neither rules nor --rect: the copy is written as asked, with one line saying so.
    func testNoRulesAndNoRectWarnsOnce() throws {
        let sandbox = try Sandbox(self)
        let input = try sandbox.write("in.png", png: Pixels.screenshot(width: 40, height: 30))
        for output in ["out.png", "out.jpg"] {
            let result = try sandbox.run(["redact", input, "-o", output])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.stderr, "shotguard: warning: no regions file at \(sandbox.path(".config/shotguard/regions")) "
                + "and no --rect: nothing was redacted\n", output)
        }
    }
}
