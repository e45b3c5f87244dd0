// Command-line mistakes: exit 2, one `shotguard: ` line saying what is wrong, and no output file.
import ShotguardTestSupport
import XCTest

final class UsageErrorTests: XCTestCase {
    private var sandbox: Sandbox!
    private var input = ""

    override func setUpWithError() throws {
        sandbox = try Sandbox(self)
        input = try sandbox.write("in.png", png: Pixels.screenshot(width: 40, height: 30))
    }

    /// Runs `redact in.png -o out.png` plus `extra`, expecting a usage error and no new files.
    private func assertUsageError(_ extra: [String], prefix: String, mentions: [String] = [],
                                  file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try sandbox.run(["redact", input, "-o", sandbox.path("out.png")] + extra, file: file, line: line)
        assertFailure(result, status: 2, prefix: prefix, mentions: mentions, file: file, line: line)
        assertOnlyFiles(["in.png"], in: sandbox, file: file, line: line)
    }

    /// Regression: a --rect wholly outside the image exited 0 with nothing covered.
    func testARectWhollyOutsideTheImage() throws {
        for rect in ["10x10+100+100", "5x5+40+0", "5x5-45+0"] {
            try assertUsageError(["--rect", rect], prefix: "shotguard: redact: --rect \(rect) lies wholly outside the 40x30 image",
                                 mentions: ["nothing was written"])
        }
    }

    /// `windows --json --ids` printed ids and ignored --json; no output wins in silence.
    func testOutputsThatDoNotGoTogether() throws {
        for (command, flags) in [("windows", ["--json", "--ids"]), ("monitors", ["--json", "--names"])] {
            assertFailure(try sandbox.run([command] + flags), status: 2,
                          prefix: "shotguard: \(command): \(flags.joined(separator: " and ")) do not go together")
        }
    }

    func testUnknownCommand() throws {
        let result = try sandbox.run(["frobnicate", "x"])
        assertFailure(result, status: 2, prefix: "shotguard: unknown command 'frobnicate'", mentions: ["redact"])
    }

    func testUnknownOption() throws {
        try assertUsageError(["--bogus"], prefix: "shotguard: ", mentions: ["unknown option '--bogus'", "redact --help"])
    }

    func testMissingOutput() throws {
        let result = try sandbox.run(["redact", input, "--rect", "5x5+0+0"])
        assertFailure(result, status: 2, prefix: "shotguard: ", mentions: ["missing -o FILE", "-o -"])
        assertOnlyFiles(["in.png"], in: sandbox)
    }

    func testMissingInput() throws {
        let result = try sandbox.run(["redact", "-o", sandbox.path("out.png")])
        assertFailure(result, status: 2, prefix: "shotguard: redact: expected one input image")
        assertOnlyFiles(["in.png"], in: sandbox)
    }

    func testCompressionOutOfRange() throws {
        try assertUsageError(["--compression", "12"], prefix: "shotguard: --compression: '12' is not a level",
                             mentions: ["0 to 9"])
    }

    func testBadRect() throws {
        try assertUsageError(["--rect", "30y20+5+7"], prefix: "shotguard: --rect '30y20+5+7': expected 'x'",
                             mentions: ["WxH+X+Y"])
    }

    func testBadFill() throws {
        try assertUsageError(["--rect", "5x5+0+0", "--fill", "blurr"], prefix: "shotguard: --fill: unknown fill 'blurr'",
                             mentions: ["#rrggbb", "pixelate"])
    }

    func testBadFillColour() throws {
        try assertUsageError(["--rect", "5x5+0+0", "--fill", "#ff00"], prefix: "shotguard: --fill: bad colour '#ff00'")
    }
}
