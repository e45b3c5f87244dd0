// `--version`, `--help` and `redact --help`: exit 0, text on stdout, every option named.
import ShotguardTestSupport
import XCTest

final class HelpTests: XCTestCase {
    func testVersionPrintsNameAndVersion() throws {
        let result = try Sandbox(self).run(["--version"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stderr, "")
        XCTAssertNotNil(result.stdoutText.wholeMatch(of: /shotguard \d+\.\d+\.\d+\n/), result.stdoutText)
    }

    func testRootHelpNamesCommandsAndOptions() throws {
        let sandbox = try Sandbox(self)
        for flag in ["--help", "-h"] {
            let result = try sandbox.run([flag])
            XCTAssertEqual(result.status, 0, flag)
            XCTAssertEqual(result.stderr, "", flag)
            let help = result.stdoutText
            XCTAssertTrue(help.hasPrefix("Usage: shotguard "), help)
            for word in ["redact", "--help", "-h,", "--version", "Exit status: 0 success, 1 runtime failure, 2 usage"] {
                XCTAssertTrue(help.contains(word), "\(flag) help names \(word):\n\(help)")
            }
        }
    }

    func testRedactHelpNamesEveryOption() throws {
        let result = try Sandbox(self).run(["redact", "--help"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stderr, "")
        let help = result.stdoutText
        XCTAssertTrue(help.hasPrefix("Usage: shotguard redact [OPTIONS] IN -o FILE\n"), help)
        for word in ["-o, --output FILE", "--regions FILE", "--rect WxH+X+Y", "--fill STYLE", "--compression N",
                     "--format FORMAT", "--quality N", "-h, --help", "pixelate[:N]"] {
            XCTAssertTrue(help.contains(word), "redact help names \(word):\n\(help)")
        }
    }

    func testNoArgumentsPrintsHelpOnStderrWithUsageStatus() throws {
        let sandbox = try Sandbox(self)
        let result = try sandbox.run([])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stdout, [])
        XCTAssertEqual(result.stderr, try sandbox.run(["--help"]).stdoutText)
    }
}

final class RegionsHelpTests: XCTestCase {
    /// `regions --help` said "unknown regions command '--help'".
    func testRegionsHelpListsCheckAndShow() throws {
        let sandbox = try Sandbox(self)
        for arguments in [["regions", "--help"], ["regions", "-h"], ["help", "regions"]] {
            let result = try sandbox.run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr, "", "\(arguments)")
            for usage in ["Usage: shotguard regions check", "Usage: shotguard regions show"] {
                XCTAssertTrue(result.stdoutText.contains(usage), "\(arguments) shows \(usage):\n\(result.stdoutText)")
            }
        }
    }

    /// A word typed on the command line is quoted escaped: it cannot drive the terminal.
    func testUnknownCommandIsQuotedEscaped() throws {
        let result = try Sandbox(self).run(["\u{1B}[2Jwipe"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("unknown command '\\x1B[2Jwipe'"), result.stderr)
        XCTAssertFalse(result.stderr.contains("\u{1B}"), result.stderr)
    }
}
