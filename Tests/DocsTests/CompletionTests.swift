// The bash, zsh and fish completions against the built binary's help: commands, options, values.
import Foundation
import ShotguardTestSupport
import XCTest

final class CompletionTests: XCTestCase {
    // MARK: syntax

    func testBashCompletionParses() throws { try checkSyntax(.bash, ["-n"]) }
    func testZshCompletionParses() throws { try checkSyntax(.zsh, ["-n"]) }
    func testFishCompletionParses() throws { try checkSyntax(.fish, ["--no-execute"]) }

    // MARK: commands and options, both ways

    func testBashCompletesEveryCommandAndOption() throws { try checkCommandsAndOptions(.bash) }
    func testZshCompletesEveryCommandAndOption() throws { try checkCommandsAndOptions(.zsh) }
    func testFishCompletesEveryCommandAndOption() throws { try checkCommandsAndOptions(.fish) }

    func testCompletionFilesNameNoOptionThatShotguardLacks() throws {
        let known = try ShotguardHelp.read().allOptionNames
        for shell in Shell.allCases {
            let text = try String(contentsOf: repositoryFile(shell.completionFile), encoding: .utf8)
            for name in longOptionNames(in: text).subtracting(known).sorted() {
                XCTFail("\(shell.completionFile) names \(name), which no shotguard command has")
            }
        }
    }

    // MARK: which options take a value

    // fish offers options after any word that starts with '-', value or not, so only bash and
    // zsh can show here whether they know that an option takes a value.
    func testBashKnowsWhichOptionsTakeAValue() throws { try checkValueOptions(.bash) }
    func testZshKnowsWhichOptionsTakeAValue() throws { try checkValueOptions(.zsh) }

    // MARK: values

    func testBashCompletesValues() throws { try checkValues(.bash) }
    func testZshCompletesValues() throws { try checkValues(.zsh) }
    func testFishCompletesValues() throws { try checkValues(.fish) }

    func testBashCompletesNoWindowWithoutADisplay() throws { try checkNoWindowsWithoutDisplay(.bash) }
    func testZshCompletesNoWindowWithoutADisplay() throws { try checkNoWindowsWithoutDisplay(.zsh) }
    func testFishCompletesNoWindowWithoutADisplay() throws { try checkNoWindowsWithoutDisplay(.fish) }

    // MARK: checks

    private func checkSyntax(_ shell: Shell, _ flags: [String]) throws {
        let tool = try requireTool(shell.rawValue, package: shell.package)
        let result = try runProgram(tool, flags + [repositoryFile(shell.completionFile).path])
        XCTAssertEqual(result.status, 0, "\(shell) \(flags.joined()) \(shell.completionFile): \(result.stderr)")
        XCTAssertEqual(result.stderr, "", "\(shell) \(flags.joined()) \(shell.completionFile)")
    }

    /// `shotguard <Tab>` gives exactly the commands' first words, `shotguard regions <Tab>` the
    /// second words, and `shotguard COMMAND -<Tab>` exactly the options of COMMAND.
    private func checkCommandsAndOptions(_ shell: Shell) throws {
        let help = try ShotguardHelp.read()
        let sandbox = try Sandbox(self)
        let nested = help.firstWords.filter { !help.secondWords(after: $0).isEmpty }.sorted()
        var expected = ["shotguard ": help.firstWords]
        for first in nested { expected["shotguard \(first) "] = help.secondWords(after: first) }
        for command in help.all { expected[(["shotguard"] + command.words + ["-"]).joined(separator: " ")] = command.optionNames }

        let answers = try shell.complete(Array(expected.keys), path: sandbox.path, in: sandbox.folder)
        for (line, wanted) in expected.sorted(by: { $0.key < $1.key }) {
            let got = Set(answers[line] ?? [])
            for missing in wanted.subtracting(got).sorted() {
                XCTFail("\(shell) completion of '\(line)' lacks \(missing)")
            }
            for extra in got.subtracting(wanted).sorted() {
                XCTFail("\(shell) completion of '\(line)' offers \(extra), which shotguard's help does not list there")
            }
        }
    }

    /// After an option that takes a value the next word is that value, even when it starts
    /// with '-' (`-o -` is standard output): no options are offered there. After a flag they are.
    private func checkValueOptions(_ shell: Shell) throws {
        let help = try ShotguardHelp.read()
        let sandbox = try Sandbox(self)
        var cases: [String: (command: HelpCommand, option: HelpOption)] = [:]
        for command in help.all {
            // --help and --version end the command: completions rightly offer nothing after them.
            for option in command.options where option.long != "help" && option.long != "version" {
                for name in option.names {
                    cases[(["shotguard"] + command.words + [name, "-"]).joined(separator: " ")] = (command, option)
                }
            }
        }
        let answers = try shell.complete(Array(cases.keys), path: sandbox.path, in: sandbox.folder)
        for (line, item) in cases.sorted(by: { $0.key < $1.key }) {
            let offered = (answers[line] ?? []).filter { item.command.optionNames.contains($0) }
            if item.option.takesValue {
                XCTAssertEqual(offered, [], "\(shell): \(item.option.form) takes a value, so '\(line)' offers no options")
            } else {
                XCTAssertFalse(offered.isEmpty, "\(shell): \(item.option.names.last!) is a flag, so '\(line)' offers options")
            }
        }
    }

    /// The values of options, by what they stand for: files, folders, window ids (from
    /// `shotguard windows --ids`), monitor names (from `shotguard monitors --names`), fill
    /// styles and compression levels.
    private func checkValues(_ shell: Shell) throws {
        let help = try ShotguardHelp.read()
        let sandbox = try Sandbox(self)
        try sandbox.installFakeShotguard(windowIDs: ["0x1a00007", "0x2c00003"], monitorNames: ["DP-1", "HDMI-A-0"])

        typealias Check = (line: String, test: (Set<String>) -> Bool, what: String)
        var checks: [Check] = []
        for command in help.all {
            let prefix = (["shotguard"] + command.words).joined(separator: " ")
            for option in command.options {
                let long = "--\(option.long)"
                switch (option.placeholder, option.long) {
                case ("FILE", _):
                    for name in option.names {
                        checks.append(("\(prefix) \(name) sh", { $0.contains("shot.png") }, "files (shot.png)"))
                    }
                    checks.append(("\(prefix) \(long)=sh", { $0.contains { $0.hasSuffix("shot.png") } }, "files after '='"))
                case ("DIR", _):
                    checks.append(("\(prefix) \(long) o", { $0.contains("out") || $0.contains("out/") }, "folders (out)"))
                    checks.append(("\(prefix) \(long) sh", { !$0.contains("shot.png") }, "folders only, not shot.png"))
                case ("ID", "window"):
                    checks.append(("\(prefix) \(long) ", { $0 == ["0x1a00007", "0x2c00003"] },
                                   "the ids that 'shotguard windows --ids' prints"))
                case ("NAME", "monitor"):
                    checks.append(("\(prefix) \(long) ", { $0 == ["primary", "DP-1", "HDMI-A-0"] },
                                   "primary and the names that 'shotguard monitors --names' prints"))
                    checks.append(("\(prefix) \(long) H", { $0 == ["HDMI-A-0"] }, "the monitor names that start with H"))
                case ("STYLE", "fill"):
                    checks.append(("\(prefix) \(long) ", { values in
                        values.isSuperset(of: ["black", "pixelate:16"]) && values.contains { $0.hasPrefix("#") || $0.hasPrefix("\\#") }
                    }, "black, pixelate:16 and #"))
                    checks.append(("\(prefix) \(long) pixelate:", { $0.contains { $0.hasSuffix("16") } }, "pixelate:16"))
                case ("N", "compression"):
                    checks.append(("\(prefix) \(long) ", { $0 == Set((0...9).map(String.init)) }, "the levels 0 to 9"))
                default:
                    continue
                }
            }
        }
        if help.commands.contains(where: { $0.name == "redact" }) {
            checks.append(("shotguard redact sh", { $0.contains("shot.png") }, "the input file (shot.png)"))
        }
        XCTAssertFalse(checks.isEmpty)

        let answers = try shell.complete(checks.map(\.line), path: sandbox.path, in: sandbox.folder)
        for check in checks {
            let got = Set(answers[check.line] ?? [])
            XCTAssertTrue(check.test(got), "\(shell) completion of '\(check.line)' should give \(check.what); it gives \(got.sorted())")
        }
    }

    /// With the real binary and no display, `shotguard windows --ids` fails: the completion
    /// offers nothing and prints nothing.
    private func checkNoWindowsWithoutDisplay(_ shell: Shell) throws {
        let help = try ShotguardHelp.read()
        let sandbox = try Sandbox(self)
        let binaryFolder = try shotguardBinary().deletingLastPathComponent().path
        let lines = help.commands.filter { $0.option(named: "window") != nil }
            .map { (["shotguard"] + $0.words + ["--window", ""]).joined(separator: " ") }
        let answers = try shell.complete(lines, path: binaryFolder + ":" + sandbox.path, in: sandbox.folder)
        for line in lines { XCTAssertEqual(answers[line], [], "\(shell) completion of '\(line)' without a display") }
        let monitorLines = help.commands.filter { $0.option(named: "monitor") != nil }
            .map { (["shotguard"] + $0.words + ["--monitor", ""]).joined(separator: " ") }
        XCTAssertFalse(monitorLines.isEmpty)
        let monitorAnswers = try shell.complete(monitorLines, path: binaryFolder + ":" + sandbox.path, in: sandbox.folder)
        for line in monitorLines {
            // A set: zsh's _describe may hand the same match to compadd twice.
            XCTAssertEqual(Set(monitorAnswers[line] ?? []), ["primary"], "\(shell) completion of '\(line)' without a display")
        }
    }
}

extension HelpCommand {
    func option(named long: String) -> HelpOption? { options.first { $0.long == long } }
}

/// A folder to complete in (`shot.png`, `regions`, a folder `out`) and a PATH for the shells.
private struct Sandbox {
    let folder: URL
    let bin: URL

    init(_ test: XCTestCase) throws {
        folder = try TemporaryFolder(test, label: "completion").url
        bin = folder.appendingPathComponent(".bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("out"), withIntermediateDirectories: true)
        try Data("png".utf8).write(to: folder.appendingPathComponent("shot.png"))
        try Data("screen 10x10\n".utf8).write(to: folder.appendingPathComponent("regions"))
    }

    /// The shells' PATH: the fake shotguard first, then the system's.
    var path: String { bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin") }

    /// A `shotguard` whose `windows --ids` prints `windowIDs` and `monitors --names` prints
    /// `monitorNames`, to test their completion without a display.
    func installFakeShotguard(windowIDs: [String], monitorNames: [String]) throws {
        let script = """
            #!/bin/sh
            if [ "$1 $2" = "windows --ids" ]; then printf '\(windowIDs.joined(separator: "\\n"))\\n'; exit 0; fi
            if [ "$1 $2" = "monitors --names" ]; then printf '\(monitorNames.joined(separator: "\\n"))\\n'; exit 0; fi
            exit 1

            """
        let url = bin.appendingPathComponent("shotguard")
        try Data(script.utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
    }
}

/// The files in completions/ are exactly what `shotguard completions SHELL` prints, so they are
/// written from the command model and cannot drift from it ('make completions' rewrites them).
final class GeneratedCompletionTests: XCTestCase {
    func testTheCompletionFilesAreWhatTheBinaryPrints() throws {
        let binary = try shotguardBinary()
        let home = try TemporaryFolder(self, label: "completions").url
        for shell in Shell.allCases {
            let result = try runProgram(binary, ["completions", shell.rawValue], environment: testEnvironment(home: home))
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.stderr, "")
            let file = try String(contentsOf: repositoryFile(shell.completionFile), encoding: .utf8)
            XCTAssertTrue(result.stdoutText == file,
                          "\(shell.completionFile) is not what 'shotguard completions \(shell.rawValue)' prints; run 'make completions'")
        }
    }

    func testAnUnknownShellIsAUsageError() throws {
        let home = try TemporaryFolder(self, label: "completions").url
        for arguments in [["completions"], ["completions", "tcsh"], ["completions", "bash", "zsh"]] {
            let result = try runProgram(try shotguardBinary(), arguments, environment: testEnvironment(home: home))
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertTrue(result.stderr.hasPrefix("shotguard: completions: expected one shell, bash, zsh or fish"), result.stderr)
        }
    }
}
