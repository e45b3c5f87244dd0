// `--version`, `--help` and `redact --help`: exit 0, text on stdout, every option named.
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
