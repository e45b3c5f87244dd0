// `redact - -o -`: the PNG comes in on standard input and goes out, redacted, on standard output.
import Foundation
import ShotguardBase
import ShotguardImaging
import ShotguardTestSupport
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

    /// A PNG whose rows go bad halfway (row 250 names filter type 9; header, CRCs and checksum
    /// are right): nothing reaches standard output, which cannot take back half a PNG, and no
    /// file is left behind.
    func testARowFoundCorruptHalfwayLeavesNothingBehind() throws {
        let sandbox = try Sandbox(self)
        let script = """
            import struct, sys, zlib
            rows = b"".join(bytes([9 if y == 250 else 0]) + bytes([y % 256]) * 120 for y in range(300))
            def chunk(kind, data):
                return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
            open(sys.argv[1], "wb").write(b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 40, 300, 8, 2, 0, 0, 0))
                                    + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
            """
        let bad = sandbox.path("bad.png")
        XCTAssertEqual(try ChildProcess("/usr/bin/python3", ["-c", script, bad], output: .standardError).waitForExit(), 0)
        for output in ["-", sandbox.path("out.png")] {
            let result = try sandbox.run(["redact", bad, "--rect", "10x10+0+0", "-o", output])
            assertFailure(result, status: 1, prefix: "shotguard: \(bad): ", mentions: ["corrupt"])
        }
        assertOnlyFiles(["bad.png"], in: sandbox)
    }

    /// Help written to a full disk was exit 0: a result that was not written is a failure.
    func testAResultThatCannotBeWrittenFailsTheCommand() throws {
        let sandbox = try Sandbox(self)
        for arguments in [["--help"], ["capture", "--help"], ["quarantine", "list"]] {
            let result = try runProgram(URL(fileURLWithPath: "/bin/sh"), ["-c", "exec \"$0\" \"$@\" >/dev/full",
                                                                          try shotguardBinary().path] + arguments,
                                        environment: testEnvironment(home: sandbox.home), in: sandbox.home)
            assertFailure(result, status: 1, prefix: "shotguard: standard output: write: No space left on device",
                          mentions: [])
        }
    }
}
