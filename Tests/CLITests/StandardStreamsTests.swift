// `redact - -o -`: the PNG comes in on standard input and goes out, redacted, on standard output.
import ShotguardImaging
import XCTest

final class StandardStreamsTests: XCTestCase {
    func testRedactsFromStdinToStdout() throws {
        let sandbox = try Sandbox(self)
        let original = Pixels.screenshot(width: 640, height: 400)
        let input = try PNGEncoder.encode(original, destination: "stdin")
        let result = try sandbox.run(["redact", "-", "-o", "-", "--rect", "30x20+5+7"], stdin: input)
        XCTAssertEqual(result.status, 0, "stderr: \(result.stderr)")
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(Array(result.stdout.prefix(8)), PNGChunks.signature, "stdout is a PNG")
        let output = try PNGDecoder.decode(result.stdout, source: "stdout")
        assertSamePixels(output, Pixels.painted(original, [(Rect(x: 5, y: 7, width: 30, height: 20), 0x000000)]))
        assertOnlyFiles([], in: sandbox)
    }

    func testNonPNGOnStdinFailsNamingStdin() throws {
        let sandbox = try Sandbox(self)
        let result = try sandbox.run(["redact", "-", "-o", "-"], stdin: Array("not a picture\n".utf8))
        assertFailure(result, status: 1, prefix: "shotguard: -: ", mentions: ["not a PNG"])
    }
}
