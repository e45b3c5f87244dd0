// Inputs and outputs that cannot work: exit 1, one line naming the file, nothing written or replaced.
import ShotguardImaging
import ShotguardTestSupport
import XCTest

final class BadInputTests: XCTestCase {
    private var sandbox: Sandbox!
    private var png: [UInt8] = []

    override func setUpWithError() throws {
        sandbox = try Sandbox(self)
        png = try PNGEncoder.encode(Pixels.screenshot(width: 64, height: 48), destination: "test")
    }

    private func redact(_ input: String, to output: String = "out.png", file: StaticString = #filePath,
                        line: UInt = #line) throws -> RunResult {
        try sandbox.run(["redact", sandbox.path(input), "-o", sandbox.path(output), "--rect", "5x5+0+0"],
                        file: file, line: line)
    }

    func testMissingInputFile() throws {
        let result = try redact("missing.png")
        assertFailure(result, status: 1, prefix: "shotguard: \(sandbox.path("missing.png")): ",
                      mentions: ["No such file or directory"])
        assertOnlyFiles([], in: sandbox)
    }

    func testTextFileNamedPNG() throws {
        try sandbox.write("notes.png", text: "these are notes, not pixels\n")
        let result = try redact("notes.png")
        assertFailure(result, status: 1, prefix: "shotguard: \(sandbox.path("notes.png")): ", mentions: ["not a PNG"])
        assertOnlyFiles(["notes.png"], in: sandbox)
    }

    func testTruncatedPNG() throws {
        try sandbox.write("cut.png", Array(png.prefix(png.count / 2)))
        let result = try redact("cut.png")
        assertFailure(result, status: 1, prefix: "shotguard: \(sandbox.path("cut.png")): ", mentions: ["truncated"])
        assertOnlyFiles(["cut.png"], in: sandbox)
    }

    func testExistingOutputIsLeftUntouchedOnFailure() throws {
        try sandbox.write("cut.png", Array(png.prefix(png.count - 13)))
        let before: [UInt8] = Array("the previous screenshot\n".utf8)
        try sandbox.write("out.png", before)
        assertFailure(try redact("cut.png"), status: 1, prefix: "shotguard: \(sandbox.path("cut.png")): ")
        XCTAssertEqual(try sandbox.bytes("out.png"), before)
        assertOnlyFiles(["cut.png", "out.png"], in: sandbox)
    }

    func testExistingOutputIsLeftUntouchedOnRegionsError() throws {
        try sandbox.write("in.png", png)
        let regions = try sandbox.write("rules", text: "screen 10x10+0+0 fill=#12345\n")
        try sandbox.write("out.png", png)
        let result = try sandbox.run(["redact", "in.png", "--regions", regions, "-o", "out.png"])
        assertFailure(result, status: 2, prefix: "shotguard: \(regions):1:", mentions: ["#12345"])
        XCTAssertEqual(try sandbox.bytes("out.png"), png)
        assertOnlyFiles(["in.png", "out.png", "rules"], in: sandbox)
    }

    func testOutputIntoMissingFolder() throws {
        try sandbox.write("in.png", png)
        let output = sandbox.path("no-such-folder/out.png")
        let result = try sandbox.run(["redact", "in.png", "-o", output, "--rect", "5x5+0+0"])
        assertFailure(result, status: 1, prefix: "shotguard: \(output): ")
        assertOnlyFiles(["in.png"], in: sandbox)
    }

    func testOutputOntoAFolderLeavesNoTemporaryFile() throws {
        try sandbox.write("in.png", png)
        try sandbox.write("taken/keep", text: "x")
        let result = try sandbox.run(["redact", "in.png", "-o", "taken", "--format", "png", "--rect", "5x5+0+0"])
        assertFailure(result, status: 2, prefix: "shotguard: redact -o 'taken' is a folder")
        assertOnlyFiles(["in.png", "taken", "taken/keep"], in: sandbox)
    }

    /// Regression: with /dev/null missing, starting Xvfb failed with "cannot start Xvfb: No such
    /// file or directory", as if Xvfb were. The error names the path that failed. The demo runs
    /// in a mount namespace of its own whose /dev is an empty tmpfs.
    func testAMissingDevNullIsNamedWhenXvfbCannotStart() throws {
        let unshare = try requireTool("unshare", package: "util-linux")
        let demo = "mount -t tmpfs tmpfs /dev && exec '\(try shotguardBinary().path)' demo --dir '\(sandbox.path("demo"))'"
        let result = try runProgram(unshare, (getuid() == 0 ? ["-m"] : ["-rm"]) + ["sh", "-c", demo],
                                    environment: testEnvironment(home: sandbox.home))
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(result.stderr, "shotguard: cannot start Xvfb: /dev/null: No such file or directory\n")
    }
}
