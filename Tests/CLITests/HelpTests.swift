// `--version`, `--help` and `redact --help`: exit 0, text on stdout, every option named.
import ShotguardTestSupport
import XCTest

final class HelpTests: XCTestCase {
    /// `-v` and `-V` were refused; scrot and maim print their version for `-v`.
    func testVersionPrintsNameAndVersion() throws {
        let sandbox = try Sandbox(self)
        for flag in ["--version", "-v", "-V"] {
            let result = try sandbox.run([flag])
            XCTAssertEqual(result.status, 0, flag)
            XCTAssertEqual(result.stderr, "", flag)
            XCTAssertNotNil(result.stdoutText.wholeMatch(of: /shotguard \d+\.\d+\.\d+\n/), "\(flag): \(result.stdoutText)")
        }
    }

    /// Help ran to 120 columns and showed no example: every command's help, and the root's,
    /// fits 80 columns and ends with one.
    func testEveryHelpFitsEightyColumnsAndEndsWithAnExample() throws {
        let sandbox = try Sandbox(self)
        let root = try sandbox.run(["--help"]).stdoutText
        let commands = root.split(separator: "\n", omittingEmptySubsequences: false).drop { $0 != "Commands:" }.dropFirst().prefix { !$0.isEmpty }
            .filter { $0.hasPrefix("  ") && !$0.hasPrefix("    ") }
            .map { String($0.dropFirst(2).split(separator: "  ", maxSplits: 1)[0]) }
        XCTAssertGreaterThan(commands.count, 5, root)
        for words in [[]] + commands.map({ $0.split(separator: " ").map(String.init) }) {
            let result = try sandbox.run(words + ["--help"])
            XCTAssertEqual(result.status, 0, "\(words): \(result.stderr)")
            let lines = result.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            for line in lines where line.count > 80 {
                XCTFail("shotguard \(words.joined(separator: " ")) --help has a line of \(line.count) columns: \(line)")
            }
            let last = lines.reversed().prefix { !$0.hasSuffix(":") }
            XCTAssertTrue(lines.contains { $0 == "Example:" || $0 == "Examples:" }, "\(words): no example")
            XCTAssertTrue(!last.isEmpty && last.allSatisfy { $0.hasPrefix("  shotguard ") },
                          "shotguard \(words.joined(separator: " ")) --help ends with its example(s):\n\(result.stdoutText)")
        }
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
    /// `shotguard quarantine`, `quarantine --help` and `quarantine bogus` said "unknown command
    /// 'quarantine'": a command group, as `regions` is.
    func testQuarantineIsACommandGroup() throws {
        let sandbox = try Sandbox(self)
        for arguments in [["quarantine", "--help"], ["quarantine", "-h"], ["help", "quarantine"]] {
            let result = try sandbox.run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            for usage in ["Usage: shotguard quarantine list", "Usage: shotguard quarantine restore", "Usage: shotguard quarantine purge"] {
                XCTAssertTrue(result.stdoutText.contains(usage), "\(arguments) shows \(usage):\n\(result.stdoutText)")
            }
        }
        assertFailure(try sandbox.run(["quarantine"]), status: 2, prefix: "shotguard: quarantine needs a command",
                      mentions: ["expected list, restore or purge", "shotguard quarantine --help"])
        assertFailure(try sandbox.run(["quarantine", "bogus"]), status: 2, prefix: "shotguard: unknown quarantine command 'bogus'",
                      mentions: ["expected list, restore or purge"])
        assertFailure(try sandbox.run(["regions", "bogus"]), status: 2, prefix: "shotguard: unknown regions command 'bogus'",
                      mentions: ["expected add, check or show"])
    }

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
