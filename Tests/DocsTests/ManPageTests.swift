// shotguard(1) and shotguard-regions(5) against the built binary's help, and mandoc's linter.
import Foundation
import ShotguardTestSupport
import XCTest

final class ManPageTests: XCTestCase {
    static let pages = ["man/shotguard.1", "man/shotguard-regions.5", "man/shotguard-agent.conf.5", "man/shotguard-hold.8"]

    func testManPageHasASubsectionForEveryCommandAndNoOther() throws {
        let help = try ShotguardHelp.read()
        let page = try ManPage.render("man/shotguard.1")
        let commands = try XCTUnwrap(page.section("COMMANDS"), "shotguard(1) has no COMMANDS section")
        let documented = commands.subsections.map(\.title)
        for command in help.commands where !documented.contains(command.name) {
            XCTFail("shotguard(1) does not document '\(command.label)': add a '.SS \(command.name)' under COMMANDS")
        }
        for title in documented where !help.commands.contains(where: { $0.name == title }) {
            XCTFail("shotguard(1) documents a command '\(title)' that 'shotguard --help' does not list")
        }
        let synopsis = try XCTUnwrap(page.section("SYNOPSIS")).allLines.joined(separator: "\n")
        for command in help.commands where !synopsis.contains(command.label) {
            XCTFail("the SYNOPSIS of shotguard(1) does not show '\(command.label)'")
        }
    }

    func testManPageDocumentsEveryOptionOfEveryCommand() throws {
        let help = try ShotguardHelp.read()
        let page = try ManPage.render("man/shotguard.1")
        for command in help.all {
            let place = command.name.isEmpty ? "OPTIONS" : "COMMANDS, subsection '\(command.name)'"
            let lines = command.name.isEmpty
                ? page.section("OPTIONS")?.allLines
                : page.section("COMMANDS")?.subsection(command.name)
            guard let lines else { continue } // reported by the test above
            for option in command.options where !lines.hasTag(option.form) {
                XCTFail("shotguard(1) lacks '\(option.form)' of '\(command.label)' (a tagged paragraph under \(place))")
            }
            for tag in lines.taggedLongOptions where !command.optionNames.contains(tag) {
                XCTFail("shotguard(1) documents \(tag) under \(place), but '\(command.label) --help' has no such option")
            }
        }
    }

    func testManPagesNameNoOptionThatShotguardLacks() throws {
        // Other programs' options the pages tell the user to give those programs.
        let known = try ShotguardHelp.read().allOptionNames.union(["--force-renderer-accessibility"])
            // systemctl, busctl and gdbus, for the agent's unit and bus interface.
            .union(["--user", "--session", "--dest", "--object-path", "--method"])
        // shotguard-hold(8) documents another program's options (HoldHelperPageTests).
        for path in Self.pages where path != "man/shotguard-hold.8" {
            let page = try ManPage.render(path)
            for name in longOptionNames(in: page.text).subtracting(known).sorted() {
                XCTFail("\(path) names \(name), which no shotguard command has")
            }
        }
    }

    func testExitStatusSectionListsTheCodesOfHelp() throws {
        let help = try ShotguardHelp.read()
        let page = try ManPage.render("man/shotguard.1")
        let lines = try XCTUnwrap(page.section("EXIT STATUS"), "shotguard(1) has no EXIT STATUS section").lines
        let tags = lines.compactMap { $0.wholeMatch(of: #/ {7}(\d+)(?:\s.*)?/#).flatMap { Int($0.1) } }
        XCTAssertEqual(tags, help.exitCodes, "the EXIT STATUS tags of shotguard(1) and the exit codes of --help")
    }

    func testManPagesHaveTheUsualSections() throws {
        let expected = [
            "man/shotguard.1": ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "BACKGROUND AGENT", "BUS INTERFACE",
                                "NOTIFICATIONS", "FILES", "ENVIRONMENT", "EXIT STATUS", "EXAMPLES", "SEE ALSO"],
            "man/shotguard-regions.5": ["NAME", "SYNOPSIS", "DESCRIPTION", "DIAGNOSTICS", "FILES", "EXAMPLES", "SEE ALSO"],
            "man/shotguard-agent.conf.5": ["NAME", "SYNOPSIS", "DESCRIPTION", "DIAGNOSTICS", "FILES", "EXAMPLES", "SEE ALSO"],
        ]
        for (path, titles) in expected {
            XCTAssertEqual(try ManPage.render(path).sections.map(\.title), titles, path)
        }
        let manual = try ManPage.render("man/shotguard.1")
        let page = manual.text
        for word in ["DISPLAY", "XDG_CONFIG_HOME", "HOME", "TMPDIR", "~/.config/shotguard/regions",
                     "$XDG_CONFIG_HOME/shotguard/regions", "shotguard-regions(5)", "scrot(1)", "maim(1)", "xwininfo(1)"] {
            XCTAssertTrue(page.contains(word), "shotguard(1) mentions \(word)")
        }
        // What 'shotguard watch' reads and writes, and the files that start it.
        let background = try XCTUnwrap(manual.section("BACKGROUND AGENT"))
        for title in ["Sources", "Capture events", "Reports", "Report format", "Signals and locking"] {
            XCTAssertNotNil(background.subsection(title), "shotguard(1) has a subsection '\(title)' under BACKGROUND AGENT")
        }
        let files = try XCTUnwrap(manual.section("FILES")).allLines.joined(separator: "\n")
        for path in ["$XDG_STATE_HOME/shotguard/reports", "~/.local/state/shotguard/reports",
                     "$XDG_RUNTIME_DIR/shotguard/watch-DISPLAY.lock", "lib/systemd/user/shotguard.service",
                     "/etc/xdg/autostart/shotguard.desktop"] {
            XCTAssertTrue(files.contains(path), "the FILES section of shotguard(1) names \(path)")
        }
        let environment = try XCTUnwrap(manual.section("ENVIRONMENT")).allLines
        for variable in ["DISPLAY", "XDG_CONFIG_HOME", "HOME", "TMPDIR", "XDG_STATE_HOME", "XDG_RUNTIME_DIR"] {
            XCTAssertTrue(environment.hasTag(variable), "the ENVIRONMENT section of shotguard(1) describes \(variable)")
        }
    }

    /// Every field of report.json (schema 1) is described under BACKGROUND AGENT, "Report format".
    func testReportFormatNamesEveryField() throws {
        let page = try ManPage.render("man/shotguard.1")
        let format = try XCTUnwrap(page.section("BACKGROUND AGENT")?.subsection("Report format"),
                                   "shotguard(1) has no 'Report format' under BACKGROUND AGENT").joined(separator: "\n")
        let topLevel = ["schema", "id", "time", "signals", "image", "alignment", "redactions", "activeWindow", "screen",
                        "monitors", "host", "shotguard", "note"]
        for field in topLevel {
            XCTAssertTrue(format.split(separator: "\n").map(String.init).hasTag(field), "'Report format' has a paragraph for \(field)")
        }
        let nested = ["kind", "detail", "source", "path", "original", "width", "height", "method", "geometry", "window",
                      "line", "x", "y", "fill", "class", "instance", "title", "titleWithheld",
                      "monitor", "name", "primary"]
        for field in nested {
            XCTAssertNotNil(format.firstMatch(of: try Regex("\\b\(field)\\b")), "'Report format' names the field \(field)")
        }
    }

    /// The example of shotguard-regions(5) must be a file that shotguard accepts.
    func testRegionsPageExampleParses() throws {
        let page = try ManPage.render("man/shotguard-regions.5")
        let example = try XCTUnwrap(page.section("EXAMPLES")).lines
            .drop { $0.isEmpty }.prefix { !$0.isEmpty }
            .map { String($0.dropFirst(7)) }
        XCTAssertGreaterThan(example.count, 3, "the example of shotguard-regions(5)")
        let folder = try TemporaryFolder(self, label: "example").url
        let regions = folder.appendingPathComponent("regions")
        try (example.joined(separator: "\n") + "\n").write(to: regions, atomically: true, encoding: .utf8)
        // 'regions check' parses the file before it opens the display, which is absent here:
        // a file that parses fails later with 1, one that does not with 2 and its position.
        let result = try runProgram(try shotguardBinary(), ["regions", "check", "--regions", regions.path],
                             environment: testEnvironment(home: folder))
        XCTAssertNotEqual(result.status, 2, "the example does not parse: \(result.stderr)\n\(example.joined(separator: "\n"))")
        XCTAssertFalse(result.stderr.contains(regions.path + ":"), result.stderr)
    }

    func testMandocLintsBothPagesClean() throws {
        let mandoc = try requireTool("mandoc", package: "mandoc")
        for path in Self.pages {
            // -W style reports everything mandoc knows to complain about, style included.
            let result = try runProgram(mandoc, ["-Tlint", "-W", "style", repositoryFile(path).path])
            XCTAssertEqual(result.stdoutText + result.stderr, "", "mandoc -Tlint -W style \(path)")
            XCTAssertEqual(result.status, 0, "mandoc -Tlint -W style \(path)")
        }
    }
}

/// shotguard-hold(8) names every option the helper takes, as its usage says them.
final class HoldHelperPageTests: XCTestCase {
    func testThePageNamesEveryOptionOfTheHelper() throws {
        let page = try String(contentsOf: repositoryFile("man/shotguard-hold.8"), encoding: .utf8)
        let source = try String(contentsOf: repositoryFile("Sources/shotguard-hold/main.swift"), encoding: .utf8)
        let options = source.split(separator: "\n").compactMap { line -> String? in
            let text = line.trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix("case \"--"), let end = text.dropFirst(6).firstIndex(of: "\"") else { return nil }
            return String(text[text.index(text.startIndex, offsetBy: 6)..<end])
        }
        XCTAssertEqual(Set(options), ["--socket", "--verbose", "--help"], "the options main.swift takes")
        for option in options {
            XCTAssertTrue(page.contains(option.replacingOccurrences(of: "-", with: "\\-")), "shotguard-hold(8) names \(option)")
        }
    }
}
