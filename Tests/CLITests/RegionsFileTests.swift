// `redact --regions FILE` and the default regions file: screen rules applied, bad files refused.
import ShotguardImaging
import ShotguardTestSupport
import XCTest

final class RegionsFileTests: XCTestCase {
    private var sandbox: Sandbox!
    private let original = Pixels.screenshot(width: 321, height: 203)

    override func setUpWithError() throws {
        sandbox = try Sandbox(self)
        try sandbox.write("in.png", png: original)
    }

    /// The covers of `screenRules` on a 321x203 image, in file order: black 300x28 at the
    /// top right (x 21), then green 10%x10% (33x21, rounded up) at the top left over it.
    private let screenRules = "# redact the top bar\nscreen 300x28-0+0\n\n  screen 10%x10%+0+0 fill=#00ff00  # clock\n"
    private let screenCovers = [
        (Rect(x: 21, y: 0, width: 300, height: 28), UInt32(0x000000)),
        (Rect(x: 0, y: 0, width: 33, height: 21), UInt32(0x00FF00)),
    ]

    private func assertSucceeded(_ result: RunResult, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.status, 0, "stderr: \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stderr, "", file: file, line: line)
    }

    func testScreenRulesAreAppliedInFileOrder() throws {
        let regions = try sandbox.write("rules", text: screenRules)
        assertSucceeded(try sandbox.run(["redact", "in.png", "--regions", regions, "-o", "out.png"]))
        assertSamePixels(try sandbox.image("out.png"), Pixels.painted(original, screenCovers))
    }

    func testRectsAreAppliedAfterTheRegionsFile() throws {
        let regions = try sandbox.write("rules", text: screenRules)
        let result = try sandbox.run(["redact", "in.png", "--regions", regions, "--rect", "10x10+30+20",
                                      "--fill", "#ff0000", "-o", "out.png"])
        assertSucceeded(result)
        let covers = screenCovers + [(Rect(x: 30, y: 20, width: 10, height: 10), 0xFF0000)]
        assertSamePixels(try sandbox.image("out.png"), Pixels.painted(original, covers))
    }

    func testDefaultRegionsFileInXDGConfigHome() throws {
        try sandbox.write("xdg/shotguard/regions", text: screenRules)
        try sandbox.write(".config/shotguard/regions", text: "screen 5x5+1+1 fill=#ff0000\n")
        let result = try sandbox.run(["redact", "in.png", "-o", "out.png"],
                                     environment: ["XDG_CONFIG_HOME": sandbox.path("xdg")])
        assertSucceeded(result)
        assertSamePixels(try sandbox.image("out.png"), Pixels.painted(original, screenCovers))
    }

    func testDefaultRegionsFileUnderHomeWhenXDGConfigHomeIsUnset() throws {
        try sandbox.write(".config/shotguard/regions", text: screenRules)
        let result = try sandbox.run(["redact", "in.png", "-o", "out.png"], environment: ["XDG_CONFIG_HOME": nil])
        assertSucceeded(result)
        assertSamePixels(try sandbox.image("out.png"), Pixels.painted(original, screenCovers))
    }

    func testExplicitRegionsFileReplacesTheDefault() throws {
        try sandbox.write(".config/shotguard/regions", text: screenRules)
        let regions = try sandbox.write("rules", text: "screen 5x5+1+1 fill=#ff0000\n")
        assertSucceeded(try sandbox.run(["redact", "in.png", "--regions", regions, "-o", "out.png"]))
        let expected = Pixels.painted(original, [(Rect(x: 1, y: 1, width: 5, height: 5), 0xFF0000)])
        assertSamePixels(try sandbox.image("out.png"), expected)
    }

    func testWindowRuleWithoutDisplayIsRefused() throws {
        let regions = try sandbox.write("rules", text: "screen 10x10+0+0\n# browsers\nwindow class=Firefox 100%x40+0+0\n")
        let result = try sandbox.run(["redact", "in.png", "--regions", regions, "-o", "out.png"])
        assertFailure(result, status: 2, prefix: "shotguard: \(regions): ", mentions: ["line 3", "X display"])
        assertOnlyFiles(["in.png", "rules"], in: sandbox)
    }

    func testSyntaxErrorNamesPathLineAndColumn() throws {
        let regions = try sandbox.write("rules", text: "screen 10x10+0+0\nscreen 10x10+0+0 fill=blurr\n")
        let result = try sandbox.run(["redact", "in.png", "--regions", regions, "-o", "out.png"])
        assertFailure(result, status: 2, prefix: "shotguard: \(regions):2:23: unknown fill 'blurr'")
        assertOnlyFiles(["in.png", "rules"], in: sandbox)
    }

    func testSyntaxErrorInDefaultFileIsRefused() throws {
        try sandbox.write(".config/shotguard/regions", text: "screan 10x10+0+0\n")
        let result = try sandbox.run(["redact", "in.png", "-o", "out.png"])
        let path = sandbox.path(".config/shotguard/regions")
        assertFailure(result, status: 2, prefix: "shotguard: \(path):1:1: unknown target 'screan'")
        XCTAssertFalse(sandbox.contents().contains("out.png"))
    }

    func testMissingRegionsFile() throws {
        let regions = sandbox.path("no-such-rules")
        let result = try sandbox.run(["redact", "in.png", "--regions", regions, "-o", "out.png"])
        assertFailure(result, status: 2, prefix: "shotguard: \(regions): ", mentions: ["No such file or directory"])
        assertOnlyFiles(["in.png"], in: sandbox)
    }

    /// Regression: a dangling link at the default path was taken for "no regions file", and the
    /// image went out with only the --rect covers (fail open). It is an error, and nothing is written.
    func testDanglingLinkAtTheDefaultPathIsRefused() throws {
        let path = sandbox.path(".config/shotguard/regions")
        try FileManager.default.createDirectory(atPath: sandbox.path(".config/shotguard"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: sandbox.path("synced/regions"))
        let result = try sandbox.run(["redact", "in.png", "--rect", "5x5+0+0", "-o", "out.png"])
        assertFailure(result, status: 2, prefix: "shotguard: \(path): ", mentions: ["No such file or directory"])
        assertOnlyFiles(["in.png", ".config", ".config/shotguard", ".config/shotguard/regions"], in: sandbox)
    }

    func testScreenRulesThatNeedTheScreenSizeFailClosedWithOriginAndNoDisplay() throws {
        let sandbox = try Sandbox(self)
        let input = try sandbox.write("in.png", png: PixelBuffer(width: 40, height: 30, fill: 0xFF12_3456))
        let rules = try sandbox.write("rules", text: "screen 10x10+0+0\nscreen 25%x100%+0+0\nscreen 5x5-0+0\n")
        let result = try sandbox.run(["redact", input, "--regions", rules, "--origin", "+100+50", "-o", sandbox.path("out.png")])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("\(rules): screen rules (line 2, 3) need the screen's size"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.path("out.png")))
    }
}
